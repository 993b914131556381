//! Declared rules: what a feature is worth by its marks, and what a completed city is worth
//! to farmers by its marks. Each is data read from a tile set file; one generic mechanism
//! applies them all, and nothing in the engine asks which rule or mark it is.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::mark::{Mark, MarkSet};
use crate::segment::SegmentKind;
use crate::setup::{FarmScoring, RuleOptions, UnfinishedMarks};

/// A declared rule, by its number in the declarations of the set or game that owns it
/// ([`Catalog::rules`](crate::Catalog::rules), [`Game::rules`](crate::Game::rules)): what
/// events name when a rule set a score.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct RuleId(pub u8);

impl RuleId {
    /// The rule's number as an index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A rule as its tile set declares it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The id events and messages name it by, such as `"cathedral"`.
    pub id: String,
    /// What it does.
    pub effect: Effect,
}

/// What a rule does.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Sets what a city or road is worth (`[[value]]` in files).
    Value(ValueRule),
    /// Multiplies what a completed city pays its farmers (`[[farm]]` in files).
    Farm(FarmRule),
    /// Adds to a monastery or garden for each neighbouring tile carrying a mark
    /// (`[[neighbours]]` in files).
    Neighbours(NeighbourRule),
    /// Breaks a tied majority in favour of the players with figures on tiles carrying a mark
    /// (`[[tiebreak]]` in files).
    TieBreak(TieBreakRule),
    /// Makes monasteries or gardens carrying a mark rivals of those without (`[[rival]]` in
    /// files).
    Rival(RivalRule),
    /// Makes the tiles with edges of one kind a chain from the start tile, with rules for
    /// placing them (`[[chain]]` in files: The River).
    Chain(ChainRule),
    /// Limits the figures that may stand on a kind of segment (`[[occupants]]` in files: only
    /// an abbot on a garden).
    Occupants(OccupantRule),
    /// What a pig adds to its owner's farm payout per completed city (`[[pig]]` in files:
    /// Traders & Builders).
    Pig(PigRule),
    /// A bag of tokens drawn unseen by the figures that draw from it (`[[bag]]` in files:
    /// Hills & Sheep's sheep and wolves).
    Bag(super::BagRule),
    /// A tile carrying a mark hides the next tile of the bag under it, out of the game
    /// (`[[hide]]` in files: Hills & Sheep's hills).
    Hide(HideRule),
}

/// As derived, but for a bag shaped as the flock's was before bags were declared (kept tokens
/// `sheep_1` ... worth their number, one `wolf` that sends home), which reads as that flock
/// rule did: what describes a game (an arena journal's fingerprint of its setup) stays the
/// same.
impl core::fmt::Debug for Effect {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (name, inner): (&str, &dyn core::fmt::Debug) = match self {
            Effect::Value(rule) => ("Value", rule),
            Effect::Farm(rule) => ("Farm", rule),
            Effect::Neighbours(rule) => ("Neighbours", rule),
            Effect::TieBreak(rule) => ("TieBreak", rule),
            Effect::Rival(rule) => ("Rival", rule),
            Effect::Chain(rule) => ("Chain", rule),
            Effect::Occupants(rule) => ("Occupants", rule),
            Effect::Pig(rule) => ("Pig", rule),
            Effect::Bag(bag) => match LegacyFlock::of(bag) {
                Some(flock) => return f.debug_tuple("Flock").field(&flock).finish(),
                None => ("Bag", bag),
            },
            Effect::Hide(rule) => ("Hide", rule),
        };
        f.debug_tuple(name).field(inner).finish()
    }
}

/// A bag as the flock rule it would have been written as, where it can be one.
struct LegacyFlock {
    sheep: [u8; 8],
    wolves: u8,
    per_sheep: u32,
}

impl LegacyFlock {
    fn of(bag: &super::BagRule) -> Option<LegacyFlock> {
        let mut flock = LegacyFlock { sheep: [0; 8], wolves: 0, per_sheep: bag.points };
        let mut wolves = 0;
        for (index, token) in bag.tokens.iter().enumerate() {
            if token.then == super::Drawn::SendHome {
                (token.token.id() == "wolf" && index + 1 == bag.tokens.len()).then_some(())?;
                flock.wolves = token.count;
                wolves += 1;
            } else {
                let worth = usize::from(token.worth);
                (worth == index + 1 && token.token.id() == alloc::format!("sheep_{worth}"))
                    .then_some(())?;
                flock.sheep[index] = token.count;
            }
        }
        (wolves <= 1).then_some(flock)
    }
}

