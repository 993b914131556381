//! The special figures of Traders & Builders and Hills & Sheep in play: where a builder, pig
//! or shepherd may go, the builder's second turn, the shepherd's flock (its draws, its growth,
//! the market and the wolf), and the tiles hills hide.

use alloc::vec::Vec;

use crate::action::{Action, ActionError, Phase};
use crate::bits::WideBits;
use crate::event::{Event, FeatureScore, ScoreReason};
use crate::features::NodeId;
use crate::hoard::{Bags, Hoard};
use crate::player::{Figure, MAX_FOLLOWER_KINDS, PlayerId, PlayerSet, Slots};
use crate::pos::Pos;
use crate::rulebook::{Alone, Drawn, Extended, FigureRole, Joins, MarkCounts, RuleId};
use crate::scoring::Standing;
use crate::segment::{SegmentIndex, SegmentKind};

use super::Game;

/// A token about to be drawn for a shepherd: the one just deployed, or the one whose flock
/// grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Drawing {
    /// The shepherd's cell and segment.
    pub(super) shepherd: (Pos, SegmentIndex),
    /// Whether the flock grows (else the shepherd was just deployed).
    pub(super) grows: bool,
}

/// What the special figures add to a game's state; all empty in games without them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Specials {
    /// In the figure phase, the companions' deployments open on the tile just placed: bit
    /// `MAX_FOLLOWER_KINDS × segment + n` for `Deploy { segment, figure }` with the figure
    /// `n` places after the followers in the game's table.
    pub(super) open: WideBits,
    /// The tile just placed extended a road or city holding the current player's builder.
    pub(super) builder_due: bool,
    /// The current turn is a builder's second turn, which gives no third.
    pub(super) second_turn: bool,
    /// The current player's shepherds whose fields the tile just placed extended, one a field
    /// in the order of the tile's segments: each flock in turn grows or goes to market once
    /// the figure step is done, the first of them now.
    pub(super) flocks_due: Vec<(Pos, SegmentIndex)>,
    /// In the sheep phase, whom the token is for.
    pub(super) drawing: Option<Drawing>,
    /// What the game's bags hold.
    pub(super) bags: Bags,
    /// The figures on the board that draw from a bag, with the tokens they keep.
    pub(super) hoards: Vec<Hoard>,
    /// Each bag token drawn at random, as the action that names it, with the index in the
    /// log of the draw: what a reshuffle writes into the log.
    pub(super) random_draws: Vec<(usize, Action)>,
    /// Tiles hidden under hills: they stay in the bag, unknown, and are never drawn ("in
    /// reality no specific tile is selected when the hill is placed", as JCloisterZone
    /// reasons; drawing uniformly and leaving this many undrawn at the end is the same game).
    pub(super) hidden: u32,
}

