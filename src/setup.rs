//! Game setup: the unvalidated description a caller fills in, its rule options, and the
//! checked, combined rules a [`Game`](crate::Game) is built from.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::bag::{DrawGroups, InStage};
use crate::catalog::Catalog;
use crate::fit::FitTable;
use crate::limits::MAX_GAME_TILES;
use crate::player::{Hand, MAX_PLAYERS, Slots};
use crate::rulebook::{
    ChainRule, Conflict, FigureRule, FigureTable, Mark, RivalRule, RuleId, Rulebook, TooManyKinds,
};
use crate::segment::{SegmentKind, SegmentSet};
use crate::tile::{TileIndex, TileType};

/// How fields score at the end of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FarmScoring {
    /// Current rules: each field scores 3 per completed city it borders, to its majority.
    #[default]
    PerField,
    /// Second edition: as `PerField`, but each player scores each city at most once.
    PerFieldOnce,
    /// First edition: per completed city, the players with most farmers in all the fields
    /// bordering it score 4.
    #[serde(rename = "per_city_4")]
    PerCity4,
}

/// How inns and cathedrals on features left unfinished score at the end of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnfinishedMarks {
    /// The published rule: an unfinished road with an inn or city with a cathedral scores 0.
    #[default]
    Zero,
    /// A house rule: they score as plain unfinished roads and cities.
    Normal,
}

/// How the titles a set declares (King & Robber Baron's King and Robber Baron) score: as
/// declared, or as one of the variants players publish
/// (`docs/sources/king_and_robber.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TitleScoring {
    /// As each title declares (the printed rule): at the end, its holder scores its points per
    /// feature of its kind completed in the game, and its points for holding it.
    #[default]
    Printed,
    /// "10/20": 10 points for each title held at the end.
    TenEach,
    /// "15/40": at the end, 15 points for holding one title, 40 for holding two (20 a title
    /// for two or more).
    FifteenForty,
    /// "Continuously": whenever a feature of a title's kind is completed, the title's holder
    /// (after it changed hands, if it did) scores the title's points per feature at once;
    /// nothing at the end.
    Continuous,
}

impl TitleScoring {
    /// What `title`, standing as `standing`, pays its holder at the end of the game, the
    /// holder holding `held` titles in all: nothing under `Continuous`, which pays as it goes.
    #[must_use]
    pub fn end_points(
        self,
        title: &crate::rulebook::TitleInfo,
        standing: crate::rulebook::TitleStanding,
        held: usize,
    ) -> u32 {
        match self {
            TitleScoring::Printed => {
                title.per_feature.saturating_mul(standing.completed).saturating_add(title.holding)
            }
            TitleScoring::TenEach => 10,
            TitleScoring::FifteenForty if held == 1 => 15,
            TitleScoring::FifteenForty => 20,
            TitleScoring::Continuous => 0,
        }
    }

    /// Whether this is the printed rule, which files and saves leave out.
    #[must_use]
    pub fn is_printed(&self) -> bool {
        *self == TitleScoring::Printed
    }
}

/// The rule options; [`RuleOptions::default`] is the published rules with farmers.
///
/// In files, every key is optional and unknown keys are errors:
/// ```
/// use carcassonne::{FarmScoring, RuleOptions};
/// let options: RuleOptions = serde_json::from_str(r#"{"farm_scoring": "per_city_4"}"#)?;
/// assert_eq!(options.farm_scoring, FarmScoring::PerCity4);
/// assert!(options.farmers);
/// assert!(serde_json::from_str::<RuleOptions>(r#"{"farmer": false}"#).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// Made with [`RuleOptions::new`] (or `default`) and changed with its `with_` methods or by
/// assigning fields: it is `#[non_exhaustive]`, so an option added in a later release breaks no
/// caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct RuleOptions {
    /// Whether followers may go on fields as farmers (default on).
    pub farmers: bool,
    /// How fields score.
    pub farm_scoring: FarmScoring,
    /// First-edition rule: a completed city of two tiles scores 1 per tile and per pennant.
    pub tiny_city: bool,
    /// How inns and cathedrals on unfinished features score.
    pub inn_cathedral_unfinished: UnfinishedMarks,
    /// Whether each player has an abbot (default off).
    pub abbots: bool,
    /// How declared titles score (default as printed).
    #[serde(skip_serializing_if = "TitleScoring::is_printed")]
    pub title_scoring: TitleScoring,
}

impl Default for RuleOptions {
    fn default() -> RuleOptions {
        RuleOptions::new()
    }
}

impl RuleOptions {
    /// The published rules: farmers on, fields scored per field, no first-edition city rule,
    /// unfinished inns and cathedrals worth nothing, no abbots, titles as printed (the same as
    /// [`RuleOptions::default`], usable in constants).
    #[must_use]
    pub const fn new() -> RuleOptions {
        RuleOptions {
            farmers: true,
            farm_scoring: FarmScoring::PerField,
            tiny_city: false,
            inn_cathedral_unfinished: UnfinishedMarks::Zero,
            abbots: false,
            title_scoring: TitleScoring::Printed,
        }
    }