impl core::fmt::Debug for LegacyFlock {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FlockRule")
            .field("sheep", &self.sheep)
            .field("wolves", &self.wolves)
            .field("per_sheep", &self.per_sheep)
            .finish()
    }
}

/// A pig on a field adds `per_city` to every completed city the field pays its owner's
/// farmers: "the farmer's owner receives 4 points (instead of 3) for each completed city"
/// (Traders & Builders). A city a farm rule multiplies (a besieged city) multiplies the pig's
/// share too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PigRule {
    /// Points more per completed city.
    pub per_city: u32,
}

/// A placed tile carrying `mark` has the bag's next tile put face down under it, out of the
/// game: "If a player draws a Hill tile, he/she immediately draws another tile (without
/// looking at it) and places it underneath the Hill tile" (Hills & Sheep). Nothing is hidden
/// once the bag is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HideRule {
    /// The tile mark.
    pub mark: Mark,
}

/// Only `figures` may stand on segments of kind `feature`, of those the figures' own rules
/// let stand there (an abbot only in a monastery or garden, farmers only with the `farmers`
/// option, nobody on a river): "the abbot ... is the only figure that can be placed on a
/// garden" (The Abbot). Several such rules for one kind all apply.
///
/// A rule governs the segments of its own set's tiles unless it reaches every set: a small
/// set's rule must not change the base game's monasteries without saying so.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OccupantRule {
    /// The kind of segment.
    pub feature: SegmentKind,
    /// The figures that may stand there.
    pub figures: crate::player::FigureList,
    /// Whose tiles it governs.
    pub reach: Reach,
}

/// The default reach is left out, so a rule written before rules had a reach reads as it did:
/// what describes a game (an arena journal's fingerprint of its setup) stays the same. For the
/// same reason, figures that are all published read as the bit mask over
/// [`crate::Figure::PUBLISHED`] they were written as before figures had ids, `FigureSet(4)`.
impl core::fmt::Debug for OccupantRule {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        struct Published(u8);
        impl core::fmt::Debug for Published {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "FigureSet({})", self.0)
            }
        }
        let published = crate::Figure::PUBLISHED;
        let bits = self.figures.iter().try_fold(0u8, |bits, figure| {
            published.iter().position(|known| *known == figure).map(|bit| bits | 1 << bit)
        });
        let mut rule = f.debug_struct("OccupantRule");
        rule.field("feature", &self.feature);
        match bits {
            Some(bits) => rule.field("figures", &Published(bits)),
            None => rule.field("figures", &self.figures),
        };
        if self.reach != Reach::ThisSet {
            rule.field("reach", &self.reach);
        }
        rule.finish()
    }
}

/// Which tiles a rule about the segments of tiles governs (`reach` in files).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reach {
    /// The tiles of the set that declares it (`"this_set"`, the default).
    #[default]
    ThisSet,
    /// The tiles of every set of the game (`"every_set"`).
    EverySet,
}

impl Reach {
    /// The name used in files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reach::ThisSet => "this_set",
            Reach::EverySet => "every_set",
        }
    }

    /// Parses the name used in files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Reach> {
        [Reach::ThisSet, Reach::EverySet].into_iter().find(|reach| reach.name() == name)
    }
}

/// Whether a rule applies to complete features, unfinished ones, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeatureState {
    /// Completed during play (or complete at the end).
    Complete,
    /// Scored unfinished at the end of the game.
    Unfinished,
    /// Either.
    Any,
}

impl FeatureState {
    /// The name used in tile set files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FeatureState::Complete => "complete",
            FeatureState::Unfinished => "unfinished",
            FeatureState::Any => "any",
        }
    }

    /// Parses a name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<FeatureState> {
        [FeatureState::Complete, FeatureState::Unfinished, FeatureState::Any]
            .into_iter()
            .find(|s| s.name() == name)
    }

    const fn admits(self, complete: bool) -> bool {
        match self {
            FeatureState::Complete => complete,
            FeatureState::Unfinished => !complete,
            FeatureState::Any => true,
        }
    }
}

/// A game option a rule may depend on, with the value it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionTest {
    /// `tiny_city` is on (`true`) or off.
    TinyCity(bool),
    /// `inn_cathedral_unfinished` has this value.
    InnCathedralUnfinished(UnfinishedMarks),
    /// `farm_scoring` has this value.
    FarmScoring(FarmScoring),
    /// `farmers` is on (`true`) or off.
    Farmers(bool),
    /// `abbots` is on (`true`) or off.
    Abbots(bool),
}

