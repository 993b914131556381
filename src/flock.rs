//! The shepherds' flocks (Hills & Sheep): the hidden bag of sheep and wolf tokens, and the
//! tokens beside each shepherd on the board.

use serde::Serialize;

use crate::player::PlayerId;
use crate::pos::Pos;
use crate::rng::Rng;
use crate::rulebook::{FlockRule, MAX_SHEEP};
use crate::segment::SegmentIndex;

/// A token of the flock's bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SheepToken {
    /// A token showing this many sheep (1 or more).
    Sheep(u8),
    /// A wolf.
    Wolf,
}

/// What the flock's bag holds: its counts are public, its order is not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct SheepBag {
    /// Tokens by the number of sheep they show: `sheep[n]` tokens of `n + 1` sheep.
    pub sheep: [u8; MAX_SHEEP],
    /// Wolves.
    pub wolves: u8,
}

impl SheepBag {
    /// A full bag, as the flock rule declares it.
    #[must_use]
    pub fn full(rule: &FlockRule) -> SheepBag {
        SheepBag { sheep: rule.sheep, wolves: rule.wolves }
    }

    /// Every token in the bag.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.sheep.iter().map(|count| u32::from(*count)).sum::<u32>() + u32::from(self.wolves)
    }

    /// Whether the bag holds `token`.
    #[must_use]
    pub fn holds(&self, token: SheepToken) -> bool {
        match token {
            SheepToken::Wolf => self.wolves > 0,
            SheepToken::Sheep(sheep) => {
                usize::from(sheep).checked_sub(1).and_then(|slot| self.sheep.get(slot)).copied()
                    > Some(0)
            }
        }
    }

    /// A token drawn at random, each token in the bag as likely as any other; `None` when
    /// the bag is empty. The token stays in the bag: [`SheepBag::take`] removes a sheep.
    pub(crate) fn pick(&self, rng: &mut Rng) -> Option<SheepToken> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let mut pick = rng.below(total);
        for (slot, count) in self.sheep.iter().enumerate() {
            let count = u32::from(*count);
            if pick < count {
                return Some(SheepToken::Sheep(slot as u8 + 1));
            }
            pick -= count;
        }
        Some(SheepToken::Wolf)
    }

    /// Takes a sheep token out; a wolf always goes straight back, so taking one changes
    /// nothing.
    pub(crate) fn take(&mut self, token: SheepToken) {
        if let SheepToken::Sheep(sheep) = token
            && let Some(count) = self.sheep.get_mut(usize::from(sheep) - 1)
        {
            *count = count.saturating_sub(1);
        }
    }

    /// Puts a flock's tokens back.
    pub(crate) fn put_back(&mut self, tokens: &[u8; MAX_SHEEP]) {
        for (count, more) in self.sheep.iter_mut().zip(tokens) {
            *count = count.saturating_add(*more);
        }
    }
}

/// A shepherd on the board and the sheep tokens beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Flock {
    /// Whose shepherd.
    pub player: PlayerId,
    /// The shepherd's cell.
    pub pos: Pos,
    /// The shepherd's segment.
    pub segment: SegmentIndex,
    /// Its tokens by the number of sheep they show: `tokens[n]` of `n + 1` sheep.
    pub tokens: [u8; MAX_SHEEP],
}

impl Flock {
    /// A shepherd just deployed, with no token yet.
    pub(crate) fn new(player: PlayerId, pos: Pos, segment: SegmentIndex) -> Flock {
        Flock { player, pos, segment, tokens: [0; MAX_SHEEP] }
    }

    /// The sheep its tokens show together.
    #[must_use]
    pub fn sheep(&self) -> u32 {
        self.tokens.iter().zip(1u32..).map(|(count, sheep)| u32::from(*count) * sheep).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule() -> FlockRule {
        let mut sheep = [0; MAX_SHEEP];
        sheep[..4].copy_from_slice(&[4, 5, 5, 2]);
        FlockRule { sheep, wolves: 2, per_sheep: 1 }
    }

    /// Hills & Sheep's bag: 18 tokens, and random draws give each about as often as its
    /// count says.
    #[test]
    fn draws_follow_the_counts() {
        let bag = SheepBag::full(&rule());
        assert_eq!(bag.total(), 18);
        let mut rng = Rng::new(5);
        let mut seen = [0u32; 5];
        for _ in 0..18_000 {
            match bag.pick(&mut rng) {
                Some(SheepToken::Sheep(sheep)) => seen[usize::from(sheep) - 1] += 1,
                Some(SheepToken::Wolf) => seen[4] += 1,
                None => unreachable!("the bag is full"),
            }
        }
        for (seen, count) in seen.iter().zip([4, 5, 5, 2, 2]) {
            assert!(seen.abs_diff(count * 1000) < 250, "{seen} draws of a kind with {count}");
        }
    }

    #[test]
    fn tokens_leave_and_come_back() {
        let mut bag = SheepBag::full(&rule());
        assert!(bag.holds(SheepToken::Sheep(4)) && !bag.holds(SheepToken::Sheep(5)));
        assert!(!bag.holds(SheepToken::Sheep(0)));
        bag.take(SheepToken::Sheep(4));
        bag.take(SheepToken::Sheep(4));
        bag.take(SheepToken::Wolf);
        assert!(!bag.holds(SheepToken::Sheep(4)) && bag.holds(SheepToken::Wolf));
        let mut flock = Flock::new(PlayerId(0), Pos::ORIGIN, 0);
        flock.tokens[3] = 2;
        flock.tokens[0] = 1;
        assert_eq!(flock.sheep(), 9);
        bag.put_back(&flock.tokens);
        assert_eq!(bag.total(), 19);
    }
}
