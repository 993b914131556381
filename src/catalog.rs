//! Catalogs: validated tile sets, built-in or loaded from the user's files.

use alloc::string::String;
use alloc::vec::Vec;

use crate::dsl::{self, Diagnostics};
use crate::player::Figure;
use crate::rulebook::{FigureRule, Mark, MarkInfo, Rule, Rulebook, TitleInfo, TokenInfo};
use crate::segment::SegmentKind;
use crate::tile::{TileIndex, TileType};

/// Who a tile set is: its id, name and edition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetInfo {
    /// The id the set is loaded by, such as `"base"`.
    pub id: String,
    /// The name shown to people.
    pub name: String,
    /// Which printing of the set the data follows (1 = first edition).
    pub edition: u8,
}

/// How a set's tiles enter the deck.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DeckRules {
    /// The tile placed face up at (0, 0) before the first turn, if this set provides one.
    pub start: Option<TileIndex>,
    /// All tiles of a lower stage are drawn before any tile of a higher stage.
    pub stage: i8,
    /// Tiles drawn after every other tile of the stage.
    pub last: Vec<TileIndex>,
    /// Tiles drawn before every other tile of the stage (The River II's fork).
    pub first: Vec<TileIndex>,
}

/// The figures a set brings to each player, as its `[[figure]]` tables declare them, and the
/// player colours it adds.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Figures {
    /// The figures, in the order the file declares them.
    pub declared: Vec<FigureRule>,
    /// Player colours, in order.
    pub colours: Vec<String>,
}

/// The counts a player gets, as sets stated them before figures were declared, and the
/// colours: arena journals fingerprint a setup by its `Debug` text, and a set's figures read the
/// same as long as its counts do. `declared` holds the rest. Figures no built-in set brings
/// follow in full (`others`), only where the set has any, so that a change to one of them
/// changes the fingerprint and the built-in sets' stays as it was.
impl core::fmt::Debug for Figures {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut figures = f.debug_struct("Figures");
        figures
            .field("followers", &self.count(Figure::FOLLOWER))
            .field("big_followers", &self.count(Figure::BIG_FOLLOWER))
            .field("builders", &self.count(Figure::BUILDER))
            .field("pigs", &self.count(Figure::PIG))
            .field("shepherds", &self.count(Figure::SHEPHERD))
            .field("colours", &self.colours);
        let others: Vec<&FigureRule> =
            self.declared.iter().filter(|rule| !Figure::PUBLISHED.contains(&rule.figure)).collect();
        if !others.is_empty() {
            figures.field("others", &others);
        }
        figures.finish()
    }
}

impl Figures {
    /// The set's declaration of `figure`, if it brings one.
    #[must_use]
    pub fn declared(&self, figure: Figure) -> Option<&FigureRule> {
        self.declared.iter().find(|rule| rule.figure == figure)
    }

    /// How many of `figure` the set gives each player (whatever the game's options).
    #[must_use]
    pub fn count(&self, figure: Figure) -> u8 {
        self.declared(figure).map_or(0, |rule| rule.per_player)
    }
}

/// A validated tile set: every tile type with its edges and segments, plus the set's deck
/// and figure rules.
///
/// Reachable only through the loaders, which check the whole file; a `Catalog` therefore
/// always satisfies the rules in `tilesets/README.md`.
///
/// ```
/// use carcassonne::Catalog;
/// let base = Catalog::builtin("base")?;
/// assert_eq!(base.tile_count(), 72);
/// let start = base.start_tile().unwrap();
/// assert_eq!(start.id(), "D");
/// # Ok::<(), carcassonne::UnknownBuiltin>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Catalog {
    pub(crate) info: SetInfo,
    pub(crate) deck: DeckRules,
    pub(crate) figures: Figures,
    pub(crate) rulebook: Rulebook,
    pub(crate) tiles: Vec<TileType>,
}

/// The names of the tile sets built into the library, in the order they are listed to users.
pub const BUILTIN_NAMES: [&str; 10] = [
    "base",
    "base_c2",
    "river",
    "river_ii",
    "inns_and_cathedrals",
    "cathars",
    "traders_and_builders",
    "hills_and_sheep",
    "king_and_robber",
    "cult",
];

/// A name that is not one of [`BUILTIN_NAMES`]; a long one is quoted cut to
/// [`MAX_LABEL`](crate::limits::MAX_LABEL) characters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no built-in tile set is called `{0}`; the built-in sets are base, base_c2, river, river_ii, inns_and_cathedrals, cathars, traders_and_builders, hills_and_sheep, king_and_robber and cult"
)]
pub struct UnknownBuiltin(pub String);

