//! Tokens in play: what a game's bags hold (counts public, order hidden) and the tokens kept
//! beside each figure that draws from a bag.

use alloc::vec::Vec;

use serde::Serialize;

use crate::player::PlayerId;
use crate::pos::Pos;
use crate::rng::Rng;
use crate::rulebook::{BagKind, BagTable, BagToken, Drawn, MAX_BAG_KINDS, RuleId};
use crate::segment::SegmentIndex;

/// Counts of tokens by the game's kinds ([`crate::Game::bag_kinds`]).
pub(crate) type Counts = [u8; MAX_BAG_KINDS];

/// What a game's bags hold, by kind in the game's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bags(pub(crate) Counts);

impl Bags {
    /// Every bag full, as declared.
    pub(crate) fn full(table: &BagTable) -> Bags {
        let mut counts = [0; MAX_BAG_KINDS];
        for (count, kind) in counts.iter_mut().zip(&table.kinds) {
            *count = kind.rule.count;
        }
        Bags(counts)
    }

    /// The tokens in the bag whose kinds are `kinds`.
    pub(crate) fn total(&self, kinds: core::ops::Range<usize>) -> u32 {
        self.0.get(kinds).map_or(0, |counts| counts.iter().map(|count| u32::from(*count)).sum())
    }

    /// A kind drawn at random from the bag whose kinds are `kinds`, each token in it as
    /// likely as any other; `None` when it is empty. The token stays in the bag.
    pub(crate) fn pick(&self, kinds: core::ops::Range<usize>, rng: &mut Rng) -> Option<usize> {
        let total = self.total(kinds.clone());
        if total == 0 {
            return None;
        }
        let mut pick = rng.below(total);
        for kind in kinds {
            let count = u32::from(self.0[kind]);
            if pick < count {
                return Some(kind);
            }
            pick -= count;
        }
        None
    }

    /// Puts a hoard's tokens back.
    pub(crate) fn put_back(&mut self, tokens: &Counts) {
        for (count, more) in self.0.iter_mut().zip(tokens) {
            *count = count.saturating_add(*more);
        }
    }

    /// The counts as the public view names them.
    pub(crate) fn contents(&self, table: &BagTable) -> BagContents {
        BagContents::of(&self.0, table, 0..table.kinds.len())
    }
}

/// Tokens counted by kind: what a game's bags hold ([`crate::Game::bag`]) or a figure keeps
/// ([`Hoard::contents`]). In JSON, an object from token id to count.
///
/// ```
/// use carcassonne::{Catalog, Game, GameSetup};
/// let hills = Catalog::builtin("hills_and_sheep")?;
/// let game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?, hills], 2))?;
/// let bag = game.bag();
/// assert_eq!(bag.total(), 18);
/// assert_eq!(bag.count(carcassonne::BagToken::from_id("wolf").unwrap()), 2);
/// assert_eq!(
///     serde_json::to_string(&bag)?,
///     r#"{"sheep_1":4,"sheep_2":5,"sheep_3":5,"sheep_4":2,"wolf":2}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BagContents {
    counts: Vec<(BagToken, u8)>,
}

impl BagContents {
    /// The counts of `kinds`, read from `counts` by the game's numbering.
    pub(crate) fn of(
        counts: &Counts,
        table: &BagTable,
        kinds: core::ops::Range<usize>,
    ) -> BagContents {
        BagContents {
            counts: kinds
                .filter_map(|kind| Some((table.kinds.get(kind)?.rule.token, *counts.get(kind)?)))
                .collect(),
        }
    }

    /// How many of `token` there are: 0 for a kind the bag does not have.
    #[must_use]
    pub fn count(&self, token: BagToken) -> u8 {
        self.counts.iter().find(|(known, _)| *known == token).map_or(0, |(_, count)| *count)
    }

    /// All tokens, whatever their kind.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|(_, count)| u32::from(*count)).sum()
    }

    /// Every kind with its count, in the game's order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (BagToken, u8)> + '_ {
        self.counts.iter().copied()
    }

    /// The counts by what the tokens do, read with the game's kinds
    /// ([`crate::Game::bag_kinds`]): kept tokens by their worth (`[worth - 1]`, a worth is at
    /// most [`crate::dsl::limits::MAX_TOKEN_WORTH`]), and the tokens that send home. One bag
    /// never has two kinds that do the same, so this loses nothing of one bag: it is how
    /// views shaped for the flock give it (sheep by the number they show, and wolves).
    #[must_use]
    pub fn by_worth(&self, kinds: &[BagKind]) -> ([u8; WORTHS], u8) {
        let (mut kept, mut send_home) = ([0u8; WORTHS], 0u8);
        for (token, count) in self.iter() {
            let Some(kind) = kinds.iter().find(|kind| kind.rule.token == token) else { continue };
            match kind.rule.then {
                Drawn::Keep => {
                    let slot = usize::from(kind.rule.worth).clamp(1, WORTHS) - 1;
                    kept[slot] = kept[slot].saturating_add(count);
                }
                Drawn::SendHome => send_home = send_home.saturating_add(count),
            }
        }
        (kept, send_home)
    }
}