impl OptionTest {
    /// The option names a rule may test, as files write them.
    pub const NAMES: [&'static str; 5] =
        ["tiny_city", "inn_cathedral_unfinished", "farm_scoring", "farmers", "abbots"];

    /// Whether the options hold the value this test needs.
    #[must_use]
    pub fn holds(self, options: &RuleOptions) -> bool {
        match self {
            OptionTest::TinyCity(on) => options.tiny_city == on,
            OptionTest::InnCathedralUnfinished(value) => options.inn_cathedral_unfinished == value,
            OptionTest::FarmScoring(value) => options.farm_scoring == value,
            OptionTest::Farmers(on) => options.farmers == on,
            OptionTest::Abbots(on) => options.abbots == on,
        }
    }

    /// The value the test needs, as files write it: `true`, `false`, or an option value's
    /// name (`zero`, `per_city_4`).
    #[must_use]
    pub const fn value_name(self) -> &'static str {
        match self {
            OptionTest::TinyCity(on) | OptionTest::Farmers(on) | OptionTest::Abbots(on) => {
                if on {
                    "true"
                } else {
                    "false"
                }
            }
            OptionTest::InnCathedralUnfinished(UnfinishedMarks::Zero) => "zero",
            OptionTest::InnCathedralUnfinished(UnfinishedMarks::Normal) => "normal",
            OptionTest::FarmScoring(FarmScoring::PerField) => "per_field",
            OptionTest::FarmScoring(FarmScoring::PerFieldOnce) => "per_field_once",
            OptionTest::FarmScoring(FarmScoring::PerCity4) => "per_city_4",
        }
    }

    /// Whether the option is a switch, written `true` or `false` rather than as a string.
    #[must_use]
    pub const fn is_switch(self) -> bool {
        matches!(self, OptionTest::TinyCity(_) | OptionTest::Farmers(_) | OptionTest::Abbots(_))
    }

    /// The option's name as files write it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OptionTest::TinyCity(_) => "tiny_city",
            OptionTest::InnCathedralUnfinished(_) => "inn_cathedral_unfinished",
            OptionTest::FarmScoring(_) => "farm_scoring",
            OptionTest::Farmers(_) => "farmers",
            OptionTest::Abbots(_) => "abbots",
        }
    }
}

/// What a city or road is worth when it carries certain marks: points per tile and per mark
/// in place of the plain ones, for the features it applies to. Of the rules that apply to a
/// feature, the one of highest precedence sets its value (the first declared among equals).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueRule {
    /// City or road.
    pub feature: SegmentKind,
    /// Complete features, unfinished ones, or both.
    pub state: FeatureState,
    /// Marks the feature must carry, at least one of each.
    pub with: MarkSet,
    /// The exact number of tiles the feature must cover, if the rule asks.
    pub tiles: Option<u32>,
    /// Options that must hold, every one.
    pub options: Vec<OptionTest>,
    /// Which rule wins where several apply: the highest.
    pub precedence: u8,
    /// Points per tile.
    pub per_tile: u32,
    /// Points per mark, for the marks named; other marks add their plain points.
    pub per_mark: Vec<(Mark, u32)>,
}

impl ValueRule {
    /// Whether some feature could meet both rules' conditions: the same kind, states that
    /// meet, no two different sizes asked for, and no option asked to take two values.
    #[must_use]
    pub fn overlaps(&self, other: &ValueRule) -> bool {
        let states =
            matches!((self.state, other.state), (FeatureState::Any, _) | (_, FeatureState::Any))
                || self.state == other.state;
        let sizes = match (self.tiles, other.tiles) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        let options = self.options.iter().all(|test| {
            other.options.iter().all(|known| {
                core::mem::discriminant(test) != core::mem::discriminant(known) || test == known
            })
        });
        self.feature == other.feature && states && sizes && options
    }

    /// Whether the rule applies to a feature of `kind` and `tiles` tiles carrying `marks`.
    #[must_use]
    pub fn applies(
        &self,
        kind: SegmentKind,
        complete: bool,
        tiles: u32,
        marks: MarkSet,
        options: &RuleOptions,
    ) -> bool {
        self.feature == kind
            && self.state.admits(complete)
            && marks.contains_all(self.with)
            && self.tiles.is_none_or(|exactly| exactly == tiles)
            && self.options.iter().all(|test| test.holds(options))
    }

    /// The points per mark this rule sets for `mark`, if it names it.
    #[must_use]
    pub fn mark_points(&self, mark: Mark) -> Option<u32> {
        self.per_mark.iter().find(|(named, _)| *named == mark).map(|(_, points)| *points)
    }
}