impl Catalog {
    /// Reads and validates a tile set from TOML text. `file` names the source in diagnostics.
    ///
    /// # Errors
    /// Every problem in the text, each with its line, column and code.
    ///
    /// ```
    /// use carcassonne::Catalog;
    /// let text = r#"
    /// [set]
    /// id = "tiny"
    /// name = "Tiny"
    /// edition = 1
    ///
    /// [[tile]]
    /// id = "U"
    /// name = "Straight road"
    /// count = 2
    /// edges = { N = "road", E = "field", S = "road", W = "field" }
    /// segments = [
    ///   { kind = "road", edges = ["N", "S"] },
    ///   { kind = "field", half_edges = ["N_e", "E_n", "E_s", "S_e"] },
    ///   { kind = "field", half_edges = ["S_w", "W_s", "W_n", "N_w"] },
    /// ]
    /// "#;
    /// let tiny = Catalog::from_toml("tiny.toml", text).unwrap();
    /// assert_eq!(tiny.tile_count(), 2);
    ///
    /// let broken = text.replace("N_e", "N_x");
    /// let problems = Catalog::from_toml("tiny.toml", &broken).unwrap_err();
    /// assert_eq!(
    ///     problems.to_string(),
    ///     "error[dsl-unknown-half-edge]: tiny.toml:14:35: `N_x` is not a half-edge; \
    ///      expected one of N_w, N_e, E_n, E_s, S_e, S_w, W_s, W_n"
    /// );
    /// ```
    pub fn from_toml(file: &str, text: &str) -> Result<Catalog, Diagnostics> {
        dsl::load(file, text)
    }

    /// One of the tile sets built into the library, by name: `base`, `base_c2`, `river`,
    /// `river_ii`, `inns_and_cathedrals`, `cathars`, `traders_and_builders`, `hills_and_sheep`,
    /// `king_and_robber` or `cult`.
    ///
    /// # Errors
    /// [`UnknownBuiltin`] for any other name.
    pub fn builtin(name: &str) -> Result<Catalog, UnknownBuiltin> {
        with_builtin(name, Catalog::clone).ok_or_else(|| {
            // The name may come from a stranger's document: quote a short label of it.
            UnknownBuiltin(String::from(crate::limits::shorten(name, dsl::limits::MAX_LABEL)))
        })
    }

    /// Whether the set is, tile for tile, the built-in set of its id: saves name such a set
    /// instead of writing it out.
    pub(crate) fn is_builtin(&self) -> bool {
        with_builtin(&self.info.id, |builtin| builtin == self).unwrap_or(false)
    }

    /// Who the set is.
    #[must_use]
    pub fn info(&self) -> &SetInfo {
        &self.info
    }

    /// How the set's tiles enter the deck.
    #[must_use]
    pub fn deck(&self) -> &DeckRules {
        &self.deck
    }

    /// The figures and colours the set brings.
    #[must_use]
    pub fn figures(&self) -> &Figures {
        &self.figures
    }

    /// The marks, rules and token kinds the set declares.
    #[must_use]
    pub fn rulebook(&self) -> &Rulebook {
        &self.rulebook
    }

    /// The marks the set declares; a [`Mark`] on one of its segments indexes this list.
    #[must_use]
    pub fn marks(&self) -> &[MarkInfo] {
        self.rulebook.marks()
    }

    /// The rules the set declares.
    #[must_use]
    pub fn rules(&self) -> &[Rule] {
        self.rulebook.rules()
    }

    /// The token kinds the set declares (Traders & Builders' goods).
    #[must_use]
    pub fn tokens(&self) -> &[TokenInfo] {
        self.rulebook.tokens()
    }

    /// The titles the set declares (King & Robber Baron's King and Robber Baron).
    #[must_use]
    pub fn titles(&self) -> &[TitleInfo] {
        self.rulebook.titles()
    }

    /// The mark the set declares with this id.
    ///
    /// ```
    /// use carcassonne::Catalog;
    /// let base = Catalog::builtin("base")?;
    /// let pennant = base.mark_by_id("pennant").unwrap();
    /// assert_eq!(base.count_tiles_with(pennant), 10);
    /// assert_eq!(base.mark_by_id("inn"), None, "inns come with Inns & Cathedrals");
    /// # Ok::<(), carcassonne::UnknownBuiltin>(())
    /// ```
    #[must_use]
    pub fn mark_by_id(&self, id: &str) -> Option<Mark> {
        self.rulebook.mark_by_id(id)
    }

    /// Every tile type, in file order; a [`TileIndex`] indexes this list.
    #[must_use]
    pub fn tiles(&self) -> &[TileType] {
        &self.tiles
    }