    /// Sets [`farmers`](Self::farmers), for chaining.
    #[must_use]
    pub const fn with_farmers(mut self, farmers: bool) -> RuleOptions {
        self.farmers = farmers;
        self
    }

    /// Sets [`farm_scoring`](Self::farm_scoring), for chaining.
    #[must_use]
    pub const fn with_farm_scoring(mut self, farm_scoring: FarmScoring) -> RuleOptions {
        self.farm_scoring = farm_scoring;
        self
    }

    /// Sets [`tiny_city`](Self::tiny_city), for chaining.
    #[must_use]
    pub const fn with_tiny_city(mut self, tiny_city: bool) -> RuleOptions {
        self.tiny_city = tiny_city;
        self
    }

    /// Sets [`inn_cathedral_unfinished`](Self::inn_cathedral_unfinished), for chaining.
    #[must_use]
    pub const fn with_inn_cathedral_unfinished(
        mut self,
        inn_cathedral_unfinished: UnfinishedMarks,
    ) -> RuleOptions {
        self.inn_cathedral_unfinished = inn_cathedral_unfinished;
        self
    }

    /// Sets [`abbots`](Self::abbots), for chaining.
    #[must_use]
    pub const fn with_abbots(mut self, abbots: bool) -> RuleOptions {
        self.abbots = abbots;
        self
    }

    /// Sets [`title_scoring`](Self::title_scoring), for chaining.
    #[must_use]
    pub const fn with_title_scoring(mut self, title_scoring: TitleScoring) -> RuleOptions {
        self.title_scoring = title_scoring;
        self
    }
}

/// Everything that decides a game before its first action: tile sets, players, seed, rules.
///
/// Fields are public and unchecked; [`Game::new`](crate::Game::new) checks them.
///
/// ```
/// use carcassonne::{Catalog, Game, GameSetup};
/// let mut setup = GameSetup::new(vec![Catalog::builtin("base")?], 2);
/// setup.seed = 42;
/// setup.options.abbots = true;
/// let game = Game::new(setup)?;
/// assert_eq!(game.tiles_left(), 71);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Made with [`GameSetup::new`] and changed with its `with_` methods or by assigning fields: it is
/// `#[non_exhaustive]`, so an option added in a later release breaks no caller.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct GameSetup {
    /// The tile sets in play; their tiles are numbered in this order, one set after another.
    pub catalogs: Vec<Catalog>,
    /// How many players, 2 up to the number of colours the sets bring (5 with the base game,
    /// 6 with Inns & Cathedrals).
    pub players: u8,
    /// The seed of the tile bag.
    pub seed: u64,
    /// The rule options.
    pub options: RuleOptions,
}

impl GameSetup {
    /// A setup with the given sets and players, seed 0 and default rules.
    #[must_use]
    pub fn new(catalogs: Vec<Catalog>, players: u8) -> GameSetup {
        GameSetup { catalogs, players, seed: 0, options: RuleOptions::default() }
    }

    /// Sets [`seed`](Self::seed), for chaining.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> GameSetup {
        self.seed = seed;
        self
    }

    /// Sets [`options`](Self::options), for chaining.
    #[must_use]
    pub fn with_options(mut self, options: RuleOptions) -> GameSetup {
        self.options = options;
        self
    }
}

