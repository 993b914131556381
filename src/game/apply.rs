//! `apply`, the only thing that changes a game: drawing, placing, deploying, recalling, and
//! the scoring at the end of each turn and of the game.

use alloc::sync::Arc;
use alloc::vec::Vec;

use smallvec::SmallVec;

use crate::action::{Action, ActionError, Phase};
use crate::event::{Event, FeatureScore, ScoreReason};
use crate::features::NodeId;
use crate::player::{PlayerId, PlayerSet};
use crate::pos::Pos;
use crate::rulebook::{MarkCounts, Taker, TitleId, TokenId};
use crate::scoring::{Scene, Standing, Valuation, locate};
use crate::segment::{SegmentIndex, SegmentKind, SegmentSet};
use crate::setup::TitleScoring;
use crate::tile::TileIndex;

use super::{ChainEnd, ChainStep, Game, Turn, is_cloister, wrong_phase};
use crate::edge::EdgeKind;
use crate::geom::{ByDir, Dir};

impl Game {
    /// Applies `action` and returns what happened.
    ///
    /// # Errors
    /// Why the action is not legal now; the game is then exactly as before.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let mut events = Vec::new();
        self.apply_into(action, &mut events)?;
        Ok(events)
    }

    /// As [`Game::apply`], appending the events to a buffer the caller reuses; nothing is
    /// appended when the action is refused.
    ///
    /// # Errors
    /// As [`Game::apply`].
    pub fn apply_into(
        &mut self,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        match (self.phase, action) {
            (Phase::GameOver, _) => return Err(ActionError::GameOver),
            (Phase::Draw, Action::Draw) => {
                let tile = self
                    .bag
                    .draw(&mut self.rng, &self.rules.groups)
                    .expect("the bag is never empty in the draw phase");
                self.drawn(tile, events);
            }
            (Phase::Draw, Action::DrawTile { tile }) => {
                self.check_draw(tile)?;
                self.bag.take(tile, &self.rules.groups);
                self.drawn(tile, events);
            }
            (Phase::Place { tile }, Action::Place { pos, rotation }) => {
                let (edges, step) = self.check_place(tile, pos, rotation)?;
                // Checked above, with the chain's and rivalries' rules the board does not know.
                self.board.put(pos, tile, rotation, edges).map_err(ActionError::Placement)?;
                self.closes = self.features.join_tile(&self.board, &self.rules.tiles, pos);
                self.placed.push((pos, tile));
                if let Some(step) = step {
                    self.extend_chain(pos, &edges, step);
                }
                events.push(Event::TilePlaced { player: self.current, tile, pos, rotation });
                if self.rules.specials {
                    self.note_extensions(pos);
                }
                let marks = self.rules.tiles[usize::from(tile)].marks();
                if !self.rules.hiding.is_empty()
                    && marks.iter().any(|mark| self.rules.hiding.contains(mark))
                    && self.tiles_left() > 0
                {
                    self.specials.hidden += 1;
                    events.push(Event::TileHidden { player: self.current, pos });
                }
                self.phase = Phase::Figure { pos };
                self.placements = 0;
                self.deployments = self.open_deployments(pos);
                if self.rules.specials {
                    self.specials.open = self.open_specials(pos);
                }
            }
            (Phase::Figure { pos }, Action::Deploy { segment, figure })
                if !self.rules.figures.is_follower(figure) =>
            {
                let (node, slot) = self.check_deploy(pos, segment, figure)?;
                self.deploy_special(pos, segment, (figure, slot), node, events);
            }
            (Phase::Figure { pos }, Action::Deploy { segment, figure }) => {
                let (node, slot) = self.check_deploy(pos, segment, figure)?;
                let player = self.current;
                self.supply[player].0[slot] -= 1;
                self.features.count_figure(node, true);
                let kind = self.features.kind(node);
                self.figures.push(Standing { player, figure, pos, segment, node, kind });
                if is_cloister(kind) {
                    self.cloisters.push(pos);
                }
                events.push(Event::FigurePlaced { player, figure, pos, segment });
                self.after_figure(pos, events);
            }
            (Phase::Figure { pos: placed }, Action::RecallAbbot { pos }) => {
                let index = self.check_recall(pos)?;
                let standing = self.figures[index];
                events.push(Event::AbbotRecalled { player: standing.player, pos });
                let kind = self.features.data(standing.node).kind;
                let score = self.scene().cloister_score(
                    pos,
                    standing.segment,
                    kind,
                    ScoreReason::AbbotRecalled,
                    PlayerSet::EMPTY.with(standing.player),
                );
                self.award(score, events);
                self.return_figure(index, events);
                self.after_figure(placed, events);
            }
            (Phase::Figure { pos }, Action::Skip) => self.after_figure(pos, events),
            (Phase::Sheep { pos }, Action::Draw | Action::DrawToken { .. }) => {
                let kind = self.check_token(action)?;
                self.draw_token(pos, kind, events);
            }
            (Phase::Flock { pos }, Action::GrowFlock) => {
                self.check_grow()?;
                self.tend_flock(pos, true, events);
            }
            (Phase::Flock { pos }, Action::DriveFlock) => self.tend_flock(pos, false, events),
            (phase, action) => return Err(wrong_phase(phase, action)),
        }
        self.log.push(action);
        Ok(())
    }

    /// A chain tile placed at `pos` continues the open end of `step`; its other chain edges
    /// are open ends, each remembering the last curve on its way (this tile's, or the one
    /// before it when it goes straight on).
    fn extend_chain(&mut self, pos: Pos, edges: &ByDir<EdgeKind>, step: ChainStep) {
        let Some(chain) = self.rules.chain else { return };
        let last = step.end.map(|end| self.chain_ends.remove(end)).and_then(|end| end.turn);
        for outflow in Dir::ALL {
            if outflow == step.inflow || edges[outflow] != chain.edge {
                continue;
            }
            if let Some(next) = pos.neighbour(outflow) {
                let turn = Turn::between(step.inflow, outflow).or(last);
                self.chain_ends.push(ChainEnd { pos: next, from: outflow.opposite(), turn });
            }
        }
    }

    fn drawn(&mut self, tile: TileIndex, events: &mut Vec<Event>) {
        let player = self.current;
        events.push(Event::TileDrawn { player, tile });
        let placements = self.placement_count(tile);
        if placements > 0 {
            // At most four per frontier cell, and the frontier is bounded by the board.
            self.placements = u32::try_from(placements).unwrap_or(u32::MAX);
            self.phase = Phase::Place { tile };
            return;
        }
        events.push(Event::TileDiscarded { player, tile });
        self.discarded.push(tile);
        if self.tiles_left() == 0 {
            self.finish(events);
        }
    }

    /// Scores what the tile at `pos` completed, then passes the turn or ends the game.
    pub(super) fn end_turn(&mut self, pos: Pos, events: &mut Vec<Event>) {
        let (tile, order, _) = self.board.peek(pos).expect("the turn's tile lies at its cell");
        // Most tiles close nothing, and then no segment of theirs needs looking at.
        self.deployments = crate::bits::WideBits::EMPTY;
        self.specials.open = crate::bits::WideBits::EMPTY;
        if !self.titles.is_empty() && self.options().title_scoring == TitleScoring::Continuous {
            self.turn_holders.clear();
            self.turn_holders.extend(self.titles.iter().map(|title| title.holder));
        }
        // Hoards on closed features are cashed in before the features score, as JCloisterZone
        // orders it for shepherds (the rule books do not say).
        if !self.specials.hoards.is_empty() {
            self.market_closed_fields(events);
        }
        let linear = if core::mem::take(&mut self.closes) {
            self.rules.linear.get(usize::from(tile)).copied().unwrap_or_default()
        } else {
            SegmentSet::EMPTY
        };
        let mut done: [NodeId; crate::segment::MAX_SEGMENTS_PER_TILE] =
            [NodeId::MAX; crate::segment::MAX_SEGMENTS_PER_TILE];
        for segment in linear.iter() {
            let Some(node) = self.features.node(order, segment) else {
                continue;
            };
            let root = self.features.find(node);
            let data = self.features.root_data(root);
            let segment = usize::from(segment);
            if !data.is_closed() || done[..segment].contains(&root) {
                continue;
            }
            done[segment] = root;
            if data.figures == 0 {
                if self.collects {
                    self.collect(root, PlayerSet::EMPTY, events);
                }
                continue;
            }
            let scene = self.scene();
            let scorers = scene.majority(root, false);
            let score = scene.linear(
                root,
                &Valuation::of(*self.options(), &self.rules.rulebook),
                ScoreReason::Completed,
                scorers,
            );
            self.award(score, events);
            self.return_figures_on(root, events);
            if self.collects {
                self.collect(root, scorers, events);
            }
        }

        // Monasteries and gardens this tile completed: only occupied ones score, so look at
        // the few cells with a figure in one rather than at the nine cells around the tile.
        let near = |at: Pos| at.touches(pos);
        if self.cloisters.iter().any(|at| near(*at) && self.board.surrounding_tiles(*at) == 8) {
            // What won, for the declared rivalries: most games declare none.
            let mut won: SmallVec<[(Pos, SegmentIndex, SegmentKind); 2]> = SmallVec::new();
            let mut index = 0;
            while index < self.figures.len() {
                let standing = self.figures[index];
                if !is_cloister(standing.kind)
                    || !near(standing.pos)
                    || self.board.surrounding_tiles(standing.pos) < 8
                {
                    index += 1;
                    continue;
                }
                let score = self.scene().cloister_score(
                    standing.pos,
                    standing.segment,
                    standing.kind,
                    ScoreReason::Completed,
                    PlayerSet::EMPTY.with(standing.player),
                );
                self.award(score, events);
                self.return_figure(index, events);
                if !self.rules.rivals.is_empty() {
                    won.push((standing.pos, standing.segment, standing.kind));
                }
            }
            if !won.is_empty() {
                self.defeat_rivals(&won, events);
            }
        }

        if self.tiles_left() == 0 {
            self.finish(events);
        } else {
            self.current = self.next_player(events);
            self.phase = Phase::Draw;
            events.push(Event::TurnStarted { player: self.current });
        }
    }

    /// Every occupied, unfinished rival of a monastery or garden that was just completed and
    /// scored, among its eight neighbours, is defeated: "the first feature to be completed is
    /// the one that scores", and the other's follower "is returned to its owner with no
    /// points" (The Cult). Rivals completed by the same tile both scored before this.
    #[inline(never)]
    fn defeat_rivals(&mut self, won: &[(Pos, SegmentIndex, SegmentKind)], events: &mut Vec<Event>) {
        let rules = Arc::clone(&self.rules);
        for (pos, segment, kind) in won.iter().copied() {
            for (rule, rival) in rules.rivals.iter().copied() {
                let Some(winner) = self.rival_side(pos, segment, kind, &rival) else { continue };
                let mut index = 0;
                while index < self.figures.len() {
                    let standing = self.figures[index];
                    let defeated = standing.pos != pos
                        && standing.pos.touches(pos)
                        && self.board.surrounding_tiles(standing.pos) < 8
                        && self.rival_side(standing.pos, standing.segment, standing.kind, &rival)
                            == Some(!winner);
                    if !defeated {
                        index += 1;
                        continue;
                    }
                    let (tiles, _) = self.scene().cloister(standing.pos);
                    self.award(
                        FeatureScore {
                            kind: standing.kind,
                            pos: standing.pos,
                            segment: standing.segment,
                            reason: ScoreReason::Defeated,
                            complete: false,
                            tiles,
                            marks: MarkCounts::default(),
                            cities: 0,
                            rule: Some(rule),
                            farmers: false,
                            points: 0,
                            scorers: PlayerSet::EMPTY.with(standing.player),
                        },
                        events,
                    );
                    self.return_figure(index, events);
                }
            }
        }
    }

    /// Final scoring and the end of the game.
    pub(super) fn finish(&mut self, events: &mut Vec<Event>) {
        let mut scores = Vec::new();
        self.scene()
            .final_scores(&Valuation::of(*self.options(), &self.rules.rulebook), &mut scores);
        for score in scores {
            self.award(score, events);
        }
        self.score_majorities(events);
        self.score_titles(events);
        self.phase = Phase::GameOver;
        events.push(Event::GameOver { winners: self.leaders() });
    }

    /// What a feature completed during play gives beyond its score: tokens, then titles.
    /// Kept out of line: most games declare neither, and the turn's hot path skips the call.
    #[inline(never)]
    fn collect(&mut self, root: NodeId, scorers: PlayerSet, events: &mut Vec<Event>) {
        // Where the events say the feature is: found once for both.
        let at = locate(&self.features, &self.placed, root);
        self.take_tokens(root, at, scorers, events);
        self.contest_titles(root, at, events);
    }

    /// The tokens a feature completed during play gives, to the player who completed it or
    /// to `scorers`, as each token kind declares: once the feature has scored and its
    /// figures have gone home ("1. The city is scored as normal. 2. The player who completed
    /// the city ... takes the depicted goods tokens", Traders & Builders).
    fn take_tokens(
        &mut self,
        root: NodeId,
        (pos, segment): (Pos, SegmentIndex),
        scorers: PlayerSet,
        events: &mut Vec<Event>,
    ) {
        if self.tokens.is_empty() {
            return;
        }
        let marks = self.features.marks(root);
        if marks.present().is_empty() {
            return;
        }
        for (index, token) in self.rules.rulebook.tokens().iter().enumerate() {
            let count = token.count_in(&marks);
            if count == 0 {
                continue;
            }
            let takers = match token.taker {
                Taker::Completer => PlayerSet::EMPTY.with(self.current),
                Taker::Scorers => scorers,
            };
            for player in takers.iter() {
                let held = &mut self.tokens[index][player];
                *held = held.saturating_add(count);
                let token = TokenId(index as u8);
                events.push(Event::TokensTaken { player, token, count, pos, segment });
            }
        }
    }

    /// A feature completed during play counts for the titles of its kind, and wins them for
    /// the player who completed it when it is larger than every one before ("anyone who
    /// completes a city that is made using more tiles than the current largest city gets to
    /// be the king", King & Robber Baron); one only as large leaves them where they are.
    fn contest_titles(
        &mut self,
        root: NodeId,
        (pos, segment): (Pos, SegmentIndex),
        events: &mut Vec<Event>,
    ) {
        if self.titles.is_empty() {
            return;
        }
        let kind = self.features.data(root).kind;
        let tiles = self.features.tile_count(root) as u32;
        for (index, title) in self.rules.rulebook.titles().iter().enumerate() {
            if title.feature != kind {
                continue;
            }
            let standing = &mut self.titles[index];
            standing.completed = standing.completed.saturating_add(1);
            if tiles > standing.largest {
                standing.largest = tiles;
                standing.holder = Some(self.current);
                let (player, title) = (self.current, TitleId(index as u8));
                events.push(Event::TitleTaken { player, title, tiles, pos, segment });
            }
            // The "continuously" variant: each completion pays the title's holder at once, the
            // one who held it before the turn's completions could hand it over (as
            // JCloisterZone, the engine that offers the variant, pays it).
            if self.options().title_scoring == TitleScoring::Continuous
                && let Some(player) = self.turn_holders.get(index).copied().flatten()
            {
                let points = title.per_feature;
                self.scores[player] += points;
                self.by_kind[player].titles += points;
                let title = TitleId(index as u8);
                events.push(Event::TitleScored { title, player, features: 1, points });
            }
        }
    }

    /// The end of the game's titles: each holder scores its points per feature of the kind
    /// completed in the game, and for holding it; or as the `title_scoring` variant says.
    fn score_titles(&mut self, events: &mut Vec<Event>) {
        let scoring = self.options().title_scoring;
        if scoring == TitleScoring::Continuous {
            return;
        }
        for (index, title) in self.rules.rulebook.titles().iter().enumerate() {
            let standing = self.titles[index];
            let Some(player) = standing.holder else { continue };
            let held = self.titles.iter().filter(|other| other.holder == Some(player)).count();
            let points = scoring.end_points(title, standing, held);
            self.scores[player] += points;
            self.by_kind[player].titles += points;
            events.push(Event::TitleScored {
                title: TitleId(index as u8),
                player,
                features: standing.completed,
                points,
            });
        }
    }

    /// The end of the game's token majorities: for each kind, the players holding the most
    /// score its points, each in full; nobody scores a kind nobody holds.
    fn score_majorities(&mut self, events: &mut Vec<Event>) {
        let players = usize::from(self.players());
        for (index, token) in self.rules.rulebook.tokens().iter().enumerate() {
            let held = &self.tokens[index].0[..players];
            let most = held.iter().copied().max().unwrap_or(0);
            if most == 0 {
                continue;
            }
            let scorers: PlayerSet = (0..players)
                .filter(|player| held[*player] == most)
                .map(|player| PlayerId(player as u8))
                .collect();
            for player in scorers.iter() {
                self.scores[player] += token.majority;
                self.by_kind[player].tokens += token.majority;
            }
            events.push(Event::TokensScored {
                token: TokenId(index as u8),
                held: most,
                points: token.majority,
                scorers,
            });
        }
    }

    pub(super) fn award(&mut self, score: FeatureScore, events: &mut Vec<Event>) {
        for player in score.scorers.iter() {
            self.scores[player] += score.points;
            self.by_kind[player].add(&score);
        }
        events.push(Event::FeatureScored(score));
    }

    fn return_figures_on(&mut self, root: NodeId, events: &mut Vec<Event>) {
        let mut index = 0;
        while index < self.figures.len() {
            if self.features.root(self.figures[index].node) == root {
                self.return_figure(index, events);
            } else {
                index += 1;
            }
        }
    }

    pub(super) fn return_figure(&mut self, index: usize, events: &mut Vec<Event>) {
        let standing = self.figures.remove(index);
        if is_cloister(standing.kind)
            && let Some(at) = self.cloisters.iter().position(|pos| *pos == standing.pos)
        {
            self.cloisters.swap_remove(at);
        }
        if let Some(slot) = self.rules.figures.slot(standing.figure) {
            self.supply[standing.player].0[slot] += 1;
        }
        if self.rules.figures.is_follower(standing.figure) {
            self.features.count_figure(standing.node, false);
        }
        events.push(Event::FigureReturned {
            player: standing.player,
            figure: standing.figure,
            pos: standing.pos,
            segment: standing.segment,
        });
    }

    pub(super) fn scene(&self) -> Scene<'_> {
        Scene::new(
            &self.board,
            &self.features,
            &self.rules.tiles,
            &self.placed,
            &self.figures,
            &self.rules.rulebook,
            &self.rules.figures,
        )
    }
}
