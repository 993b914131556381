//! Declared figures (`[[figure]]` in files): how many a player has, where one may stand, how
//! it counts in a majority and what it does. The engine knows no figure's rules of its own:
//! every set that brings a figure declares it so.

use alloc::string::String;
use alloc::vec::Vec;

use crate::player::{Figure, MAX_FIGURE_KINDS, MAX_FOLLOWER_KINDS};
use crate::rulebook::{KindSet, OptionTest};
use crate::segment::SegmentKind;
use crate::setup::RuleOptions;

/// The most a figure's strength may be.
pub const MAX_STRENGTH: u8 = 10;

/// One figure as a set declares it.
///
/// ```
/// use carcassonne::{Catalog, Figure, FigureRole};
/// let base = Catalog::builtin("base")?;
/// let follower = base.figures().declared(Figure::FOLLOWER).unwrap();
/// assert_eq!(follower.per_player, 7);
/// assert_eq!(follower.role, FigureRole::Follower { strength: 1, recall: false });
/// # Ok::<(), carcassonne::UnknownBuiltin>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FigureRule {
    /// Which figure.
    pub figure: Figure,
    /// How many each player gets (0–20); of several sets declaring it, the largest.
    pub per_player: u8,
    /// How it counts and what it does.
    pub role: FigureRole,
    /// The kinds of segment it may stand on (never a river); `[[occupants]]` rules narrow
    /// this further.
    pub stands_on: KindSet,
    /// Whether on a field it is a farmer, and so stands there only when the game plays
    /// farmers.
    pub farmer: bool,
    /// Game options that must hold for players to have it (the abbot: `abbots`).
    pub options: Vec<OptionTest>,
    /// The id of the bag it draws from: a token as soon as it is deployed, kept beside it
    /// until it goes home; its tokens are cashed in when its feature closes.
    pub draws: Option<String>,
}

/// How a figure counts, and what it does beyond standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FigureRole {
    /// It occupies its feature (no other follower may join it there), counts `strength`
    /// toward the feature's majority and comes home when the feature scores.
    Follower {
        /// What it weighs in a majority (1–10).
        strength: u8,
        /// Whether its owner may take it back instead of deploying, scoring its monastery or
        /// garden as at the end of the game (the abbot's recall).
        recall: bool,
    },
    /// It stands beside followers and occupies nothing: it counts for no majority and scores
    /// nothing by itself.
    Companion {
        /// Which features it may join.
        joins: Joins,
        /// Whose figures of its kind keep it out of a feature.
        alone: Alone,
        /// What happens when a later tile of its owner extends its feature.
        extended: Option<Extended>,
        /// Whether the game's `[[pig]]` rule pays its owner more for the cities of its field.
        farm_bonus: bool,
    },
}

/// Which features a companion may join.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Joins {
    /// Any feature of a kind it stands on.
    Any,
    /// Only a feature where its owner already has a follower.
    OwnFollower,
}

/// Whose figures of the same kind keep a companion out of a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alone {
    /// One of its owner's: each player may have one there.
    Owner,
    /// Anyone's: one in a feature in all.
    All,
}

/// What a companion does when a later tile of its owner extends its feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extended {
    /// Its owner takes another turn, once a turn and never from a turn it gave.
    ExtraTurn,
    /// Its owner draws another token from the bag it `draws` from, or cashes in: every
    /// figure keeping tokens from that bag on the feature scores their worth and goes home
    /// (a shepherd grows its flock or drives it to market).
    DrawOrCash,
}

impl Joins {
    /// The name files give it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Joins::Any => "any",
            Joins::OwnFollower => "own_follower",
        }
    }

    /// Parses the name files give it.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Joins> {
        [Joins::Any, Joins::OwnFollower].into_iter().find(|joins| joins.name() == name)
    }
}

impl Alone {
    /// The name files give it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Alone::Owner => "owner",
            Alone::All => "all",
        }
    }

    /// Parses the name files give it.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Alone> {
        [Alone::Owner, Alone::All].into_iter().find(|alone| alone.name() == name)
    }
}

impl Extended {
    /// The name files give it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Extended::ExtraTurn => "extra_turn",
            Extended::DrawOrCash => "draw_or_cash",
        }
    }

    /// Parses the name files give it.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Extended> {
        [Extended::ExtraTurn, Extended::DrawOrCash].into_iter().find(|then| then.name() == name)
    }
}

impl FigureRule {
    /// Whether it occupies its feature and counts for its majority.
    #[must_use]
    pub const fn is_follower(&self) -> bool {
        matches!(self.role, FigureRole::Follower { .. })
    }

    /// Whether its owner may take it back early, as the abbot (`recall`).
    #[must_use]
    pub const fn recalls(&self) -> bool {
        matches!(self.role, FigureRole::Follower { recall: true, .. })
    }

    /// What it weighs in a majority: nothing for a companion.
    #[must_use]
    pub const fn strength(&self) -> u8 {
        match self.role {
            FigureRole::Follower { strength, .. } => strength,
            FigureRole::Companion { .. } => 0,
        }
    }