/// Why a setup cannot make a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The setup lists no tile set.
    #[error("a game needs at least one tile set")]
    NoTileSet,
    /// Fewer than two players.
    #[error("a game needs at least 2 players, not {players}")]
    TooFewPlayers {
        /// The number asked for.
        players: u8,
    },
    /// More players than the sets have colours for.
    #[error("{players} players is too many: these tile sets bring colours for {max}")]
    TooManyPlayers {
        /// The number asked for.
        players: u8,
        /// The most these sets allow.
        max: u8,
    },
    /// Two sets use the same tile id, so tiles could not be named unambiguously.
    #[error("tile id `{id}` is in both `{first}` and `{second}`; a game can use only one of them")]
    DuplicateTileId {
        /// The id.
        id: String,
        /// The set listed first.
        first: String,
        /// The set listed later.
        second: String,
    },
    /// No set provides a start tile.
    #[error("none of the tile sets provides a start tile")]
    NoStartTile,
    /// The sets together have more tile types than tile numbers.
    #[error("the tile sets have {types} tile types together; a game can number at most 65,535")]
    TooManyTileTypes {
        /// How many there are.
        types: usize,
    },
    /// The sets bring no followers.
    #[error("the tile sets give players no followers")]
    NoFollowers,
    /// The sets declare more kinds of follower, or of companion, than a game holds.
    #[error(
        "the tile sets declare more than {max} kinds of {role} together",
        max = crate::player::MAX_FOLLOWER_KINDS
    )]
    TooManyFigureKinds {
        /// `"follower"` or `"companion"`.
        role: &'static str,
    },
    /// Two sets declare a mark or a rule of the same id differently, so the game could not
    /// say which one holds.
    #[error(
        "`{second}` declares {what} `{id}` differently from `{first}`; sets that share a {what} must declare it alike"
    )]
    ConflictingDeclaration {
        /// `"mark"`, `"rule"`, `"token"`, `"title"`, `"figure"`, or `"chain"` (two chains of
        /// river edges under different ids).
        what: &'static str,
        /// The id both use.
        id: String,
        /// The set listed first.
        first: String,
        /// The set listed later.
        second: String,
    },
    /// Two rules of two sets could both decide one thing (two tie-breaks, two value rules of
    /// one precedence for the same features), and neither set orders them: which one held
    /// would be the order the sets were listed in.
    #[error(
        "{what} `{first_rule}` of `{first}` and {what} `{second_rule}` of `{second}` could both decide the same features with equal standing, so the order the sets are listed in would; give the rules different `precedence` where they take one, or play the sets apart"
    )]
    EqualStanding {
        /// `"value rule"`, `"farm rule"`, `"tie-break"` or `"pig rule"`.
        what: &'static str,
        /// The first rule's id.
        first_rule: String,
        /// The set that declares it.
        first: String,
        /// The second rule's id.
        second_rule: String,
        /// The set that declares it.
        second: String,
    },
    /// The sets declare more marks together than a game holds.
    #[error("the tile sets declare more than {max} marks together", max = crate::rulebook::MAX_MARKS)]
    TooManyMarks,
    /// The sets declare more rules together than a game holds.
    #[error("the tile sets declare more than {max} rules together", max = crate::rulebook::MAX_RULES)]
    TooManyRules,
    /// The sets declare more token kinds together than a game holds.
    #[error("the tile sets declare more than {max} token kinds together", max = crate::rulebook::MAX_TOKENS)]
    TooManyTokens,
    /// The sets' bags hold more kinds of token together than a game holds.
    #[error("the tile sets' bags hold more than {max} kinds of token together", max = crate::rulebook::MAX_BAG_KINDS)]
    TooManyBagKinds,
    /// Two bags of the sets in play have a kind of token of one id: the game's counts name
    /// tokens by id, and could not tell them apart.
    #[error(
        "bags `{first}` and `{second}` both have a `{token}` token; give one of them another id"
    )]
    TokenInTwoBags {
        /// The token id.
        token: String,
        /// The bag listed first.
        first: String,
        /// The other bag.
        second: String,
    },
    /// The sets declare more titles together than a game holds.
    #[error("the tile sets declare more than {max} titles together", max = crate::rulebook::MAX_TITLES)]
    TooManyTitles,
    /// The sets bring more tiles together than a board holds
    /// ([`MAX_GAME_TILES`](crate::limits::MAX_GAME_TILES)).
    #[error("the tile sets have {tiles} tiles together; a game can use at most {max}", max = MAX_GAME_TILES)]
    TooManyTiles {
        /// How many there are, every copy counted.
        tiles: u64,
    },
}

/// The checked, combined rules of one game, shared by every copy of it.
#[derive(PartialEq, Eq, Hash)]
pub(crate) struct Rules {
    /// The setup, with seed 0: the seed belongs to each game, not to the rules they share.
    pub(crate) setup: GameSetup,
    /// Every tile type of every set, numbered across sets in setup order, their marks
    /// numbered as `rulebook` declares them.
    pub(crate) tiles: Vec<TileType>,
    /// The marks and rules of every set together.
    pub(crate) rulebook: Rulebook,
    pub(crate) groups: DrawGroups,
    pub(crate) start: TileIndex,
    pub(crate) fit: FitTable,
    /// The declared chain (The River's rules), if any.
    pub(crate) chain: Option<ChainRule>,
    /// Per tile type: whether it has an edge of the declared chain's kind, and so obeys its
    /// rules.
    pub(crate) chained: Vec<bool>,
    /// The declared rivalries, in declaration order, with their rule numbers.
    pub(crate) rivals: Vec<(RuleId, RivalRule)>,
    /// Per tile type: which rivalries (bit `n` for `rivals[n]`) its features take each side
    /// of, the unmarked side first.
    pub(crate) rival_sides: Vec<RivalSides>,
    /// Per tile type: whether a placement of it must pass rules beyond the fit of its edges
    /// (the river's, a rivalry's limit). Other tiles take the fit table's word.
    pub(crate) constrained: Vec<bool>,
    /// Per tile type: its monastery and garden segments.
    pub(crate) cloisters: Vec<SegmentSet>,
    /// Per tile type: its city and road segments, which a placement may complete.
    pub(crate) linear: Vec<SegmentSet>,
    /// Per tile type, per segment kind: which figures the rules let stand there, by their
    /// places in [`Rules::figures`] (fields only with farmers on).
    pub(crate) may_stand: Vec<[Slots; SegmentKind::ALL.len()]>,
    /// Per tile type, per segment kind: the figures the declared rules let stand there (a
    /// garden: the abbot), the rules of the tile's own set and those reaching every set.
    pub(crate) occupants: Vec<[Slots; SegmentKind::ALL.len()]>,
    /// Each player's figures at the start.
    pub(crate) supply: Hand,
    /// The figures the sets declare and the options offer.
    pub(crate) figures: FigureTable,
    /// Whether players have special figures (builders, pigs, shepherds): without them a turn
    /// never looks for them.
    pub(crate) specials: bool,
    /// The kinds of token of the declared bags.
    pub(crate) bags: crate::rulebook::BagTable,
    /// The tile marks whose tiles hide a tile under them.
    pub(crate) hiding: crate::rulebook::MarkSet,
}

