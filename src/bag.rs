//! The tile bag: how many copies of each tile type are left, and which may be drawn next.
//!
//! The bag keeps counts, not an order, so a draw named by the caller (a tile drawn on a real
//! table, a chance outcome explored by a search) keeps it as consistent as a random one, and
//! a player's view can show what is left without revealing what comes next.

use alloc::vec::Vec;

use crate::rng::Rng;
use crate::tile::TileIndex;

/// Why a named tile cannot be drawn now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Undrawable {
    /// No tile type has that number.
    Unknown,
    /// Every copy has been drawn.
    NoneLeft,
    /// Tiles of an earlier stage (the River before the land) are still in the bag.
    LaterStage,
    /// It comes last in its stage and other tiles of the stage remain.
    ComesLast,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Bag {
    remaining: Vec<u16>,
    total: u32,
}

impl Bag {
    /// A bag with every copy of every tile type, less one copy of `start`.
    pub(crate) fn new(counts: impl Iterator<Item = u16>, start: TileIndex) -> Bag {
        let mut remaining: Vec<u16> = counts.collect();
        if let Some(count) = remaining.get_mut(usize::from(start)) {
            *count = count.saturating_sub(1);
        }
        let total = remaining.iter().map(|count| u32::from(*count)).sum();
        Bag { remaining, total }
    }

    pub(crate) fn total(&self) -> u32 {
        self.total
    }

    pub(crate) fn remaining(&self) -> &[u16] {
        &self.remaining
    }

    /// Whether `tile` may be drawn now, given each type's stage and last flag.
    pub(crate) fn check(
        &self,
        tile: TileIndex,
        stage: &[i8],
        last: &[bool],
    ) -> Result<(), Undrawable> {
        let index = usize::from(tile);
        let count = *self.remaining.get(index).ok_or(Undrawable::Unknown)?;
        if count == 0 {
            return Err(Undrawable::NoneLeft);
        }
        let (current, only_last) = self.group(stage, last);
        if stage[index] != current {
            return Err(Undrawable::LaterStage);
        }
        if last[index] && !only_last {
            return Err(Undrawable::ComesLast);
        }
        Ok(())
    }

    /// Draws a random tile from the group that may be drawn now; `None` when the bag is empty.
    pub(crate) fn draw(&mut self, rng: &mut Rng, stage: &[i8], last: &[bool]) -> Option<TileIndex> {
        if self.total == 0 {
            return None;
        }
        let (current, only_last) = self.group(stage, last);
        let in_group = |index: usize| stage[index] == current && last[index] == only_last;
        let size: u32 = (0..self.remaining.len())
            .filter(|index| in_group(*index))
            .map(|index| u32::from(self.remaining[index]))
            .sum();
        let mut pick = rng.below(size);
        for index in 0..self.remaining.len() {
            if !in_group(index) {
                continue;
            }
            let count = u32::from(self.remaining[index]);
            if pick < count {
                let tile = index as TileIndex;
                self.take(tile);
                return Some(tile);
            }
            pick -= count;
        }
        None
    }

    /// Removes one copy of `tile`, which must have one left.
    pub(crate) fn take(&mut self, tile: TileIndex) {
        let count = &mut self.remaining[usize::from(tile)];
        *count -= 1;
        self.total -= 1;
    }

    /// The lowest stage with tiles left, and whether only its last tiles remain.
    fn group(&self, stage: &[i8], last: &[bool]) -> (i8, bool) {
        let mut current = i8::MAX;
        for (index, count) in self.remaining.iter().enumerate() {
            if *count > 0 {
                current = current.min(stage[index]);
            }
        }
        let only_last = self
            .remaining
            .iter()
            .enumerate()
            .all(|(index, count)| *count == 0 || stage[index] != current || last[index]);
        (current, only_last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three types: a river tile, a lake that comes last in the river stage, a land tile.
    const STAGE: [i8; 3] = [-1, -1, 0];
    const LAST: [bool; 3] = [false, true, false];

    #[test]
    fn stages_and_last_tiles_come_in_order() {
        let mut bag = Bag::new([2, 1, 3].into_iter(), 2);
        assert_eq!(bag.total(), 5);
        let mut rng = Rng::new(3);
        let drawn: Vec<TileIndex> =
            core::iter::from_fn(|| bag.draw(&mut rng, &STAGE, &LAST)).collect();
        assert_eq!(drawn, [0, 0, 1, 2, 2]);
        assert_eq!(bag.total(), 0);
    }

    #[test]
    fn named_draws_follow_the_same_order() {
        let bag = Bag::new([2, 1, 3].into_iter(), 2);
        assert_eq!(bag.check(0, &STAGE, &LAST), Ok(()));
        assert_eq!(bag.check(1, &STAGE, &LAST), Err(Undrawable::ComesLast));
        assert_eq!(bag.check(2, &STAGE, &LAST), Err(Undrawable::LaterStage));
        assert_eq!(bag.check(3, &STAGE, &LAST), Err(Undrawable::Unknown));
        let mut bag = Bag::new([0, 1, 3].into_iter(), 2);
        assert_eq!(bag.check(0, &STAGE, &LAST), Err(Undrawable::NoneLeft));
        assert_eq!(bag.check(1, &STAGE, &LAST), Ok(()));
        bag.take(1);
        assert_eq!(bag.check(2, &STAGE, &LAST), Ok(()));
    }

    #[test]
    fn random_draws_cover_every_tile_of_the_group() {
        let stage = [0; 4];
        let last = [false; 4];
        let mut seen = [0u32; 4];
        for seed in 0..400 {
            let mut bag = Bag::new([1, 1, 1, 1].into_iter(), 9);
            seen[usize::from(bag.draw(&mut Rng::new(seed), &stage, &last).unwrap())] += 1;
        }
        assert!(seen.iter().all(|count| (60..140).contains(count)), "{seen:?}");
    }
}