    /// Whether the game's options give players this figure.
    #[must_use]
    pub fn offered(&self, options: &RuleOptions) -> bool {
        self.options.iter().all(|test| test.holds(options))
    }

    /// Whether it may stand on a segment of `kind` when the game plays farmers or not.
    #[must_use]
    pub fn may_stand_on(&self, kind: SegmentKind, farmers: bool) -> bool {
        kind != SegmentKind::River
            && self.stands_on.contains(kind)
            && (kind != SegmentKind::Field || !self.farmer || farmers)
    }

    /// The same declaration but for the count: what two sets must agree on to share it.
    #[must_use]
    pub fn alike(&self, other: &FigureRule) -> bool {
        FigureRule { per_player: 0, ..self.clone() }
            == FigureRule { per_player: 0, ..other.clone() }
    }
}

/// The figures a game's sets declare, in the game's order: the followers, then the
/// companions, each by [`Figure`]'s order (the published ones first, the others by id, never
/// by the order sets were loaded). A figure's place in this table numbers it in supplies and
/// in a tile's deployments.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct FigureTable {
    rules: Vec<FigureRule>,
    /// How many of `rules` are followers: they come first.
    followers: usize,
    strength: [u8; MAX_FIGURE_KINDS],
}

/// Why a game's figures do not fit in one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooManyKinds {
    /// Whether it is the followers that are too many (else the companions).
    pub(crate) followers: bool,
}

impl FigureTable {
    /// The table of `declared`, each figure once (the caller has combined the sets' own).
    pub(crate) fn new(
        declared: impl IntoIterator<Item = FigureRule>,
    ) -> Result<FigureTable, TooManyKinds> {
        let mut rules: Vec<FigureRule> = declared.into_iter().collect();
        rules.sort_by_key(|rule| (!rule.is_follower(), rule.figure));
        let followers = rules.iter().filter(|rule| rule.is_follower()).count();
        if followers > MAX_FOLLOWER_KINDS || rules.len() - followers > MAX_FOLLOWER_KINDS {
            return Err(TooManyKinds { followers: followers > MAX_FOLLOWER_KINDS });
        }
        let mut strength = [0; MAX_FIGURE_KINDS];
        for (slot, rule) in rules.iter().enumerate() {
            strength[slot] = rule.strength();
        }
        Ok(FigureTable { rules, followers, strength })
    }

    /// The figure's place in the table, if the game has it.
    #[inline]
    pub(crate) fn slot(&self, figure: Figure) -> Option<usize> {
        self.rules.iter().position(|rule| rule.figure == figure)
    }

    /// The figure's place in the table and its declaration, if the game has it.
    #[inline]
    pub(crate) fn entry(&self, figure: Figure) -> Option<(usize, &FigureRule)> {
        self.rules.iter().enumerate().find(|(_, rule)| rule.figure == figure)
    }

    /// The declaration at place `slot`.
    pub(crate) fn at(&self, slot: usize) -> Option<&FigureRule> {
        self.rules.get(slot)
    }

    /// Whether the figure at place `slot` is a follower: the followers' places come first.
    #[inline]
    pub(crate) fn is_follower_slot(&self, slot: usize) -> bool {
        slot < self.followers
    }

    /// How many followers the table holds: their places come first.
    pub(crate) fn followers(&self) -> usize {
        self.followers
    }

    /// How many figures the table holds.
    pub(crate) fn len(&self) -> usize {
        self.rules.len()
    }

    /// The figure's declaration, if the game has it.
    pub(crate) fn get(&self, figure: Figure) -> Option<&FigureRule> {
        self.rules.iter().find(|rule| rule.figure == figure)
    }

    /// Whether the figure occupies its feature and counts for its majority.
    #[inline]
    pub(crate) fn is_follower(&self, figure: Figure) -> bool {
        self.rules[..self.followers].iter().any(|rule| rule.figure == figure)
    }

    /// What the figure weighs in a majority.
    #[inline]
    pub(crate) fn strength(&self, figure: Figure) -> u8 {
        self.slot(figure).map_or(0, |slot| self.strength[slot])
    }

    /// The declared figures, in the table's order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &FigureRule> {
        self.rules.iter()
    }

    /// What the figure, a companion, does when a later tile of its owner extends its feature.
    pub(crate) fn extended(&self, figure: Figure) -> Option<Extended> {
        match self.get(figure)?.role {
            FigureRole::Companion { extended, .. } => extended,
            FigureRole::Follower { .. } => None,
        }
    }

    /// Whether the figure's owner may recall it early.
    pub(crate) fn recalls(&self, figure: Figure) -> bool {
        self.get(figure).is_some_and(FigureRule::recalls)
    }

    /// Whether the figure earns its owner the `[[pig]]` rule's farm bonus.
    pub(crate) fn farm_bonus(&self, figure: Figure) -> bool {
        matches!(
            self.get(figure).map(|rule| rule.role),
            Some(FigureRole::Companion { farm_bonus: true, .. })
        )
    }
}