/// Only what tells games apart: the tables are derived from the sets and would bury a failed
/// comparison of two games under thousands of lines.
impl core::fmt::Debug for Rules {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let sets: Vec<&str> = self.setup.catalogs.iter().map(|c| c.info().id.as_str()).collect();
        f.debug_struct("Rules")
            .field("sets", &sets)
            .field("players", &self.setup.players)
            .field("options", &self.setup.options)
            .field("tile_types", &self.tiles.len())
            .finish_non_exhaustive()
    }
}

impl Rules {
    pub(crate) fn new(mut setup: GameSetup) -> Result<Rules, SetupError> {
        setup.seed = 0;
        if setup.catalogs.is_empty() {
            return Err(SetupError::NoTileSet);
        }
        let colours: usize = setup.catalogs.iter().map(|c| c.figures().colours.len()).sum();
        let max = colours.clamp(2, MAX_PLAYERS) as u8;
        if setup.players < 2 {
            return Err(SetupError::TooFewPlayers { players: setup.players });
        }
        if setup.players > max {
            return Err(SetupError::TooManyPlayers { players: setup.players, max });
        }
        let (rulebook, tiles) = combine(&setup.catalogs)?;
        let copies: u64 = setup.catalogs.iter().map(|c| c.tile_count() as u64).sum();
        if copies > MAX_GAME_TILES {
            return Err(SetupError::TooManyTiles { tiles: copies });
        }
        let mut stage = Vec::with_capacity(tiles.len());
        let mut place = Vec::with_capacity(tiles.len());
        // The start tile of the lowest stage wins: the River's spring replaces the base start.
        let mut start: Option<(i8, TileIndex)> = None;
        for catalog in &setup.catalogs {
            let offset = stage.len() as TileIndex;
            stage.extend(catalog.tiles().iter().map(|_| catalog.deck().stage));
            place.extend(catalog.tiles().iter().map(|_| InStage::Shuffled));
            for index in &catalog.deck().last {
                place[usize::from(offset + index)] = InStage::Last;
            }
            for index in &catalog.deck().first {
                place[usize::from(offset + index)] = InStage::First;
            }
            if let Some(index) = catalog.deck().start {
                let stage = catalog.deck().stage;
                if start.is_none_or(|(best, _)| stage < best) {
                    start = Some((stage, offset + index));
                }
            }
        }
        let (_, start) = start.ok_or(SetupError::NoStartTile)?;

        let figures = FigureTable::new(
            combined_figures(&setup.catalogs)
                .into_iter()
                .filter(|rule| rule.offered(&setup.options)),
        )
        .map_err(too_many_kinds)?;
        let mut supply = Hand::default();
        for (slot, rule) in figures.iter().enumerate() {
            supply.0[slot] = rule.per_player;
        }
        if !figures.iter().any(|rule| rule.is_follower() && rule.per_player > 0) {
            return Err(SetupError::NoFollowers);
        }

        let fit = FitTable::new(tiles.iter().map(TileType::edges));
        let chain = rulebook.chain();
        let chained: Vec<bool> = tiles
            .iter()
            .map(|tile| chain.is_some_and(|chain| tile.edges().0.contains(&chain.edge)))
            .collect();
        let rivals: Vec<(RuleId, RivalRule)> = rulebook.rivals().collect();
        let rival_sides: Vec<RivalSides> =
            tiles.iter().map(|tile| RivalSides::of(tile, &rivals)).collect();
        let constrained = chained
            .iter()
            .zip(&rival_sides)
            .map(|(chained, sides)| *chained || sides.limited(&rivals))
            .collect();
        let of_kinds = |kinds: [SegmentKind; 2]| -> Vec<SegmentSet> {
            tiles
                .iter()
                .map(|tile| {
                    (0..tile.segments().len() as u8)
                        .filter(|index| {
                            kinds.contains(&tile.segments()[usize::from(*index)].kind())
                        })
                        .collect()
                })
                .collect()
        };
        let specials = figures.iter().any(|rule| !rule.is_follower() && rule.per_player > 0);
        let occupants = occupancy(&setup.catalogs, &rulebook, &figures);
        Ok(Rules {
            specials,
            bags: crate::rulebook::BagTable::new(rulebook.bags()).map_err(|why| match why {
                crate::rulebook::BagTableError::TooManyKinds => SetupError::TooManyBagKinds,
                crate::rulebook::BagTableError::SharedToken { token, first, second } => {
                    SetupError::TokenInTwoBags { token: token.id().into(), first, second }
                }
            })?,
            hiding: rulebook.hiding_marks(),
            chain,
            chained,
            rivals,
            rival_sides,
            constrained,
            cloisters: of_kinds([SegmentKind::Monastery, SegmentKind::Garden]),
            linear: of_kinds([SegmentKind::City, SegmentKind::Road]),
            may_stand: occupants
                .iter()
                .map(|declared| {
                    SegmentKind::ALL.map(|kind| {
                        let declared = declared[kind as usize];
                        figures
                            .iter()
                            .enumerate()
                            .filter(|(slot, rule)| {
                                declared.contains(*slot)
                                    && rule.may_stand_on(kind, setup.options.farmers)
                            })
                            .map(|(slot, _)| slot)
                            .collect()
                    })
                })
                .collect(),
            occupants,
            tiles,
            rulebook,
            groups: DrawGroups::new(&stage, &place),
            start,
            fit,
            supply,
            figures,
            setup,
        })
    }
}

