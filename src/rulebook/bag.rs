//! Declared token bags (`[[bag]]` in files): tokens drawn unseen, their counts public, and
//! what each does when drawn. A figure that `draws` from a bag keeps the tokens it draws
//! beside it and cashes them in; the sheep and wolves of Hills & Sheep are one such bag.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::id;

use super::RuleId;

/// The most kinds of token one bag holds.
pub const MAX_BAG_TOKEN_KINDS: usize = 8;

/// The most kinds of token the bags of one game hold together.
pub const MAX_BAG_KINDS: usize = 2 * MAX_BAG_TOKEN_KINDS;

/// A kind of token in a bag, known by the id its bag declares it with: 1 to 16 characters
/// of `a`–`z`, `0`–`9` and `_`, starting with a letter. In JSON it is its id.
///
/// ```
/// use carcassonne::BagToken;
/// let wolf = BagToken::from_id("wolf").unwrap();
/// assert_eq!(serde_json::to_string(&wolf)?, r#""wolf""#);
/// assert_eq!(BagToken::from_id("sheep_3").unwrap().to_string(), "sheep 3");
/// assert!(BagToken::from_id("3 sheep").is_none());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BagToken {
    id: [u8; id::ID_LEN],
}

impl BagToken {
    /// The token kind with this id, or `None` if `id` is not one.
    #[must_use]
    pub const fn from_id(id: &str) -> Option<BagToken> {
        match id::pack(id) {
            Some(id) => Some(BagToken { id }),
            None => None,
        }
    }

    /// The id its bag declares it with.
    #[must_use]
    pub fn id(&self) -> &str {
        id::unpack(&self.id)
    }
}

/// The name used in messages: the id with spaces for underscores.
impl core::fmt::Display for BagToken {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        id::write_words(self.id(), f)
    }
}

impl core::fmt::Debug for BagToken {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "BagToken({})", self.id())
    }
}

impl Serialize for BagToken {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for BagToken {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<BagToken, D::Error> {
        struct Id;
        impl serde::de::Visitor<'_> for Id {
            type Value = BagToken;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, "a token id: {}", crate::Figure::ID_RULE)
            }
            fn visit_str<E: serde::de::Error>(self, id: &str) -> Result<BagToken, E> {
                BagToken::from_id(id)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(id), &self))
            }
        }
        deserializer.deserialize_str(Id)
    }
}

/// What a token does when a figure draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Drawn {
    /// It stays beside the figure, worth its `worth` when the figure cashes in, and goes back
    /// into the bag with the figure: a sheep.
    Keep,
    /// The figure goes home with nothing, its tokens back into the bag, and the token goes
    /// back too; when the figure drew to add to what it keeps, every figure keeping tokens
    /// from this bag on its feature goes home so: the wolf ("the flock is eaten by the wolf.
    /// All shepherds on this meadow are returned", Hills & Sheep).
    SendHome,
}

impl Drawn {
    /// The name files give it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Drawn::Keep => "keep",
            Drawn::SendHome => "send_home",
        }
    }

    /// Parses the name files give it.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Drawn> {
        [Drawn::Keep, Drawn::SendHome].into_iter().find(|drawn| drawn.name() == name)
    }
}

/// One kind of token as its bag declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct BagTokenRule {
    /// Which kind.
    pub token: BagToken,
    /// How many the full bag holds.
    pub count: u8,
    /// What one kept is worth when its figure cashes in (0 for a token that is not kept).
    pub worth: u8,
    /// What it does when drawn.
    pub then: Drawn,
}

/// A bag of tokens, drawn unseen: "18 flock and wolf tokens (4×1 sheep, 5×2, 5×3, 2×4, 2
/// wolves)" (Hills & Sheep). Cashing in pays every figure keeping tokens from it on the
/// feature the worth of all their tokens times `points`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BagRule {
    /// Its kinds of token, in the order the file lists them (at most
    /// [`MAX_BAG_TOKEN_KINDS`]).
    pub tokens: Vec<BagTokenRule>,
    /// Points a unit of worth pays each figure when they cash in.
    pub points: u32,
}

impl BagRule {
    /// Every token of the full bag.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.tokens.iter().map(|token| u32::from(token.count)).sum()
    }
}

/// A kind of token of a game's bags, as the game numbers it ([`crate::Game::bag_kinds`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct BagKind {
    /// The rule that declares its bag.
    pub bag: RuleId,
    /// The bag's id (`flock`).
    pub bag_id: String,
    /// The token and what it does.
    pub rule: BagTokenRule,
}

/// The kinds of token of a game's bags: bag after bag by rule number, each bag's kinds in
/// its file's order. A kind's place here numbers it in the game's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct BagTable {
    pub(crate) kinds: Vec<BagKind>,
    /// Each bag: its rule, the points a unit of worth pays, and its kinds' range in `kinds`.
    pub(crate) bags: Vec<(RuleId, u32, core::ops::Range<usize>)>,
}

/// Why a game's bags cannot be numbered together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BagTableError {
    /// More kinds of token than a game's bags may hold together.
    TooManyKinds,
    /// Two bags have a kind of token of one id, which the game's counts could not tell apart.
    SharedToken { token: BagToken, first: String, second: String },
}

impl BagTable {
    /// The bags of `rules`, numbered.
    pub(crate) fn new<'a>(
        rules: impl Iterator<Item = (RuleId, &'a str, &'a BagRule)>,
    ) -> Result<BagTable, BagTableError> {
        let mut table = BagTable::default();
        for (rule, id, bag) in rules {
            let first = table.kinds.len();
            if first + bag.tokens.len() > MAX_BAG_KINDS {
                return Err(BagTableError::TooManyKinds);
            }
            for token in &bag.tokens {
                if let Some(known) = table.kinds.iter().find(|kind| kind.rule.token == token.token)
                {
                    return Err(BagTableError::SharedToken {
                        token: token.token,
                        first: known.bag_id.clone(),
                        second: id.into(),
                    });
                }
            }
            table.kinds.extend(bag.tokens.iter().map(|token| BagKind {
                bag: rule,
                bag_id: id.into(),
                rule: *token,
            }));
            table.bags.push((rule, bag.points, first..table.kinds.len()));
        }
        Ok(table)
    }

    /// The rule of the bag whose id is `id`.
    pub(crate) fn bag_by_id(&self, id: &str) -> Option<RuleId> {
        self.kinds.iter().find(|kind| kind.bag_id == id).map(|kind| kind.bag)
    }

    /// The kinds of the bag `rule` declares, as the game numbers them; none for another rule.
    pub(crate) fn kinds_of(&self, rule: RuleId) -> core::ops::Range<usize> {
        self.bags
            .iter()
            .find(|(bag, _, _)| *bag == rule)
            .map_or(0..0, |(_, _, kinds)| kinds.clone())
    }

    /// The points a unit of worth pays from the bag `rule` declares.
    pub(crate) fn points_of(&self, rule: RuleId) -> u32 {
        self.bags.iter().find(|(bag, _, _)| *bag == rule).map_or(0, |(_, points, _)| *points)
    }

    /// The game's number of `token` in the bag `rule` declares.
    pub(crate) fn kind_in(&self, rule: RuleId, token: BagToken) -> Option<usize> {
        self.kinds_of(rule).find(|kind| self.kinds[*kind].rule.token == token)
    }
}
