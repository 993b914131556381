//! What a player may ask of a game: its setup, board, scores, figures, bag and features.

use alloc::string::String;
use alloc::vec::Vec;

use crate::action::{Action, Phase};
use crate::board::Board;
use crate::catalog::Catalog;
use crate::event::{FeatureScore, PointsByKind};
use crate::features::Features;
use crate::player::{Figure, PlayerId, PlayerSet, Supply};
use crate::pos::Pos;
use crate::rulebook::{
    MarkInfo, Rule, Rulebook, TitleId, TitleInfo, TitleStanding, TokenId, TokenInfo,
};
use crate::scoring::{Standing, Valuation, winners};
use crate::segment::{SegmentIndex, SegmentKind};
use crate::setup::{GameSetup, RuleOptions};
use crate::tile::{TileIndex, TileType};
use crate::view::Challenge;

use super::{FeatureView, Game, PlacedFigure};

impl Game {
    /// The setup the game was built from (a copy: the tile sets are cloned).
    #[must_use]
    pub fn setup(&self) -> GameSetup {
        GameSetup { seed: self.seed, ..self.rules.setup.clone() }
    }

    /// The colour `player` plays, as the tile sets name it: the sets' colours in setup order,
    /// one a seat (the base game's red, green, blue, yellow and black, then Inns & Cathedrals'
    /// grey). `None` beyond the players, or where the sets name too few colours.
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup, PlayerId};
    /// let game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 3))?;
    /// assert_eq!(game.player_colour(PlayerId(1)), Some("green"));
    /// assert_eq!(game.player_colour(PlayerId(3)), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn player_colour(&self, player: PlayerId) -> Option<&str> {
        if player.0 >= self.players() {
            return None;
        }
        let mut colours = self.catalogs().iter().flat_map(|catalog| &catalog.figures().colours);
        colours.nth(player.index()).map(String::as_str)
    }

    /// The marks and rules of every set in play together.
    #[must_use]
    pub fn rulebook(&self) -> &Rulebook {
        &self.rules.rulebook
    }

    /// The marks the sets in play declare, numbered for this game: a [`Mark`](crate::Mark)
    /// on a segment of [`Game::tiles`], in a [`FeatureView`] or a [`FeatureScore`] indexes
    /// this list.
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup};
    /// let sets = vec![Catalog::builtin("base")?, Catalog::builtin("inns_and_cathedrals")?];
    /// let game = Game::new(GameSetup::new(sets, 2))?;
    /// let ids: Vec<&str> = game.marks().iter().map(|mark| mark.id.as_str()).collect();
    /// assert_eq!(ids, ["pennant", "inn", "cathedral"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn marks(&self) -> &[MarkInfo] {
        self.rules.rulebook.marks()
    }

    /// The rules the sets in play declare, numbered for this game: a
    /// [`FeatureScore::rule`] indexes this list.
    #[must_use]
    pub fn rules(&self) -> &[Rule] {
        self.rules.rulebook.rules()
    }

    /// The token kinds the sets in play declare, numbered for this game: a
    /// [`TokenId`] in an event or in [`Game::tokens_held`] indexes this list.
    #[must_use]
    pub fn tokens(&self) -> &[TokenInfo] {
        self.rules.rulebook.tokens()
    }

    /// How many tokens of each declared kind `player` holds, indexed as [`Game::tokens`]
    /// (public: every player sees the others' tokens).
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup, PlayerId};
    /// let sets = vec![Catalog::builtin("base")?, Catalog::builtin("traders_and_builders")?];
    /// let game = Game::new(GameSetup::new(sets, 2))?;
    /// let kinds: Vec<&str> = game.tokens().iter().map(|token| token.id.as_str()).collect();
    /// assert_eq!(kinds, ["wine", "grain", "cloth"]);
    /// assert_eq!(game.tokens_held(PlayerId(1)), [0, 0, 0]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn tokens_held(&self, player: PlayerId) -> Vec<u32> {
        self.tokens.iter().map(|held| held[player]).collect()
    }

    /// The titles the sets in play declare, numbered for this game: a [`TitleId`] in an event
    /// or in [`Game::title_standing`] indexes this list.
    #[must_use]
    pub fn titles(&self) -> &[TitleInfo] {
        self.rules.rulebook.titles()
    }

    /// Where title `title` stands: its holder, the largest feature of its kind completed so
    /// far, and how many (`None` for a title the game lacks).
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup, TitleId};
    /// let sets = vec![Catalog::builtin("base")?, Catalog::builtin("king_and_robber")?];
    /// let game = Game::new(GameSetup::new(sets, 2))?;
    /// let titles: Vec<&str> = game.titles().iter().map(|title| title.id.as_str()).collect();
    /// assert_eq!(titles, ["king", "robber_baron"]);
    /// assert_eq!(game.title_standing(TitleId(0)).unwrap().holder, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn title_standing(&self, title: TitleId) -> Option<TitleStanding> {
        self.titles.get(title.index()).copied()
    }

    /// The challenges standing now: under each declared rivalry (The Cult's), every pair of
    /// occupied, unfinished rival monasteries or gardens beside each other, the feature
    /// carrying the rivalry's marks (the shrine) first. Whichever is completed first scores
    /// and sends the other's figures home with nothing. Empty in games without rivalries.
    ///
    /// ```
    /// use carcassonne::{Action, Catalog, Figure, Game, GameSetup, Pos, Rotation};
    /// let sets = vec![Catalog::builtin("base")?, Catalog::builtin("cult")?];
    /// let mut game = Game::new(GameSetup::new(sets, 2))?;
    /// for (id, x) in [("B", 0), ("CU01", 1)] {
    ///     game.apply(Action::DrawTile { tile: game.tile_by_id(id).unwrap().0 })?;
    ///     game.apply(Action::Place { pos: Pos::new(x, -1), rotation: Rotation::R0 })?;
    ///     game.apply(Action::Deploy { segment: 0, figure: Figure::FOLLOWER })?;
    /// }
    /// let challenge = game.challenges()[0];
    /// assert_eq!((challenge.marked, challenge.plain), (Pos::new(1, -1), Pos::new(0, -1)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn challenges(&self) -> Vec<Challenge> {
        let mut challenges = Vec::new();
        if self.rules.rivals.is_empty() {
            return challenges;
        }
        let open = |standing: &Standing| {
            super::is_cloister(standing.kind) && self.board.surrounding_tiles(standing.pos) < 8
        };
        let side = |standing: &Standing, rival: &crate::rulebook::RivalRule| {
            self.rival_side(standing.pos, standing.segment, standing.kind, rival)
        };
        for (rule, rival) in &self.rules.rivals {
            for marked in self.figures.iter().filter(|s| open(s) && side(s, rival) == Some(true)) {
                for plain in
                    self.figures.iter().filter(|s| open(s) && side(s, rival) == Some(false))
                {
                    if marked.pos.touches(plain.pos) {
                        challenges.push(Challenge {
                            rule: *rule,
                            marked: marked.pos,
                            marked_player: marked.player,
                            plain: plain.pos,
                            plain_player: plain.player,
                        });
                    }
                }
            }
        }
        challenges
    }

    /// The side of `rival` that segment `segment` (of kind `kind`) of the tile at `pos` is on,
    /// by the marks the tile prints on it; `None` when the rivalry is not about it.
    pub(super) fn rival_side(
        &self,
        pos: Pos,
        segment: SegmentIndex,
        kind: SegmentKind,
        rival: &crate::rulebook::RivalRule,
    ) -> Option<bool> {
        let tile = self.board.get(pos)?.tile;
        let printed = self.rules.tiles[usize::from(tile)].segments().get(usize::from(segment))?;
        rival.side(kind, printed.marks())
    }

    /// How many tokens of kind `token` `player` holds (0 for a kind the game lacks).
    #[must_use]
    pub fn token_count(&self, player: PlayerId, token: TokenId) -> u32 {
        self.tokens.get(token.index()).map_or(0, |held| held[player])
    }

    /// The tile sets in play, in setup order; their tile types are numbered one set after
    /// another.
    #[must_use]
    pub fn catalogs(&self) -> &[Catalog] {
        &self.rules.setup.catalogs
    }

    /// The seed of the tile bag.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Roughly how many bytes this game owns on the heap, not counting the tile tables all
    /// copies share: what a clone copies.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.board.heap_bytes()
            + self.features.heap_bytes()
            + size_of_val(self.bag.remaining())
            + self.figures.capacity() * size_of::<Standing>()
            + self.placed.capacity() * size_of::<(Pos, TileIndex)>()
            + self.log.capacity() * size_of::<Action>()
            + self.discarded.capacity() * size_of::<TileIndex>()
    }

    /// The rule options in force.
    #[must_use]
    pub fn options(&self) -> &RuleOptions {
        &self.rules.setup.options
    }

    /// How many players sit at the table.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.rules.setup.players
    }

    /// Where the turn cycle stands.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// Whose turn it is (after the game, the player who would have been next).
    #[must_use]
    pub fn current_player(&self) -> PlayerId {
        self.current
    }

    /// The tile drawn and waiting to be placed, if any.
    #[must_use]
    pub fn drawn_tile(&self) -> Option<TileIndex> {
        match self.phase {
            Phase::Place { tile } => Some(tile),
            _ => None,
        }
    }

    /// Every tile type of every set in play; a [`TileIndex`] indexes this list.
    #[must_use]
    pub fn tiles(&self) -> &[TileType] {
        &self.rules.tiles
    }

    /// The tile type numbered `tile`.
    #[must_use]
    pub fn tile(&self, tile: TileIndex) -> Option<&TileType> {
        self.rules.tiles.get(usize::from(tile))
    }

    /// The tile type with this id, with its number.
    #[must_use]
    pub fn tile_by_id(&self, id: &str) -> Option<(TileIndex, &TileType)> {
        let index = self.rules.tiles.iter().position(|tile| tile.id() == id)?;
        Some((index as TileIndex, &self.rules.tiles[index]))
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The engine's tracking of the board's features (see [`crate::engine`]);
    /// [`Game::feature`] answers what a player asks of one.
    #[must_use]
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// Scores, one per player, in turn order.
    #[must_use]
    pub fn scores(&self) -> &[u32] {
        &self.scores.0[..usize::from(self.players())]
    }

    /// What the end-of-game scoring would award if the game ended now, one entry per feature
    /// that would score, appended to `out`: the unfinished roads, cities, monasteries and
    /// gardens with figures on them, then the fields. A game already over appends nothing.
    ///
    /// A scoreboard's projection, and the ground truth under a bot's evaluator.
    ///
    /// ```
    /// use carcassonne::{Action, Catalog, Game, GameSetup};
    /// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// let mut projected = Vec::new();
    /// while !game.is_over() {
    ///     projected.clear();
    ///     game.scores_if_over(&mut projected);
    ///     let first_figure = game.legal_actions().into_iter().find(|action| {
    ///         matches!(action, Action::Deploy { .. })
    ///     });
    ///     game.apply(first_figure.unwrap_or(game.legal_actions()[0]))?;
    /// }
    /// assert!(!projected.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn scores_if_over(&self, out: &mut Vec<FeatureScore>) {
        if self.phase != Phase::GameOver {
            self.scene().final_scores(&Valuation::of(*self.options(), &self.rules.rulebook), out);
        }
    }

    /// The rotations of each tile type that fit each edge constraint: with
    /// [`Board::frontier_key`], how a tool asks which tiles could go in an empty cell.
    #[must_use]
    pub fn fit_table(&self) -> &crate::fit::FitTable {
        &self.rules.fit
    }

    /// Each player's points by the kind of feature that paid them, in turn order; each
    /// player's kinds add up to [`Game::scores`].
    ///
    /// ```
    /// use carcassonne::{Catalog, Game, GameSetup};
    /// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
    /// while !game.is_over() {
    ///     let last = *game.legal_actions().last().unwrap();
    ///     game.apply(last)?;
    /// }
    /// for (kinds, total) in game.points_by_kind().iter().zip(game.scores()) {
    ///     assert_eq!(kinds.total(), *total);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn points_by_kind(&self) -> &[PointsByKind] {
        &self.by_kind.0[..usize::from(self.players())]
    }

    /// The players with the highest score (meaningful once the game is over).
    #[must_use]
    pub fn leaders(&self) -> PlayerSet {
        let leaders = winners(&self.scores);
        if leaders.is_empty() { (0..self.players()).map(PlayerId).collect() } else { leaders }
    }

    /// How the game's sets declare `figure` (`[[figure]]`), if its players have it: where it
    /// stands, how it counts and what it does.
    ///
    /// ```
    /// use carcassonne::{Catalog, Figure, Game, GameSetup};
    /// let sets = vec![Catalog::builtin("base")?, Catalog::builtin("inns_and_cathedrals")?];
    /// let game = Game::new(GameSetup::new(sets, 2))?;
    /// assert_eq!(game.figure_rule(Figure::BIG_FOLLOWER).map(|rule| rule.strength()), Some(2));
    /// assert!(game.figure_rule(Figure::ABBOT).is_none(), "the abbot is an option, off here");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn figure_rule(&self, figure: Figure) -> Option<&crate::rulebook::FigureRule> {
        self.rules.figures.get(figure)
    }

    /// Whether `figure` is a follower in this game: it occupies its feature and counts for its
    /// majority (a companion, or a figure the game lacks, does neither).
    #[must_use]
    pub fn is_follower(&self, figure: Figure) -> bool {
        self.rules.figures.is_follower(figure)
    }

    /// The figures `player` has in hand: a count for each figure of the game, in
    /// [`Game::figure_kinds`]'s order (all 0 for a seat the game does not have).
    ///
    /// ```
    /// use carcassonne::{Catalog, Figure, Game, GameSetup};
    /// let sets = vec![Catalog::builtin("base")?, Catalog::builtin("inns_and_cathedrals")?];
    /// let game = Game::new(GameSetup::new(sets, 2))?;
    /// let supply = game.supply(carcassonne::PlayerId(0));
    /// assert_eq!(supply.count(Figure::FOLLOWER), 7);
    /// assert_eq!(supply.count(Figure::BIG_FOLLOWER), 1);
    /// assert_eq!(serde_json::to_string(&supply)?, r#"{"follower":7,"big_follower":1}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn supply(&self, player: PlayerId) -> Supply {
        let hand = self.supply.0.get(player.index()).copied().unwrap_or_default();
        Supply::new(self.rules.figures.iter().zip(hand.0).map(|(rule, count)| (rule.figure, count)))
    }

    /// How many of `figure` `player` has in hand: 0 for a figure the game lacks or a seat it
    /// does not have. What [`Game::supply`] counts, without building the whole supply.
    #[must_use]
    pub fn in_hand(&self, player: PlayerId, figure: Figure) -> u8 {
        match (self.supply.0.get(player.index()), self.rules.figures.slot(figure)) {
            (Some(hand), Some(slot)) => hand.0[slot],
            _ => 0,
        }
    }

    /// The figures the game's players have, in the game's order: the followers, then the
    /// companions, the published figures first and any other by id. This is the order of
    /// [`Game::supply`] and of the deployments [`Game::legal_actions`] lists on a segment.
    ///
    /// ```
    /// use carcassonne::{Catalog, Figure, Game, GameSetup};
    /// let sets = vec![Catalog::builtin("base")?, Catalog::builtin("traders_and_builders")?];
    /// let game = Game::new(GameSetup::new(sets, 2))?;
    /// let kinds: Vec<Figure> = game.figure_kinds().collect();
    /// assert_eq!(kinds, [Figure::FOLLOWER, Figure::BUILDER, Figure::PIG]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn figure_kinds(&self) -> impl ExactSizeIterator<Item = Figure> + '_ {
        self.rules.figures.iter().map(|rule| rule.figure)
    }

    /// Tiles hidden under hills so far (Hills & Sheep): out of the game, unseen. They are
    /// counted among [`Game::remaining`], whose tiles nobody can tell apart from them.
    #[must_use]
    pub fn hidden_tiles(&self) -> u32 {
        self.specials.hidden
    }

    /// The figures on the board that draw from a bag, with the tokens they keep, in the order
    /// they were deployed (shepherds and their flocks).
    #[must_use]
    pub fn hoards(&self) -> &[crate::Hoard] {
        &self.specials.hoards
    }

    /// The hoard the current player adds to or cashes in in [`Phase::Flock`], or the one a
    /// token is drawn for in [`Phase::Sheep`]; `None` in every other phase.
    #[must_use]
    pub fn tended_hoard(&self) -> Option<&crate::Hoard> {
        let (pos, segment) = match self.phase {
            Phase::Flock { .. } => *self.specials.flocks_due.first()?,
            Phase::Sheep { .. } => self.specials.drawing?.shepherd,
            _ => return None,
        };
        self.specials.hoards.iter().find(|hoard| hoard.pos == pos && hoard.segment == segment)
    }

    /// What the game's bags hold, kind by kind (the counts are public; the order is not).
    #[must_use]
    pub fn bag(&self) -> crate::BagContents {
        self.specials.bags.contents(&self.rules.bags)
    }

    /// The kinds of token of the game's bags, in the game's order: bag after bag, each
    /// bag's kinds as its file lists them. [`crate::Hoard::worth`] reads them.
    ///
    /// ```
    /// use carcassonne::{Catalog, Drawn, Game, GameSetup};
    /// let sets = vec![Catalog::builtin("base")?, Catalog::builtin("hills_and_sheep")?];
    /// let game = Game::new(GameSetup::new(sets, 2))?;
    /// let wolf = game.bag_kinds().last().unwrap();
    /// assert_eq!((wolf.bag_id.as_str(), wolf.rule.token.id()), ("flock", "wolf"));
    /// assert_eq!((wolf.rule.count, wolf.rule.then), (2, Drawn::SendHome));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn bag_kinds(&self) -> &[crate::BagKind] {
        &self.rules.bags.kinds
    }

    /// The kind of token `token` among the game's bags (two bags of a game never share a
    /// token id); `None` for a token no bag has.
    #[must_use]
    pub fn bag_kind(&self, token: crate::BagToken) -> Option<&crate::BagKind> {
        self.rules.bags.kinds.iter().find(|kind| kind.rule.token == token)
    }

    /// What the bag of the hoard [`Game::tended_hoard`] names holds, kind by kind: the
    /// draws a token drawn now may bring, and how likely each is. Empty when no hoard is
    /// tended.
    #[must_use]
    pub fn tended_bag(&self) -> crate::BagContents {
        let Some(hoard) = self.tended_hoard() else { return crate::BagContents::default() };
        crate::BagContents::of(
            &self.specials.bags.0,
            &self.rules.bags,
            self.rules.bags.kinds_of(hoard.bag),
        )
    }

    /// Whether the current turn is a builder's second turn (Traders & Builders).
    #[must_use]
    pub fn is_second_turn(&self) -> bool {
        self.specials.second_turn
    }

    /// The figures on the board, in the order they were placed.
    pub fn figures(&self) -> impl ExactSizeIterator<Item = PlacedFigure> + '_ {
        self.figures.iter().map(|standing| PlacedFigure {
            player: standing.player,
            figure: standing.figure,
            pos: standing.pos,
            segment: standing.segment,
        })
    }

    /// Copies of each tile type left in the bag, by tile number: what a player may know of the
    /// bag (its order is never revealed).
    #[must_use]
    pub fn remaining(&self) -> &[u16] {
        self.bag.remaining()
    }

    /// Tiles left to draw: those in the bag less those hidden under hills, which are never
    /// drawn.
    #[must_use]
    pub fn tiles_left(&self) -> u32 {
        self.bag.total().saturating_sub(self.specials.hidden)
    }

    /// Tiles drawn that fit nowhere and left the game.
    #[must_use]
    pub fn discarded(&self) -> u32 {
        self.discarded.len() as u32
    }

    /// Every action applied since the start, in order.
    #[must_use]
    pub fn actions(&self) -> &[Action] {
        &self.log
    }

    /// The cell of each tile on the board with its type, in placement order (the start tile
    /// first).
    #[must_use]
    pub fn placements(&self) -> &[(Pos, TileIndex)] {
        &self.placed
    }

    /// The feature that segment `segment` of the tile at `pos` belongs to.
    #[must_use]
    pub fn feature(&self, pos: Pos, segment: SegmentIndex) -> Option<FeatureView> {
        let node = self.node_at(pos, segment)?;
        let root = self.features.root(node);
        let data = self.features.data(root);
        let scene = self.scene();
        let (tiles, complete) = match data.kind {
            SegmentKind::Monastery | SegmentKind::Garden => scene.cloister(pos),
            _ => (self.features.tile_count(root) as u32, data.is_closed()),
        };
        let marks = self.features.marks(root);
        let valuation = Valuation::of(*self.options(), &self.rules.rulebook);
        let (points, points_if_complete) = match data.kind {
            SegmentKind::City | SegmentKind::Road => (
                valuation.linear(data.kind, tiles, &marks, complete).0,
                valuation.linear(data.kind, tiles, &marks, true).0,
            ),
            SegmentKind::Monastery | SegmentKind::Garden => (
                tiles + scene.neighbour_bonus(pos, data.kind, complete).0,
                9 + scene.neighbour_bonus(pos, data.kind, true).0,
            ),
            SegmentKind::Field | SegmentKind::River => (0, 0),
        };
        Some(FeatureView {
            kind: data.kind,
            complete,
            tiles,
            open_edges: data.open_edges,
            marks,
            points,
            points_if_complete,
            figures: data.figures,
            leaders: scene.majority(root, false),
        })
    }
}