impl Rules {
    /// The rule of the bag `figure` draws from, if it draws from one.
    pub(crate) fn bag_of(&self, figure: crate::Figure) -> Option<RuleId> {
        self.bags.bag_by_id(self.figures.get(figure)?.draws.as_deref()?)
    }

    /// Why the occupants rules keep `figure` off segments of `kind` on tiles of type `tile`,
    /// naming the figures they let stand there; `None` if they do not. Read only for a
    /// refusal's message: the rules' own lists, which may name figures this game lacks.
    pub(crate) fn declared_occupants(
        &self,
        tile: TileIndex,
        kind: SegmentKind,
        figure: crate::Figure,
    ) -> Option<crate::Forbidden> {
        let mut first = 0usize;
        let catalog = self.setup.catalogs.iter().find(|catalog| {
            first += catalog.tiles().len();
            usize::from(tile) < first
        })?;
        let rules = catalog.rulebook().rules().iter().chain(self.rulebook.reaching_every_set());
        Rulebook::occupants_named(rules, kind)
            .filter(|list| !list.contains(figure))
            .map(crate::Forbidden::OnlyDeclared)
    }
}

/// Which rivalries a tile type's features take each side of: bit `n` for the game's `n`th
/// rivalry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct RivalSides {
    /// Features of the rivalry's kind carrying none of its marks.
    pub(crate) plain: u64,
    /// Features of the rivalry's kind carrying one of its marks.
    pub(crate) marked: u64,
}

impl RivalSides {
    fn of(tile: &TileType, rivals: &[(RuleId, RivalRule)]) -> RivalSides {
        let mut sides = RivalSides::default();
        for (bit, (_, rival)) in rivals.iter().enumerate() {
            for segment in tile.segments() {
                match rival.side(segment.kind(), segment.marks()) {
                    Some(true) => sides.marked |= 1 << bit,
                    Some(false) => sides.plain |= 1 << bit,
                    None => {}
                }
            }
        }
        sides
    }

    /// The sides this tile takes of rivalry number `bit`: plain, marked.
    pub(crate) const fn of_rival(self, bit: usize) -> (bool, bool) {
        (self.plain >> bit & 1 != 0, self.marked >> bit & 1 != 0)
    }

    /// Whether the tile takes a side of a rivalry that limits its rivals.
    fn limited(self, rivals: &[(RuleId, RivalRule)]) -> bool {
        rivals.iter().enumerate().any(|(bit, (_, rival))| {
            rival.at_most.is_some() && (self.plain | self.marked) >> bit & 1 != 0
        })
    }
}

/// For each tile type of `catalogs` (in the game's numbering), per segment kind, the figures
/// the occupants rules let stand there: its own set's rules and those of `combined` that reach
/// every set.
pub(crate) fn occupancy(
    catalogs: &[Catalog],
    combined: &Rulebook,
    figures: &FigureTable,
) -> Vec<[Slots; SegmentKind::ALL.len()]> {
    let mut tables = Vec::new();
    for catalog in catalogs {
        let rules = catalog.rulebook().rules().iter().chain(combined.reaching_every_set());
        let table = Rulebook::occupants_of(rules, figures);
        tables.extend(catalog.tiles().iter().map(|_| table));
    }
    tables
}