/// The worths [`BagContents::by_worth`] tells apart: every worth a token may have.
const WORTHS: usize = crate::dsl::limits::MAX_TOKEN_WORTH as usize;

impl Serialize for BagContents {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.counts.iter().map(|(token, count)| (token.id(), count)))
    }
}

/// A figure on the board that draws from a bag, and the tokens it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hoard {
    /// Whose figure.
    pub player: PlayerId,
    /// The figure's cell.
    pub pos: Pos,
    /// The figure's segment.
    pub segment: SegmentIndex,
    /// The rule of its bag, as [`BagKind::bag`] names it.
    pub bag: RuleId,
    /// The tokens it keeps, by the game's kinds.
    pub(crate) tokens: Counts,
}

impl Hoard {
    /// A figure just deployed, keeping nothing yet.
    pub(crate) fn new(player: PlayerId, pos: Pos, segment: SegmentIndex, bag: RuleId) -> Hoard {
        Hoard { player, pos, segment, bag, tokens: [0; MAX_BAG_KINDS] }
    }

    /// What the tokens it keeps are worth together, read with the game's kinds
    /// ([`crate::Game::bag_kinds`]): the sheep its flock shows.
    #[must_use]
    pub fn worth(&self, kinds: &[BagKind]) -> u32 {
        self.tokens
            .iter()
            .zip(kinds)
            .filter(|(_, kind)| kind.rule.then == Drawn::Keep)
            .map(|(count, kind)| u32::from(*count) * u32::from(kind.rule.worth))
            .sum()
    }

    /// How many of the game's kind `kind` it keeps.
    #[must_use]
    pub fn count(&self, kind: usize) -> u8 {
        self.tokens.get(kind).copied().unwrap_or(0)
    }

    /// The tokens it keeps, by kind of its bag, read with the game's kinds.
    #[must_use]
    pub fn contents(&self, kinds: &[BagKind]) -> BagContents {
        BagContents {
            counts: kinds
                .iter()
                .zip(&self.tokens)
                .filter(|(kind, _)| kind.bag == self.bag)
                .map(|(kind, count)| (kind.rule.token, *count))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulebook::{BagRule, BagTokenRule};

    fn table() -> BagTable {
        let token = |id, count, worth, then| BagTokenRule {
            token: BagToken::from_id(id).unwrap(),
            count,
            worth,
            then,
        };
        let flock = BagRule {
            tokens: alloc::vec![
                token("sheep_1", 4, 1, Drawn::Keep),
                token("sheep_2", 5, 2, Drawn::Keep),
                token("sheep_3", 5, 3, Drawn::Keep),
                token("sheep_4", 2, 4, Drawn::Keep),
                token("wolf", 2, 0, Drawn::SendHome),
            ],
            points: 1,
        };
        let coins = BagRule { tokens: alloc::vec![token("coin", 3, 2, Drawn::Keep)], points: 2 };
        BagTable::new([(RuleId(3), "flock", &flock), (RuleId(7), "coins", &coins)].into_iter())
            .unwrap()
    }

    /// Hills & Sheep's bag: 18 tokens, and random draws give each about as often as its
    /// count says, never a token of another bag.
    #[test]
    fn draws_follow_the_counts() {
        let table = table();
        let bags = Bags::full(&table);
        let flock = table.bags[0].2.clone();
        assert_eq!((bags.total(flock.clone()), bags.total(table.bags[1].2.clone())), (18, 3));
        let mut rng = Rng::new(5);
        let mut seen = [0u32; 5];
        for _ in 0..18_000 {
            seen[bags.pick(flock.clone(), &mut rng).expect("the bag is full")] += 1;
        }
        for (seen, count) in seen.iter().zip([4, 5, 5, 2, 2]) {
            assert!(seen.abs_diff(count * 1000) < 250, "{seen} draws of a kind with {count}");
        }
        assert_eq!(Bags::default().pick(flock, &mut rng), None);
    }

    #[test]
    fn tokens_leave_and_come_back() {
        let table = table();
        let mut bags = Bags::full(&table);
        bags.0[3] -= 2;
        let mut hoard = Hoard::new(PlayerId(0), Pos::ORIGIN, 0, RuleId(3));
        hoard.tokens[3] = 2;
        hoard.tokens[0] = 1;
        assert_eq!(hoard.worth(&table.kinds), 9);
        let kept = hoard.contents(&table.kinds);
        assert_eq!(kept.total(), 3);
        assert_eq!(kept.iter().len(), 5, "only the flock's kinds");
        assert_eq!(kept.count(BagToken::from_id("sheep_4").unwrap()), 2);
        bags.put_back(&hoard.tokens);
        assert_eq!(bags.contents(&table).total(), 18 + 3 - 2 + 3, "both bags");
    }
}