    /// The tile type at `index`, if there is one.
    #[must_use]
    pub fn tile(&self, index: TileIndex) -> Option<&TileType> {
        self.tiles.get(usize::from(index))
    }

    /// The tile type with the given id, with its index.
    #[must_use]
    pub fn tile_by_id(&self, id: &str) -> Option<(TileIndex, &TileType)> {
        let index = self.tiles.iter().position(|tile| tile.id() == id)?;
        Some((TileIndex::try_from(index).ok()?, &self.tiles[index]))
    }

    /// The start tile this set provides, if any.
    #[must_use]
    pub fn start_tile(&self) -> Option<&TileType> {
        self.tile(self.deck.start?)
    }

    /// How many tiles the set has, counting every copy.
    #[must_use]
    pub fn tile_count(&self) -> usize {
        self.tiles.iter().map(|tile| usize::from(tile.count())).sum()
    }

    /// How many segments of `kind` the set has, counting every copy.
    #[must_use]
    pub fn count_segments(&self, kind: SegmentKind) -> usize {
        self.tiles.iter().map(|tile| tile.count_segments(kind) * usize::from(tile.count())).sum()
    }

    /// How many tiles carry `mark` on at least one segment, counting every copy.
    #[must_use]
    pub fn count_tiles_with(&self, mark: Mark) -> usize {
        self.tiles
            .iter()
            .filter(|tile| tile.count_marks(mark) > 0)
            .map(|tile| usize::from(tile.count()))
            .sum()
    }

    /// The set written back in the tile set format; loading the text gives an equal catalog.
    #[must_use]
    pub fn to_toml(&self) -> String {
        dsl::write(self)
    }
}

/// Calls `f` with the built-in set `name`, or gives `None` for another name. With `std` each
/// set is parsed once per process: saving a game compares its sets with the built-in ones and
/// loading one names them, which otherwise spent most of their time parsing TOML.
#[cfg(feature = "std")]
fn with_builtin<R>(name: &str, f: impl FnOnce(&Catalog) -> R) -> Option<R> {
    use std::sync::OnceLock;
    static PARSED: [OnceLock<Catalog>; BUILTIN_NAMES.len()] =
        [const { OnceLock::new() }; BUILTIN_NAMES.len()];
    let index = BUILTIN_NAMES.iter().position(|known| *known == name)?;
    Some(f(PARSED[index].get_or_init(|| parse_builtin(name))))
}

/// Without `std` there is no lock to share a parsed set between threads, so each call parses.
#[cfg(not(feature = "std"))]
fn with_builtin<R>(name: &str, f: impl FnOnce(&Catalog) -> R) -> Option<R> {
    BUILTIN_NAMES.contains(&name).then(|| f(&parse_builtin(name)))
}

/// How the first built-in set that declares `figure` declares it.
pub(crate) fn builtin_figure_rule(figure: Figure) -> Option<FigureRule> {
    BUILTIN_NAMES.iter().find_map(|name| {
        with_builtin(name, |set| set.figures().declared(figure).cloned()).flatten()
    })
}

/// The base set, the default of documents that name no set.
pub(crate) fn base() -> Catalog {
    with_builtin("base", Catalog::clone).expect("`base` is one of BUILTIN_NAMES")
}

fn parse_builtin(name: &str) -> Catalog {
    let text = builtin_text(name).unwrap_or_else(|| panic!("{name} is not built in"));
    let file = alloc::format!("tilesets/{name}.toml");
    // The built-in files are checked by the test suite; a failure here is a build defect.
    Catalog::from_toml(&file, text)
        .unwrap_or_else(|problems| panic!("built-in tile set {name} is invalid:\n{problems}"))
}

fn builtin_text(name: &str) -> Option<&'static str> {
    Some(match name {
        "base" => include_str!("../tilesets/base.toml"),
        "base_c2" => include_str!("../tilesets/base_c2.toml"),
        "river" => include_str!("../tilesets/river.toml"),
        "river_ii" => include_str!("../tilesets/river_ii.toml"),
        "inns_and_cathedrals" => include_str!("../tilesets/inns_and_cathedrals.toml"),
        "cathars" => include_str!("../tilesets/cathars.toml"),
        "traders_and_builders" => include_str!("../tilesets/traders_and_builders.toml"),
        "hills_and_sheep" => include_str!("../tilesets/hills_and_sheep.toml"),
        "king_and_robber" => include_str!("../tilesets/king_and_robber.toml"),
        "cult" => include_str!("../tilesets/cult.toml"),
        _ => return None,
    })
}
