//! The one generator of legal actions, and the checks that refuse every other action.

use alloc::vec::Vec;

use crate::action::{Action, ActionError, Forbidden, Phase};
use crate::bag::Undrawable;
use crate::bits::WideBits;
use crate::board::FrontierCell;
use crate::edge::EdgeKind;
use crate::features::NodeId;
use crate::geom::{ByDir, Dir, Rotation};
use crate::player::Figure;
use crate::pos::Pos;
use crate::segment::{SegmentIndex, SegmentKind};
use crate::tile::TileIndex;

use super::{ChainStep, Game, Target, Turn, wrong_phase};
use crate::rulebook::ChainTurns;

impl Game {
    /// Every legal action now: the draw; the placements of the drawn tile (cell by cell in
    /// frontier order, rotations in increasing order); or the figure actions on the placed
    /// tile, then abbot recalls, then `Skip`. Empty once the game is over.
    ///
    /// [`Action::DrawTile`] is legal for every tile type the bag could give now but is not
    /// listed; [`Game::drawable`] tells which.
    #[must_use]
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(&mut actions);
        actions
    }

    /// As [`Game::legal_actions`], into a buffer the caller reuses (cleared first).
    pub fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        match self.phase {
            Phase::Draw => actions.push(Action::Draw),
            Phase::Place { tile } if !self.rules.constrained[usize::from(tile)] => {
                // The hot loop of self-play: one table lookup per frontier cell, and no branch
                // on how many rotations fit, which a random board makes unpredictable: each
                // cell writes four actions into room made beforehand and keeps as many as fit.
                // The count lives in a local, not in the vector, so no store waits on a load.
                let row = self.rules.fit.row(tile);
                let frontier = self.board.frontier_cells();
                actions.resize(frontier.len() * 4, Action::Skip);
                let mut listed = 0;
                for cell in frontier {
                    let rotations = row.get(usize::from(cell.key)).copied().unwrap_or_default();
                    let [a, b, c, d] = rotations.listed();
                    let pos = cell.pos;
                    if let Some([first, second, third, fourth]) =
                        actions.get_mut(listed..listed + 4)
                    {
                        *first = Action::Place { pos, rotation: a };
                        *second = Action::Place { pos, rotation: b };
                        *third = Action::Place { pos, rotation: c };
                        *fourth = Action::Place { pos, rotation: d };
                    }
                    listed += rotations.len();
                }
                actions.truncate(listed);
            }
            Phase::Place { tile } => self.placements_into(tile, |pos, rotation| {
                actions.push(Action::Place { pos, rotation });
                false
            }),
            Phase::Figure { .. } => self.figure_actions(|action| {
                actions.push(action);
                false
            }),
            Phase::Sheep { .. } => actions.push(Action::Draw),
            Phase::Flock { .. } => self.flock_actions(|action| {
                actions.push(action);
                false
            }),
            Phase::GameOver => {}
        }
    }

    /// How many actions [`Game::legal_actions`] would list, without listing them.
    ///
    /// With [`Game::legal_action`], a uniformly random legal action costs no list: what a
    /// random playout does on every turn.
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup};
    /// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// game.apply(carcassonne::Action::Draw)?;
    /// let listed = game.legal_actions();
    /// assert_eq!(game.legal_action_count(), listed.len());
    /// assert_eq!(game.legal_action(listed.len() - 1), listed.last().copied());
    /// assert_eq!(game.legal_action(listed.len()), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn legal_action_count(&self) -> usize {
        match self.phase {
            Phase::Draw | Phase::Sheep { .. } => 1,
            Phase::Place { .. } => self.placements as usize,
            Phase::GameOver => 0,
            Phase::Figure { .. } => {
                self.deployments.len()
                    + self.specials.open.len()
                    + self.recallable_abbots().count()
                    + 1
            }
            Phase::Flock { .. } => 1 + usize::from(self.check_grow().is_ok()),
        }
    }

    /// The action at `index` in [`Game::legal_actions`], found without listing the others;
    /// `None` past the end.
    #[must_use]
    pub fn legal_action(&self, index: usize) -> Option<Action> {
        match self.phase {
            Phase::Draw | Phase::Sheep { .. } => (index == 0).then_some(Action::Draw),
            Phase::Figure { .. } if index < self.deployments.len() => {
                self.deployments.nth(index).map(|bit| self.deployment(bit, 0))
            }
            Phase::Place { tile } if !self.rules.constrained[usize::from(tile)] => {
                let row = self.rules.fit.row(tile);
                let fits_at = |cell: &FrontierCell| {
                    row.get(usize::from(cell.key)).copied().unwrap_or_default()
                };
                let cells = self.board.frontier_cells();
                let count = self.placements as usize;
                // The count is known since the draw, so the scan starts from the nearer end:
                // a quarter of the frontier on average rather than half.
                if index < count / 2 {
                    let mut before = 0;
                    for cell in cells {
                        let fits = fits_at(cell);
                        if index < before + fits.len() {
                            let rotation = fits.listed()[index - before];
                            return Some(Action::Place { pos: cell.pos, rotation });
                        }
                        before += fits.len();
                    }
                } else if index < count {
                    let mut from = count;
                    for cell in cells.iter().rev() {
                        let fits = fits_at(cell);
                        from -= fits.len();
                        if index >= from {
                            let rotation = fits.listed()[index - from];
                            return Some(Action::Place { pos: cell.pos, rotation });
                        }
                    }
                }
                None
            }
            _ => {
                let mut seen = 0;
                let mut found = None;
                self.each_legal_action(|action| {
                    found = (seen == index).then_some(action);
                    seen += 1;
                    found.is_some()
                });
                found
            }
        }
    }

    /// Calls `each` with the legal actions in [`Game::legal_actions`]'s order until it
    /// returns `true`.
    fn each_legal_action(&self, mut each: impl FnMut(Action) -> bool) {
        match self.phase {
            Phase::Draw | Phase::Sheep { .. } => {
                each(Action::Draw);
            }
            Phase::Place { tile } => {
                self.placements_into(tile, |pos, rotation| each(Action::Place { pos, rotation }));
            }
            Phase::Figure { .. } => self.figure_actions(each),
            Phase::Flock { .. } => self.flock_actions(each),
            Phase::GameOver => {}
        }
    }

    /// Calls `each` with the flock phase's choices, growing first (when the bag has a
    /// token), until it returns `true`.
    fn flock_actions(&self, mut each: impl FnMut(Action) -> bool) {
        if self.check_grow().is_ok() && each(Action::GrowFlock) {
            return;
        }
        each(Action::DriveFlock);
    }

    /// Calls `each` with the figure actions open after the tile just placed (deployments of
    /// followers, then of special figures, abbot recalls, then `Skip`) until it returns
    /// `true`.
    fn figure_actions(&self, mut each: impl FnMut(Action) -> bool) {
        for bit in self.deployments.iter() {
            if each(self.deployment(bit, 0)) {
                return;
            }
        }
        let companions = self.rules.figures.followers();
        for bit in self.specials.open.iter() {
            if each(self.deployment(bit, companions)) {
                return;
            }
        }
        for pos in self.recallable_abbots() {
            if each(Action::RecallAbbot { pos }) {
                return;
            }
        }
        each(Action::Skip);
    }

    /// The deployments open on the tile at `pos`, as [`Game::deployments`] keeps them.
    pub(super) fn open_deployments(&self, pos: Pos) -> WideBits {
        let Some((tile, order, _)) = self.board.peek(pos) else { return WideBits::EMPTY };
        let followers = (1u16 << self.rules.figures.followers()) - 1;
        let in_supply = (self.supply[self.current].held().bits() & followers) as u8;
        if in_supply == 0 {
            return WideBits::EMPTY;
        }
        let segments = self.rules.tiles[usize::from(tile)].segments();
        let may_stand = &self.rules.may_stand[usize::from(tile)];
        let mut open = WideBits::EMPTY;
        for (segment, printed) in segments.iter().enumerate() {
            let choices = may_stand[printed.kind() as usize].bits() as u8 & in_supply;
            if choices == 0
                || self
                    .features
                    .node(order, segment as SegmentIndex)
                    .is_none_or(|node| self.features.data(node).figures > 0)
            {
                continue;
            }
            open = open.with_byte(segment, choices);
        }
        open
    }

    /// Where the current player has an abbot that may be recalled. Only a player whose abbot
    /// has left the supply can recall one: most games have no abbots, and the figures need
    /// not be searched for them.
    pub(super) fn recallable_abbots(&self) -> impl Iterator<Item = Pos> + '_ {
        let table = &self.rules.figures;
        let (supply, start) = (self.supply[self.current], self.rules.supply);
        let out = table
            .iter()
            .enumerate()
            .any(|(slot, rule)| table.recalls(rule.figure) && supply.0[slot] < start.0[slot]);
        let figures = if out { &self.figures[..] } else { &[] };
        figures
            .iter()
            .filter(|standing| {
                standing.player == self.current
                    && table.recalls(standing.figure)
                    && self.board.surrounding_tiles(standing.pos) < 8
            })
            .map(|standing| standing.pos)
    }

    /// Whether the bag could give tile type `tile` now.
    #[must_use]
    pub fn drawable(&self, tile: TileIndex) -> bool {
        self.check_draw(tile).is_ok()
    }

    /// Whether `action` would be accepted now, and why not.
    ///
    /// # Errors
    /// The reason [`Game::apply`] would give.
    pub fn check(&self, action: Action) -> Result<(), ActionError> {
        match (self.phase, action) {
            (Phase::GameOver, _) => Err(ActionError::GameOver),
            (Phase::Draw, Action::Draw) => Ok(()),
            (Phase::Draw, Action::DrawTile { tile }) => self.check_draw(tile),
            (Phase::Place { tile }, Action::Place { pos, rotation }) => {
                self.check_place(tile, pos, rotation).map(|_| ())
            }
            (Phase::Figure { pos }, Action::Deploy { segment, figure }) => {
                self.check_deploy(pos, segment, figure).map(|_| ())
            }
            (Phase::Figure { .. }, Action::RecallAbbot { pos }) => {
                self.check_recall(pos).map(|_| ())
            }
            (Phase::Figure { .. }, Action::Skip) => Ok(()),
            (Phase::Sheep { .. }, Action::Draw | Action::DrawToken { .. }) => {
                self.check_token(action).map(|_| ())
            }
            (Phase::Flock { .. }, Action::GrowFlock) => self.check_grow(),
            (Phase::Flock { .. }, Action::DriveFlock) => Ok(()),
            (phase, action) => Err(wrong_phase(phase, action)),
        }
    }

    /// Calls `each` with every legal (cell, rotation) of `tile` until it returns `true`.
    fn placements_into(&self, tile: TileIndex, mut each: impl FnMut(Pos, Rotation) -> bool) {
        let chained = self.rules.chained[usize::from(tile)];
        let rivals = self.rules.constrained[usize::from(tile)] && !self.rules.rivals.is_empty();
        for cell in self.board.frontier_cells() {
            let rotations = self.rules.fit.rotations_by_key(tile, cell.key);
            // A rivalry looks at the eight cells around, whatever the rotation.
            if rotations.is_empty() || rivals && self.rival_rule(tile, cell.pos).is_err() {
                continue;
            }
            let sides = if chained { self.board.constraint(cell.pos).0 } else { ByDir([None; 4]) };
            for rotation in rotations.iter() {
                if chained && self.chain_rule(tile, cell.pos, rotation, &sides).is_err() {
                    continue;
                }
                if each(cell.pos, rotation) {
                    return;
                }
            }
        }
    }

    /// How many placements `tile` has on the board.
    pub(super) fn placement_count(&self, tile: TileIndex) -> usize {
        // A full board still has a frontier, but no tile can be numbered on it: every tile
        // drawn is discarded and the game ends when the bag is empty.
        if self.board.is_full() {
            return 0;
        }
        if !self.rules.constrained[usize::from(tile)] {
            let row = self.rules.fit.row(tile);
            return self
                .board
                .frontier_cells()
                .iter()
                .map(|cell| row.get(usize::from(cell.key)).map_or(0, |fits| fits.len()))
                .sum();
        }
        let mut count = 0;
        self.placements_into(tile, |_, _| {
            count += 1;
            false
        });
        count
    }

    pub(super) fn check_draw(&self, tile: TileIndex) -> Result<(), ActionError> {
        self.bag.check(tile, &self.rules.groups).map_err(|why| match why {
            Undrawable::Unknown => ActionError::UnknownTile { tile },
            Undrawable::NoneLeft => ActionError::TileNotInBag { tile },
            Undrawable::LaterStage => ActionError::TileOfLaterStage { tile },
            Undrawable::ComesLast => ActionError::TileComesLast { tile },
            Undrawable::AfterFirst => ActionError::TilesComeFirst { tile },
        })
    }

    /// The tile's edges as placed, or why it cannot go there.
    pub(super) fn check_place(
        &self,
        tile: TileIndex,
        pos: Pos,
        rotation: Rotation,
    ) -> Result<(ByDir<EdgeKind>, Option<ChainStep>), ActionError> {
        let edges = self.rules.tiles[usize::from(tile)].edges().rotated(rotation);
        let chained = self.rules.chained[usize::from(tile)];
        // A frontier cell whose key admits the rotation passes every board rule (the board
        // is never full in the place phase: `has_placement` discards a tile drawn then): one
        // lookup where the full check reads four neighbours. The full check names what is
        // wrong.
        let fits = self
            .board
            .frontier_key(pos)
            .is_some_and(|key| self.rules.fit.rotations_by_key(tile, key).contains(rotation));
        if !fits {
            self.board.check(pos, edges)?;
        }
        let step = if chained {
            Some(self.chain_rule(tile, pos, rotation, &self.board.constraint(pos).0)?)
        } else {
            None
        };
        if self.rules.constrained[usize::from(tile)] && !self.rules.rivals.is_empty() {
            self.rival_rule(tile, pos)?;
        }
        Ok((edges, step))
    }

    /// A tile with a monastery or garden of a rivalry that limits its rivals may not leave
    /// one of either side with more rivals among its eight neighbours than the limit: neither
    /// its own feature ("a shrine may not be placed in such a way that it adjoins several
    /// cloisters") nor a neighbour of the other side, which it would be one more rival of.
    fn rival_rule(&self, tile: TileIndex, pos: Pos) -> Result<(), ActionError> {
        let sides_at = |at: Pos| {
            self.board
                .get(at)
                .and_then(|placed| self.rules.rival_sides.get(usize::from(placed.tile)))
                .copied()
                .unwrap_or_default()
        };
        let own = self.rules.rival_sides[usize::from(tile)];
        for (bit, (rule, rival)) in self.rules.rivals.iter().enumerate() {
            let Some(at_most) = rival.at_most else { continue };
            let (plain, marked) = own.of_rival(bit);
            for (here, side) in [(plain, false), (marked, true)] {
                if !here {
                    continue;
                }
                // Neighbours on the other side, each of which would gain this rival.
                let mut rivals = 0u8;
                for at in pos.surrounding() {
                    let (their_plain, their_marked) = sides_at(at).of_rival(bit);
                    if !(if side { their_plain } else { their_marked }) {
                        continue;
                    }
                    rivals += 1;
                    let theirs = at
                        .surrounding()
                        .filter(|next| {
                            let (plain, marked) = sides_at(*next).of_rival(bit);
                            if side { marked } else { plain }
                        })
                        .count();
                    if rivals > at_most || theirs >= usize::from(at_most) {
                        return Err(ActionError::TooManyRivals {
                            pos,
                            rule: *rule,
                            feature: rival.feature,
                            at_most,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// A tile of the declared chain (a river tile) must put one chain edge against an open
    /// end of the chain, and only one: the branches never join. With alternating turns, none
    /// of its other chain edges may turn the way the last curve before that end did. Returns
    /// the end it continues.
    fn chain_rule(
        &self,
        tile: TileIndex,
        pos: Pos,
        rotation: Rotation,
        sides: &ByDir<Option<EdgeKind>>,
    ) -> Result<ChainStep, ActionError> {
        let Some(chain) = self.rules.chain else {
            return Err(ActionError::RiverNotContinued { pos });
        };
        let edges = self.rules.tiles[usize::from(tile)].edges().rotated(rotation);
        let mut inflow = None;
        for dir in Dir::ALL {
            if edges[dir] == chain.edge && sides[dir] == Some(chain.edge) {
                if inflow.is_some() {
                    return Err(ActionError::RiverBranchesJoin { pos });
                }
                inflow = Some(dir);
            }
        }
        let Some(inflow) = inflow else {
            return Err(ActionError::RiverNotContinued { pos });
        };
        let end = self.chain_ends.iter().position(|end| end.pos == pos && end.from == inflow);
        let last = end.and_then(|end| self.chain_ends[end].turn);
        if chain.turns == ChainTurns::Alternate && last.is_some() {
            let outflows = Dir::ALL.into_iter().filter(|dir| *dir != inflow);
            for outflow in outflows.filter(|dir| edges[*dir] == chain.edge) {
                if Turn::between(inflow, outflow) == last {
                    return Err(ActionError::RiverTurnsBack { pos });
                }
            }
        }
        Ok(ChainStep { end, inflow })
    }

    /// The node a figure would stand on and the figure's place in the game's table, or why
    /// it cannot.
    pub(super) fn check_deploy(
        &self,
        pos: Pos,
        segment: SegmentIndex,
        figure: Figure,
    ) -> Result<(NodeId, usize), ActionError> {
        let target = self.deploy_target(pos, segment)?;
        let slot = self.may_deploy(&target, figure)?;
        if !self.rules.figures.is_follower_slot(slot) {
            self.special_rule(target.node, segment, figure)?;
        }
        Ok((target.node, slot))
    }

    /// What a figure deployed on segment `segment` of the tile at `pos` would stand on.
    fn deploy_target(&self, pos: Pos, segment: SegmentIndex) -> Result<Target, ActionError> {
        let placed = self.board.get(pos).ok_or(ActionError::NoSuchSegment { segment })?;
        let tile = &self.rules.tiles[usize::from(placed.tile)];
        let kind = tile
            .segments()
            .get(usize::from(segment))
            .ok_or(ActionError::NoSuchSegment { segment })?
            .kind();
        let node = self
            .features
            .node(placed.order, segment)
            .ok_or(ActionError::NoSuchSegment { segment })?;
        let occupied = self.features.data(node).figures > 0;
        Ok(Target { tile: placed.tile, segment, kind, node, occupied })
    }

    /// Whether the current player may put `figure` on `target`: the kind of segment, then
    /// the supply, then whether the feature is free; the figure's place in the game's table
    /// if so.
    fn may_deploy(&self, target: &Target, figure: Figure) -> Result<usize, ActionError> {
        let kind = target.kind;
        if kind == SegmentKind::River {
            let why = Forbidden::River;
            return Err(ActionError::FigureNotAllowed { figure, kind, why });
        }
        let table = &self.rules.figures;
        let Some((slot, rule)) = table.entry(figure) else {
            if let Some(why) = self.rules.declared_occupants(target.tile, kind, figure) {
                return Err(ActionError::FigureNotAllowed { figure, kind, why });
            }
            return Err(ActionError::NoneLeft { figure });
        };
        if !rule.stands_on.contains(kind) {
            let why = Forbidden::StandsOnlyOn(rule.stands_on);
            return Err(ActionError::FigureNotAllowed { figure, kind, why });
        }
        if !rule.may_stand_on(kind, self.options().farmers) {
            let why = Forbidden::NoFarmers;
            return Err(ActionError::FigureNotAllowed { figure, kind, why });
        }
        if !self.rules.occupants[usize::from(target.tile)][kind as usize].contains(slot) {
            let why = self.rules.declared_occupants(target.tile, kind, figure);
            let why = why.unwrap_or(Forbidden::OnlyDeclared(crate::player::FigureList::EMPTY));
            return Err(ActionError::FigureNotAllowed { figure, kind, why });
        }
        if self.supply[self.current].0[slot] == 0 {
            return Err(ActionError::NoneLeft { figure });
        }
        if target.occupied && rule.is_follower() {
            return Err(ActionError::FeatureOccupied { segment: target.segment });
        }
        Ok(slot)
    }

    /// The index of the current player's abbot at `pos`, if it may be recalled: the rules
    /// (`docs/rules.md`) recall only from an unfinished monastery or garden.
    pub(super) fn check_recall(&self, pos: Pos) -> Result<usize, ActionError> {
        let index = self.abbot_at(pos).ok_or(ActionError::NoAbbotThere { pos })?;
        if self.board.surrounding_tiles(pos) == 8 {
            return Err(ActionError::AbbotFeatureComplete { pos });
        }
        Ok(index)
    }

    /// The index in `figures` of the current player's abbot at `pos`.
    fn abbot_at(&self, pos: Pos) -> Option<usize> {
        self.figures.iter().position(|standing| {
            standing.player == self.current
                && self.rules.figures.recalls(standing.figure)
                && standing.pos == pos
        })
    }

    pub(super) fn node_at(&self, pos: Pos, segment: SegmentIndex) -> Option<NodeId> {
        let placed = self.board.get(pos)?;
        self.features.node(placed.order, segment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Catalog, GameSetup};

    fn place(game: &mut Game, id: &str, x: i16, y: i16, rotation: Rotation) {
        let (tile, _) = game.tile_by_id(id).unwrap();
        game.apply(Action::DrawTile { tile }).unwrap();
        game.apply(Action::Place { pos: Pos::new(x, y), rotation }).unwrap();
        game.apply(Action::Skip).unwrap();
    }

    /// A river tile facing two open ends of the river would join its branches, and the rule
    /// names that (in play it is never drawn with another place: the two branches' only ends
    /// are then in that cell, so it is discarded, as `tests/rules.rs` shows).
    #[test]
    #[cfg_attr(miri, ignore = "parses two built-in sets; tests/rules.rs plays the rule natively")]
    fn joining_two_branches_is_refused_by_name() {
        let sets = ["base", "river_ii"].map(|name| Catalog::builtin(name).unwrap()).to_vec();
        let mut game = Game::new(GameSetup::new(sets, 2)).unwrap();
        place(&mut game, "river2_fork", 1, 0, Rotation::R0);
        place(&mut game, "river2_curve", 1, 1, Rotation::R270);
        place(&mut game, "river2_curve_pig_herd", 2, 0, Rotation::R0);
        let (bend, _) = game.tile_by_id("river2_curve_road").unwrap();
        let at = Pos::new(2, 1);
        let sides = game.board.constraint(at).0;
        assert_eq!(
            game.chain_rule(bend, at, Rotation::R0, &sides).map(|_| ()),
            Err(ActionError::RiverBranchesJoin { pos: at })
        );
    }
}