/// A completed city carrying certain marks pays its farmers `times` as much (the Cathars'
/// besieged city: 6 a city instead of 3 under the current rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FarmRule {
    /// Marks the city must carry, at least one of each.
    pub with: MarkSet,
    /// The factor, 1 to 10.
    pub times: u32,
    /// Which rule wins where several apply: the highest.
    pub precedence: u8,
}

/// A monastery or garden scores `each` more for every one of its eight neighbouring tiles that
/// carries `mark` (Hills & Sheep's vineyards: 3 a vineyard around a completed monastery).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NeighbourRule {
    /// Monastery or garden.
    pub feature: SegmentKind,
    /// Completed ones, those scored unfinished (at the end or on an abbot's recall), or both.
    pub state: FeatureState,
    /// The tile mark counted on the neighbours.
    pub mark: Mark,
    /// Points per neighbouring tile carrying it.
    pub each: u32,
}

impl NeighbourRule {
    /// Whether the rule adds to a `kind` feature, complete or not.
    #[must_use]
    pub const fn applies(&self, kind: SegmentKind, complete: bool) -> bool {
        self.feature as u8 == kind as u8 && self.state.admits(complete)
    }
}

/// Monasteries (or gardens) carrying any of `marks` and those carrying none are rivals, as The
/// Cult's shrines and monasteries are. When an occupied one is completed, every unfinished
/// occupied one of the other side among its eight neighbours is defeated: its figures go home
/// with nothing, and it scores nothing later. Two completed by the same tile both score. And,
/// with `at_most`, no tile may be placed where one of either side would have more than
/// `at_most` of the other side among its neighbours ("a shrine may not be placed in such a
/// way that it adjoins several cloisters. Similarly, a cloister may not be placed so that it
/// neighbors several shrines").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RivalRule {
    /// Monastery or garden.
    pub feature: SegmentKind,
    /// The marks of one side: a feature carrying any of them is on it, one carrying none is
    /// on the other.
    pub marks: MarkSet,
    /// The most rivals a feature may have among its eight neighbours, if limited.
    pub at_most: Option<u8>,
}

impl RivalRule {
    /// The side a segment of `kind` carrying `marks` is on: `Some(true)` for the marked side,
    /// `Some(false)` for the other, `None` when the rule is not about such segments.
    #[must_use]
    pub const fn side(&self, kind: SegmentKind, marks: MarkSet) -> Option<bool> {
        if self.feature as u8 != kind as u8 {
            return None;
        }
        Some(self.marks.bits() & marks.bits() != 0)
    }
}

/// The tiles with `edge` edges (the River's) form a chain that grows from the start tile: each
/// must put one such edge against an open end of the chain, and only one, so the chain's
/// branches never join ("the two river branches must not be connected", The River II). Its
/// other such edges are new open ends. With [`ChainTurns::Alternate`], two curves in a row
/// along a branch may not turn the same way ("no 180° turns", The River), straight tiles
/// between them changing nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChainRule {
    /// The edge kind the chain follows.
    pub edge: crate::EdgeKind,
    /// Whether its curves must alternate.
    pub turns: ChainTurns,
}

/// How a chain's curves may follow each other along a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChainTurns {
    /// Any way.
    Any,
    /// A curve may not turn the way the branch's previous curve did.
    Alternate,
}

impl ChainTurns {
    /// The name used in tile set files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ChainTurns::Any => "any",
            ChainTurns::Alternate => "alternate",
        }
    }

    /// Parses a name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<ChainTurns> {
        [ChainTurns::Any, ChainTurns::Alternate].into_iter().find(|turns| turns.name() == name)
    }
}

/// How a tie-break compares the tied players' figures on tiles carrying its mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreakBy {
    /// Every tied player with at least one figure on such a tile takes the feature.
    Any,
    /// The tied players with the most figures on such tiles take it.
    Most,
}

impl TieBreakBy {
    /// The name used in tile set files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TieBreakBy::Any => "any",
            TieBreakBy::Most => "most",
        }
    }

    /// Parses a name as written in tile set files.
    #[must_use]
    pub fn from_name(name: &str) -> Option<TieBreakBy> {
        [TieBreakBy::Any, TieBreakBy::Most].into_iter().find(|by| by.name() == name)
    }
}

/// Players tied for the most strength on a feature are split by their figures on it standing
/// on tiles carrying `mark` (Hills & Sheep's hill); where none of them has one, they share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TieBreakRule {
    /// The tile mark.
    pub mark: Mark,
    /// How the figures on such tiles compare.
    pub by: TieBreakBy,
}