/// Every reason `catalogs` cannot be played together, whatever the players and options: tile
/// ids two sets share, more tile types than a game numbers, and each clash of their
/// declarations (a mark, rule, token kind or title declared differently, two rules of equal
/// standing, more of a kind than a game holds). Empty when they combine. This is what
/// `carcassonne tileset check A B` reports for files that are each valid.
///
/// ```
/// use carcassonne::{Catalog, SetupError, clashes};
/// let sets = [Catalog::builtin("base")?, Catalog::builtin("base_c2")?];
/// assert!(matches!(clashes(&sets)[0], SetupError::DuplicateTileId { .. }));
/// let sets = [Catalog::builtin("base")?, Catalog::builtin("inns_and_cathedrals")?];
/// assert!(clashes(&sets).is_empty());
/// # Ok::<(), carcassonne::UnknownBuiltin>(())
/// ```
#[must_use]
pub fn clashes(catalogs: &[Catalog]) -> Vec<SetupError> {
    match combined(catalogs) {
        Ok(_) => Vec::new(),
        Err(clashes) => clashes,
    }
}

/// The sets' declarations as one rulebook, with each set's mark numbers in it; or every
/// reason they cannot be one, in the order the sets bring them (never empty).
fn combined(catalogs: &[Catalog]) -> Result<(Rulebook, Vec<Vec<Mark>>), Vec<SetupError>> {
    let mut clashes = Vec::new();
    let types: usize = catalogs.iter().map(|c| c.tiles().len()).sum();
    if types > usize::from(TileIndex::MAX) {
        clashes.push(SetupError::TooManyTileTypes { types });
    }
    let mut set_of_id: BTreeMap<&str, usize> = BTreeMap::new();
    for (set, catalog) in catalogs.iter().enumerate() {
        for tile in catalog.tiles() {
            if let Some(earlier) = set_of_id.insert(tile.id(), set)
                && clashes.len() < MAX_CLASHES
            {
                clashes.push(SetupError::DuplicateTileId {
                    id: tile.id().into(),
                    first: catalogs[earlier].info().id.clone(),
                    second: catalog.info().id.clone(),
                });
            }
        }
    }
    clashes.extend(figure_clashes(catalogs));
    let books = catalogs.iter().map(|catalog| (catalog.info().id.as_str(), catalog.rulebook()));
    let combined = Rulebook::combine(books).map_err(|conflicts| {
        conflicts.into_iter().take(MAX_CLASHES).map(|conflict| match conflict {
            Conflict::Differs { what, id, first, second } => {
                SetupError::ConflictingDeclaration { what, id, first, second }
            }
            Conflict::EqualStanding { what, first, second } => SetupError::EqualStanding {
                what,
                first_rule: first.0,
                first: first.1,
                second_rule: second.0,
                second: second.1,
            },
            Conflict::TooManyMarks => SetupError::TooManyMarks,
            Conflict::TooManyRules => SetupError::TooManyRules,
            Conflict::TooManyTokens => SetupError::TooManyTokens,
            Conflict::TooManyTitles => SetupError::TooManyTitles,
        })
    });
    match combined {
        Ok(combined) if clashes.is_empty() => Ok(combined),
        Ok(_) => Err(clashes),
        Err(more) => {
            clashes.extend(more);
            clashes.truncate(MAX_CLASHES);
            Err(clashes)
        }
    }
}

/// Each figure the sets declare, once: as its first set declares it, with the largest count
/// any of them gives.
pub(crate) fn combined_figures(catalogs: &[Catalog]) -> Vec<FigureRule> {
    let mut figures: Vec<FigureRule> = Vec::new();
    for rule in catalogs.iter().flat_map(|catalog| &catalog.figures().declared) {
        match figures.iter_mut().find(|known| known.figure == rule.figure) {
            Some(known) => known.per_player = known.per_player.max(rule.per_player),
            None => figures.push(rule.clone()),
        }
    }
    figures
}

/// The refusal for a game's figures that do not fit in one table.
fn too_many_kinds(too_many: TooManyKinds) -> SetupError {
    SetupError::TooManyFigureKinds {
        role: if too_many.followers { "follower" } else { "companion" },
    }
}

/// Figures two sets declare differently: every pair whose rules (not their counts) differ;
/// and more kinds of follower or companion than a game holds, whatever the options offer.
fn figure_clashes(catalogs: &[Catalog]) -> Vec<SetupError> {
    let mut clashes = Vec::new();
    if let Err(too_many) = FigureTable::new(combined_figures(catalogs)) {
        clashes.push(too_many_kinds(too_many));
    }
    let mut first: Vec<(&FigureRule, &str)> = Vec::new();
    for catalog in catalogs {
        for rule in &catalog.figures().declared {
            match first.iter().find(|(known, _)| known.figure == rule.figure) {
                Some((known, set)) if !known.alike(rule) => {
                    clashes.push(SetupError::ConflictingDeclaration {
                        what: "figure",
                        id: rule.figure.id().into(),
                        first: (*set).into(),
                        second: catalog.info().id.clone(),
                    });
                }
                Some(_) => {}
                None => first.push((rule, catalog.info().id.as_str())),
            }
        }
    }
    clashes
}

/// The most clashes [`clashes`] lists: two sets sharing every tile id of a big deck would
/// otherwise list each.
pub const MAX_CLASHES: usize = 100;