impl Game {
    /// The figures standing on the feature whose root is `root`, with their indices.
    fn standing_on(&self, root: NodeId) -> impl Iterator<Item = (usize, Standing)> + '_ {
        self.figures
            .iter()
            .copied()
            .enumerate()
            .filter(move |(_, standing)| self.features.root(standing.node) == root)
    }

    /// Why `figure`, a special figure, may not go on the feature of `node` (segment
    /// `segment` of the tile just placed) for the current player, beyond its kind and supply.
    pub(super) fn special_rule(
        &self,
        node: NodeId,
        segment: SegmentIndex,
        figure: Figure,
    ) -> Result<(), ActionError> {
        let Some(FigureRole::Companion { joins, alone, .. }) =
            self.rules.figures.get(figure).map(|rule| rule.role)
        else {
            return Ok(());
        };
        let root = self.features.root(node);
        let player = self.current;
        let mut own_follower = false;
        for (_, standing) in self.standing_on(root) {
            let mine = standing.player == player;
            own_follower |= mine && self.rules.figures.is_follower(standing.figure);
            if standing.figure == figure && (mine || alone == Alone::All) {
                return Err(ActionError::FigureAlreadyThere { figure, segment });
            }
        }
        if joins == Joins::OwnFollower && !own_follower {
            return Err(ActionError::NeedsOwnFollower { figure, segment });
        }
        Ok(())
    }

    /// The special deployments open on the tile at `pos`, as [`Specials::open`] keeps them.
    pub(super) fn open_specials(&self, pos: Pos) -> WideBits {
        let table = &self.rules.figures;
        let first = table.followers();
        let held = self.supply[self.current].held().bits() >> first;
        if held == 0 {
            return WideBits::EMPTY;
        }
        let Some((tile, order, _)) = self.board.peek(pos) else { return WideBits::EMPTY };
        let segments = self.rules.tiles[usize::from(tile)].segments();
        let may_stand = &self.rules.may_stand[usize::from(tile)];
        let mut open = WideBits::EMPTY;
        for (segment, printed) in segments.iter().enumerate() {
            let may = may_stand[printed.kind() as usize].bits() >> first & held;
            if may == 0 {
                continue;
            }
            let Some(node) = self.features.node(order, segment as SegmentIndex) else { continue };
            for n in Slots::from_bits(may).iter() {
                let Some(rule) = table.at(first + n) else { continue };
                if self.special_rule(node, segment as SegmentIndex, rule.figure).is_ok() {
                    open = open.with(MAX_FOLLOWER_KINDS * segment + n);
                }
            }
        }
        open
    }

    /// After the tile at `pos` joined the board: whether it extended a road or city holding
    /// the current player's builder, and which of their shepherds' fields it extended.
    pub(super) fn note_extensions(&mut self, pos: Pos) {
        self.specials.builder_due = false;
        self.specials.flocks_due.clear();
        if self.figures.iter().all(|standing| self.rules.figures.is_follower(standing.figure)) {
            return;
        }
        let Some((tile, order, _)) = self.board.peek(pos) else { return };
        let segments = self.rules.tiles[usize::from(tile)].segments();
        let mut builder = false;
        // Each field extended gets its own choice, once however many of the tile's segments
        // or the player's shepherds it holds: its shepherds tend one flock.
        let (mut fields, mut due): (Vec<NodeId>, Vec<(Pos, SegmentIndex)>) =
            (Vec::new(), Vec::new());
        for segment in 0..segments.len() as SegmentIndex {
            let Some(node) = self.features.node(order, segment) else { continue };
            let root = self.features.root(node);
            for (_, standing) in self.standing_on(root) {
                if standing.player != self.current {
                    continue;
                }
                match self.rules.figures.extended(standing.figure) {
                    Some(Extended::ExtraTurn) => builder = true,
                    Some(Extended::DrawOrCash) if !fields.contains(&root) => {
                        fields.push(root);
                        due.push((standing.pos, standing.segment));
                    }
                    _ => {}
                }
            }
        }
        self.specials.builder_due = builder;
        self.specials.flocks_due = due;
    }

    /// A special figure, at `slot` of the game's table, goes onto `node`; a shepherd draws
    /// its first token at once.
    pub(super) fn deploy_special(
        &mut self,
        pos: Pos,
        segment: SegmentIndex,
        (figure, slot): (Figure, usize),
        node: NodeId,
        events: &mut Vec<Event>,
    ) {
        let player = self.current;
        self.supply[player].0[slot] -= 1;
        let kind = self.features.kind(node);
        self.figures.push(Standing { player, figure, pos, segment, node, kind });
        events.push(Event::FigurePlaced { player, figure, pos, segment });
        if let Some(bag) = self.rules.bag_of(figure) {
            self.specials.hoards.push(Hoard::new(player, pos, segment, bag));
            if self.specials.bags.total(self.rules.bags.kinds_of(bag)) > 0 {
                let shepherd = (pos, segment);
                self.specials.drawing = Some(Drawing { shepherd, grows: false });
                self.phase = Phase::Sheep { pos };
                return;
            }
        }
        self.after_figure(pos, events);
    }

    /// The figure step of the turn whose tile lies at `pos` is done, or a flock's choice: the
    /// current player's next extended flock grows or goes to market if there is one ("after
    /// placing a follower, or not", Hills & Sheep), and once none is left the turn ends.
    pub(super) fn after_figure(&mut self, pos: Pos, events: &mut Vec<Event>) {
        // A flock the wolf took or the market emptied since the tile was placed has no choice.
        while let Some(shepherd) = self.specials.flocks_due.first().copied() {
            if self.flock_at(shepherd).is_some() {
                self.phase = Phase::Flock { pos };
                return;
            }
            self.specials.flocks_due.remove(0);
        }
        self.end_turn(pos, events);
    }

    /// The index in the hoards of the figure at `shepherd`.
    fn flock_at(&self, (pos, segment): (Pos, SegmentIndex)) -> Option<usize> {
        self.specials.hoards.iter().position(|hoard| hoard.pos == pos && hoard.segment == segment)
    }

    /// The tokens left in the bag the figure at `shepherd` draws from.
    fn left_for(&self, shepherd: (Pos, SegmentIndex)) -> u32 {
        self.flock_at(shepherd).map_or(0, |index| {
            self.specials.bags.total(self.rules.bags.kinds_of(self.specials.hoards[index].bag))
        })
    }

    /// Whether a token can be drawn for a growing flock.
    pub(super) fn check_grow(&self) -> Result<(), ActionError> {
        match self.specials.flocks_due.first() {
            Some(shepherd) if self.left_for(*shepherd) > 0 => Ok(()),
            _ => Err(ActionError::FlockBagEmpty),
        }
    }

    /// The flock phase's choice: grow (a token is drawn next) or go to market.
    pub(super) fn tend_flock(&mut self, pos: Pos, grow: bool, events: &mut Vec<Event>) {
        if self.specials.flocks_due.is_empty() {
            self.end_turn(pos, events);
            return;
        }
        let shepherd = self.specials.flocks_due.remove(0);
        if grow {
            self.specials.drawing = Some(Drawing { shepherd, grows: true });
            self.phase = Phase::Sheep { pos };
            return;
        }
        if let (Some(standing), Some(index)) = (self.figure_at(shepherd), self.flock_at(shepherd)) {
            let root = self.features.root(standing.node);
            self.market(root, self.specials.hoards[index].bag, events);
        }
        self.after_figure(pos, events);
    }

    /// The standing figure at `shepherd`'s cell and segment.
    fn figure_at(&self, (pos, segment): (Pos, SegmentIndex)) -> Option<Standing> {
        self.figures
            .iter()
            .copied()
            .find(|standing| standing.pos == pos && standing.segment == segment)
    }

    /// The bag the figure the sheep phase draws for draws from.
    fn drawing_bag(&self) -> Option<RuleId> {
        let drawing = self.specials.drawing?;
        Some(self.specials.hoards[self.flock_at(drawing.shepherd)?].bag)
    }

    /// The game's kind of the token `action` names in the sheep phase, or why it cannot be
    /// drawn; `None` for a random draw.
    pub(super) fn check_token(&self, action: Action) -> Result<Option<usize>, ActionError> {
        let Action::DrawToken { token } = action else { return Ok(None) };
        let kind = self.drawing_bag().and_then(|bag| self.rules.bags.kind_in(bag, token));
        match kind {
            Some(kind) if self.specials.bags.0[kind] > 0 => Ok(Some(kind)),
            _ => Err(ActionError::TokenNotInBag {
                token,
                then: kind.map(|kind| self.rules.bags.kinds[kind].rule.then),
            }),
        }
    }

    /// Draws the token of kind `kind` (or a random one) for the figure the sheep phase is
    /// for, then goes on with the turn whose tile lies at `pos`.
    pub(super) fn draw_token(&mut self, pos: Pos, kind: Option<usize>, events: &mut Vec<Event>) {
        let bag = self.drawing_bag();
        let kind = kind.or_else(|| {
            let kind = self.specials.bags.pick(self.rules.bags.kinds_of(bag?), &mut self.rng)?;
            let token = self.rules.bags.kinds[kind].rule.token;
            self.specials.random_draws.push((self.log.len(), Action::DrawToken { token }));
            Some(kind)
        });
        let Some(drawing) = self.specials.drawing.take() else {
            self.end_turn(pos, events);
            return;
        };
        let Some(kind) = kind else {
            self.after_figure(pos, events);
            return;
        };
        let (at, segment) = drawing.shepherd;
        let player = self.current;
        let rule = self.rules.bags.kinds[kind].rule;
        events.push(Event::TokenDrawn { player, pos: at, segment, drawn: rule.token });
        match rule.then {
            Drawn::Keep => {
                self.specials.bags.0[kind] -= 1;
                if let Some(index) = self.flock_at(drawing.shepherd) {
                    self.specials.hoards[index].tokens[kind] += 1;
                }
            }
            Drawn::SendHome => {
                // On growing, the whole feature's hoards of this bag go (its flock is all
                // their flocks); a figure just deployed has only itself to lose.
                let eaten: Vec<usize> = match (self.figure_at(drawing.shepherd), bag) {
                    (Some(standing), Some(bag)) if drawing.grows => {
                        let root = self.features.root(standing.node);
                        self.shepherds_on(root, bag)
                    }
                    (Some(_), _) => self.flock_at(drawing.shepherd).into_iter().collect(),
                    (None, _) => Vec::new(),
                };
                self.send_home(&eaten, events);
            }
        }
        // Either way the figure step is over: the next extended flock, if any, is tended.
        self.after_figure(pos, events);
    }

    /// The indices in the hoards of the figures on the feature whose root is `root` that
    /// draw from the bag `bag` declares.
    fn shepherds_on(&self, root: NodeId, bag: RuleId) -> Vec<usize> {
        let on_feature = |hoard: &Hoard| {
            hoard.bag == bag
                && self
                    .figure_at((hoard.pos, hoard.segment))
                    .is_some_and(|standing| self.features.root(standing.node) == root)
        };
        (0..self.specials.hoards.len())
            .filter(|index| on_feature(&self.specials.hoards[*index]))
            .collect()
    }

    /// The shepherds of the flocks at `indices` go home, their tokens back into the bag.
    fn send_home(&mut self, indices: &[usize], events: &mut Vec<Event>) {
        let mut shepherds: Vec<(Pos, SegmentIndex)> = Vec::with_capacity(indices.len());
        for index in indices {
            let hoard = self.specials.hoards[*index];
            self.specials.bags.put_back(&hoard.tokens);
            shepherds.push((hoard.pos, hoard.segment));
        }
        self.specials.hoards.retain(|hoard| !shepherds.contains(&(hoard.pos, hoard.segment)));
        for shepherd in shepherds {
            if let Some(index) = self.figures.iter().position(|standing| {
                (standing.pos, standing.segment) == shepherd
                    && self.rules.bag_of(standing.figure).is_some()
            }) {
                self.return_figure(index, events);
            }
        }
    }

    /// The flock of the field whose root is `root` goes to market: every shepherd there
    /// scores all the field's sheep, a declared number of points each ("If one of the
    /// shepherds counts the sheep, every shepherd receives those points", Hills & Sheep), and
    /// goes home, the tokens back into the bag.
    pub(super) fn market(&mut self, root: NodeId, bag: RuleId, events: &mut Vec<Event>) {
        let shepherds = self.shepherds_on(root, bag);
        let Some(first) = shepherds.first().map(|index| self.specials.hoards[*index]) else {
            return;
        };
        let kinds = &self.rules.bags.kinds;
        let sheep: u32 =
            shepherds.iter().map(|index| self.specials.hoards[*index].worth(kinds)).sum();
        let scorers: PlayerSet =
            shepherds.iter().map(|index| self.specials.hoards[*index].player).collect();
        let (rule, per_sheep) = (Some(bag), self.rules.bags.points_of(bag));
        let closed = self.field_closed(root);
        self.award(
            FeatureScore {
                kind: SegmentKind::Field,
                pos: first.pos,
                segment: first.segment,
                reason: ScoreReason::Market,
                complete: closed,
                tiles: self.features.tile_count(root) as u32,
                marks: MarkCounts::default(),
                cities: 0,
                rule,
                farmers: false,
                points: sheep.saturating_mul(per_sheep),
                scorers,
            },
            events,
        );
        self.send_home(&shepherds, events);
    }

    /// Every field with a shepherd that no open edge leaves any more goes to market, whoever
    /// owns the shepherds: "If any player completes a field with shepherds and sheep by fully
    /// surrounding it by roads and cities, immediately resolve the Guide the flock to the
    /// stable action for that field" (Hills & Sheep, second edition).
    pub(super) fn market_closed_fields(&mut self, events: &mut Vec<Event>) {
        let mut index = 0;
        while index < self.specials.hoards.len() {
            let hoard = self.specials.hoards[index];
            let root = self
                .figure_at((hoard.pos, hoard.segment))
                .map(|standing| self.features.root(standing.node));
            match root {
                Some(root) if self.field_closed(root) => self.market(root, hoard.bag, events),
                _ => index += 1,
            }
        }
    }

    /// Whether the field whose root is `root` is closed: every half-edge of every segment of
    /// it faces a placed tile.
    pub(super) fn field_closed(&self, root: NodeId) -> bool {
        self.features.members(root).all(|(order, segment)| {
            let Some((pos, tile)) = self.placed.get(usize::from(order)).copied() else {
                return true;
            };
            let rotation =
                self.board.get(pos).map_or(crate::geom::Rotation::R0, |placed| placed.rotation);
            let printed = &self.rules.tiles[usize::from(tile)].segments()[usize::from(segment)];
            printed.half_edges().iter().all(|half| {
                let dir = half.dir().rotated(rotation);
                pos.neighbour(dir).is_some_and(|next| self.board.get(next).is_some())
            })
        })
    }

    /// The player whose turn comes after the current one's: the same player once more when
    /// the tile just placed extended their builder's road or city, outside a second turn.
    pub(super) fn next_player(&mut self, events: &mut Vec<Event>) -> PlayerId {
        let builder = core::mem::take(&mut self.specials.builder_due);
        if builder && !self.specials.second_turn {
            self.specials.second_turn = true;
            events.push(Event::ExtraTurn { player: self.current });
            return self.current;
        }
        self.specials.second_turn = false;
        let next = self.current.0 + 1;
        PlayerId(if next == self.players() { 0 } else { next })
    }
}