/// The marks and rules of several sets as one rulebook, and their tile types numbered one
/// set after another, each segment's marks numbered as that rulebook declares them.
///
/// # Errors
/// A tile id used by two sets, more types than tile numbers, or declarations that clash.
pub(crate) fn combine(catalogs: &[Catalog]) -> Result<(Rulebook, Vec<TileType>), SetupError> {
    let (rulebook, maps) = combined(catalogs).map_err(|mut clashes| clashes.swap_remove(0))?;
    let tiles = catalogs
        .iter()
        .zip(&maps)
        .flat_map(|(catalog, map)| {
            catalog.tiles().iter().map(move |tile| {
                // Most sets are numbered as the game numbers them: their tiles are shared.
                if map.iter().enumerate().all(|(at, mark)| mark.index() == at) {
                    tile.clone()
                } else {
                    tile.with_marks_renumbered(map)
                }
            })
        })
        .collect();
    Ok((rulebook, tiles))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn builtin(names: &[&str]) -> Vec<Catalog> {
        names.iter().map(|name| Catalog::builtin(name).unwrap()).collect()
    }

    #[test]
    fn the_river_spring_replaces_the_base_start_tile() {
        let rules = Rules::new(GameSetup::new(builtin(&["base", "river"]), 2)).unwrap();
        assert_eq!(rules.tiles[usize::from(rules.start)].id(), "river_spring");
        let rules = Rules::new(GameSetup::new(builtin(&["river", "base"]), 2)).unwrap();
        assert_eq!(rules.tiles[usize::from(rules.start)].id(), "river_spring");
    }

    #[test]
    fn supplies_follow_the_sets_and_options() {
        let mut setup = GameSetup::new(builtin(&["base", "inns_and_cathedrals"]), 6);
        setup.options.abbots = true;
        let rules = Rules::new(setup).unwrap();
        let counts: Vec<(crate::Figure, u8)> =
            rules.figures.iter().map(|rule| rule.figure).zip(rules.supply.0).collect();
        use crate::Figure;
        assert_eq!(counts, [(Figure::FOLLOWER, 7), (Figure::BIG_FOLLOWER, 1), (Figure::ABBOT, 1)]);
    }

    #[test]
    fn impossible_setups_are_refused() {
        let base = builtin(&["base"]);
        assert_eq!(Rules::new(GameSetup::new(Vec::new(), 2)), Err(SetupError::NoTileSet));
        assert_eq!(
            Rules::new(GameSetup::new(base.clone(), 1)),
            Err(SetupError::TooFewPlayers { players: 1 })
        );
        assert_eq!(
            Rules::new(GameSetup::new(base.clone(), 6)),
            Err(SetupError::TooManyPlayers { players: 6, max: 5 })
        );
        assert_eq!(
            Rules::new(GameSetup::new(builtin(&["river"]), 2)),
            Err(SetupError::NoFollowers),
            "the River brings tiles but no followers"
        );
        let twice = Rules::new(GameSetup::new(builtin(&["base", "base_c2"]), 2)).unwrap_err();
        assert_eq!(
            twice.to_string(),
            "tile id `A` is in both `base` and `base_c2`; a game can use only one of them"
        );
    }

    /// Sets that share a mark, token kind or title id must declare it alike; the message
    /// names what differs and both sets.
    #[test]
    #[cfg_attr(miri, ignore = "parses tile sets")]
    fn sets_that_declare_an_id_differently_are_refused() {
        let set = |declaration: &str| {
            let text = alloc::format!(
                "[set]\nid = \"other\"\nname = \"Other\"\nedition = 1\n{declaration}\n\
                 [[tile]]\nid = \"Z1\"\nname = \"Meadow\"\ncount = 1\n\
                 edges = {{ N = \"field\", E = \"field\", S = \"field\", W = \"field\" }}\n\
                 segments = [{{ kind = \"field\", half_edges = [\"N_w\", \"N_e\", \"E_n\", \"E_s\", \"S_e\", \"S_w\", \"W_s\", \"W_n\"] }}]\n"
            );
            Catalog::from_toml("other.toml", &text).unwrap()
        };
        let refused = |second: &str, declaration: &str| {
            let mut sets = builtin(&["base", second]);
            sets.push(set(declaration));
            Rules::new(GameSetup::new(sets, 2)).unwrap_err().to_string()
        };
        let pennant = "[[mark]]\nid = \"pennant\"\nname = \"Pennant\"\non = [\"city\"]\n\
                       merge = \"count\"\ncomplete = 3\nglyph = \"shield\"\ncolour = \"blue\"\n\
                       [[value]]\nid = \"pennant_cities\"\nfeature = \"city\"\n\
                       with = [\"pennant\"]\nper_tile = 3\n";
        assert_eq!(
            refused("cathars", pennant),
            "`other` declares mark `pennant` differently from `base`; sets that share a mark must declare it alike"
        );
        let wine = "[[mark]]\nid = \"wine\"\nname = \"Wine\"\non = [\"city\"]\nmerge = \"count\"\n\
                    glyph = \"barrel\"\ncolour = \"purple\"\n\
                    [[token]]\nid = \"wine\"\nname = \"Wine\"\nfrom = [\"wine\"]\n\
                    taken_by = \"scorers\"\nmajority = 10\n";
        assert_eq!(
            refused("traders_and_builders", wine),
            "`other` declares token `wine` differently from `traders_and_builders`; sets that share a token must declare it alike"
        );
        let king =
            "[[title]]\nid = \"king\"\nname = \"The King\"\nfeature = \"city\"\nholding = 10\n";
        assert_eq!(
            refused("king_and_robber", king),
            "`other` declares title `king` differently from `king_and_robber`; sets that share a title must declare it alike"
        );
    }

    /// Two sets' rules that could both decide one feature, with nothing to order them, are
    /// refused: the order the sets were listed in would decide. Rules that never meet (two
    /// sizes of city), or that a precedence orders, are not.
    #[test]
    fn rules_of_equal_standing_from_two_sets_are_refused() {
        let city_rule = |id: &str, tiles: u32, precedence: u32| {
            let text = alloc::format!(
                "[set]\nid = \"{id}\"\nname = \"Other\"\nedition = 1\n\
                 [[value]]\nid = \"{id}_rule\"\nfeature = \"city\"\nstate = \"complete\"\n\
                 tiles = {tiles}\nprecedence = {precedence}\nper_tile = 5\n\
                 [[tile]]\nid = \"{id}1\"\nname = \"Meadow\"\ncount = 1\n\
                 edges = {{ N = \"field\", E = \"field\", S = \"field\", W = \"field\" }}\n\
                 segments = [{{ kind = \"field\", half_edges = [\"N_w\", \"N_e\", \"E_n\", \"E_s\", \"S_e\", \"S_w\", \"W_s\", \"W_n\"] }}]\n"
            );
            Catalog::from_toml("other.toml", &text).unwrap()
        };
        let with = |other: Catalog| {
            let mut sets = builtin(&["base"]);
            sets.push(other);
            clashes(&sets)
        };
        // The base game's tiny city: complete cities of 2 tiles, precedence 10.
        assert_eq!(with(city_rule("three", 3, 10)), []);
        assert_eq!(with(city_rule("higher", 2, 11)), []);
        let refused = with(city_rule("same", 2, 10));
        assert_eq!(
            refused,
            [SetupError::EqualStanding {
                what: "value rule",
                first_rule: "tiny_city".into(),
                first: "base".into(),
                second_rule: "same_rule".into(),
                second: "same".into(),
            }]
        );
        let mut sets = builtin(&["base"]);
        sets.push(city_rule("same", 2, 10));
        assert_eq!(Rules::new(GameSetup::new(sets, 2)).unwrap_err(), refused[0]);
    }

    #[test]
    #[cfg_attr(miri, ignore = "parses seven tile sets of 9,600 tiles")]
    fn more_tiles_than_a_board_holds_is_refused() {
        // Seven sets of 24 types × 400 copies: 67,200 tiles, each set within the file limits.
        let base = include_str!("../tilesets/base.toml");
        let big = |n: usize| {
            let text = base
                .replace("id = \"base\"", &alloc::format!("id = \"big{n}\""))
                .replace("id = \"", &alloc::format!("id = \"{n}"))
                .replace("start = \"", &alloc::format!("start = \"{n}"))
                // The declarations keep their ids: tiles name the pennant by it.
                .replace(&alloc::format!("id = \"{n}pennant\""), "id = \"pennant\"")
                .replace(&alloc::format!("id = \"{n}tiny_city\""), "id = \"tiny_city\"")
                .replace(&alloc::format!("id = \"{n}follower\""), "id = \"follower\"")
                .replace(&alloc::format!("id = \"{n}abbot\""), "id = \"abbot\"");
            let text = with_counts(&text, 400);
            Catalog::from_toml("big.toml", &text).unwrap()
        };
        let sets: Vec<Catalog> = (0..7).map(big).collect();
        assert_eq!(sets[0].tile_count(), 9_600);
        assert!(Rules::new(GameSetup::new(sets[..6].to_vec(), 2)).is_ok());
        let error = Rules::new(GameSetup::new(sets, 2)).unwrap_err();
        assert_eq!(error, SetupError::TooManyTiles { tiles: 67_200 });
        assert_eq!(
            error.to_string(),
            "the tile sets have 67200 tiles together; a game can use at most 65536"
        );
    }

    /// Every `count = N` line set to `count`.
    fn with_counts(text: &str, count: u16) -> String {
        text.lines()
            .map(|line| {
                if line.starts_with("count = ") {
                    alloc::format!("count = {count}\n")
                } else {
                    alloc::format!("{line}\n")
                }
            })
            .collect()
    }
}
