//! The tile bag: how many copies of each tile type are left, and which may be drawn next.
//!
//! The bag keeps counts, not an order, so a draw named by the caller (a tile drawn on a real
//! table, a chance outcome explored by a search) keeps it as consistent as a random one, and
//! a player's view can show what is left without revealing what comes next.
//!
//! Tile types fall into draw groups, in draw order: by stage (the River before the land),
//! and within a stage the tiles that come first (The River II's fork), then the ordinary
//! tiles, then the tiles that come last (the lake). The next tile always comes from the first
//! group with tiles left.

use alloc::vec;
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
    /// Tiles that come first in its stage remain.
    AfterFirst,
}

/// Where in its stage a tile type is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum InStage {
    /// Before every other tile of the stage.
    First,
    /// In any order with the others.
    #[default]
    Shuffled,
    /// After every other tile of the stage.
    Last,
}

/// The draw groups of a game's tile types; shared by every copy of the game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct DrawGroups {
    /// The tile types of each group, groups in draw order.
    members: Vec<Vec<TileIndex>>,
    /// Each group's stage and place in it.
    key: Vec<(i8, InStage)>,
    /// Each tile type's group.
    group_of: Vec<u16>,
}

impl DrawGroups {
    /// Groups tile types by `stage` and their place in it.
    pub(crate) fn new(stage: &[i8], place: &[InStage]) -> DrawGroups {
        let mut keys: Vec<(i8, InStage)> =
            stage.iter().copied().zip(place.iter().copied()).collect();
        keys.sort_unstable();
        keys.dedup();
        let group_of: Vec<u16> = stage
            .iter()
            .zip(place)
            .map(|key| keys.binary_search(&(*key.0, *key.1)).unwrap_or(0) as u16)
            .collect();
        let mut members = vec![Vec::new(); keys.len()];
        for (tile, group) in group_of.iter().enumerate() {
            members[usize::from(*group)].push(tile as TileIndex);
        }
        DrawGroups { members, key: keys, group_of }
    }
}

/// Empty until [`Bag::refill`]ed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bag {
    remaining: Vec<u16>,
    /// Tiles left per draw group.
    left: Vec<u32>,
    total: u32,
}

impl Bag {
    /// A bag [`Bag::refill`]ed, for the tests.
    #[cfg(test)]
    fn new(counts: impl Iterator<Item = u16>, start: TileIndex, groups: &DrawGroups) -> Bag {
        let mut bag = Bag::default();
        bag.refill(counts, start, groups);
        bag
    }

    /// Makes the bag hold `counts[t]` copies of each tile type `t`, less one copy of
    /// `start`, keeping its memory.
    pub(crate) fn refill(
        &mut self,
        counts: impl Iterator<Item = u16>,
        start: TileIndex,
        groups: &DrawGroups,
    ) {
        self.remaining.clear();
        self.remaining.extend(counts);
        if let Some(count) = self.remaining.get_mut(usize::from(start)) {
            *count = count.saturating_sub(1);
        }
        self.left.clear();
        self.left.resize(groups.members.len(), 0);
        for (tile, count) in self.remaining.iter().enumerate() {
            self.left[usize::from(groups.group_of[tile])] += u32::from(*count);
        }
        self.total = self.left.iter().sum();
    }

    pub(crate) fn total(&self) -> u32 {
        self.total
    }

    pub(crate) fn remaining(&self) -> &[u16] {
        &self.remaining
    }

    /// The draw group the next tile comes from.
    fn current(&self) -> Option<usize> {
        self.left.iter().position(|left| *left > 0)
    }

    /// Whether `tile` may be drawn now.
    pub(crate) fn check(&self, tile: TileIndex, groups: &DrawGroups) -> Result<(), Undrawable> {
        let index = usize::from(tile);
        let count = *self.remaining.get(index).ok_or(Undrawable::Unknown)?;
        if count == 0 {
            return Err(Undrawable::NoneLeft);
        }
        let group = usize::from(groups.group_of[index]);
        match self.current() {
            Some(current) if current == group => Ok(()),
            Some(current) if groups.key[current].0 == groups.key[group].0 => {
                if groups.key[current].1 == InStage::First {
                    Err(Undrawable::AfterFirst)
                } else {
                    Err(Undrawable::ComesLast)
                }
            }
            _ => Err(Undrawable::LaterStage),
        }
    }

    /// Draws a random tile from the current group; `None` when the bag is empty.
    pub(crate) fn draw(&mut self, rng: &mut Rng, groups: &DrawGroups) -> Option<TileIndex> {
        let group = self.current()?;
        let mut pick = rng.below(self.left[group]);
        for tile in groups.members[group].iter().copied() {
            let count = u32::from(self.remaining[usize::from(tile)]);
            if pick < count {
                self.take(tile, groups);
                return Some(tile);
            }
            pick -= count;
        }
        None
    }

    /// Removes one copy of `tile`, which must have one left.
    pub(crate) fn take(&mut self, tile: TileIndex, groups: &DrawGroups) {
        self.remaining[usize::from(tile)] -= 1;
        self.left[usize::from(groups.group_of[usize::from(tile)])] -= 1;
        self.total -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three types: a river tile, a lake that comes last in the river stage, a land tile.
    fn groups() -> DrawGroups {
        DrawGroups::new(&[-1, -1, 0], &[InStage::Shuffled, InStage::Last, InStage::Shuffled])
    }

    /// A fork that comes first in the river stage: before the river tiles and the lake, which
    /// say which is missing.
    #[test]
    fn first_tiles_come_before_the_rest_of_their_stage() {
        let place = [InStage::Shuffled, InStage::Last, InStage::Shuffled, InStage::First];
        let groups = DrawGroups::new(&[-1, -1, 0, -1], &place);
        let mut bag = Bag::new([2, 1, 3, 1].into_iter(), 2, &groups);
        assert_eq!(bag.check(0, &groups), Err(Undrawable::AfterFirst));
        assert_eq!(bag.check(1, &groups), Err(Undrawable::AfterFirst));
        assert_eq!(bag.check(2, &groups), Err(Undrawable::LaterStage));
        assert_eq!(bag.check(3, &groups), Ok(()));
        let drawn: Vec<TileIndex> =
            core::iter::from_fn(|| bag.draw(&mut Rng::new(5), &groups)).collect();
        assert_eq!(drawn, [3, 0, 0, 1, 2, 2]);
    }

    #[test]
    fn stages_and_last_tiles_come_in_order() {
        let groups = groups();
        let mut bag = Bag::new([2, 1, 3].into_iter(), 2, &groups);
        assert_eq!(bag.total(), 5);
        let mut rng = Rng::new(3);
        let drawn: Vec<TileIndex> = core::iter::from_fn(|| bag.draw(&mut rng, &groups)).collect();
        assert_eq!(drawn, [0, 0, 1, 2, 2]);
        assert_eq!(bag.total(), 0);
    }

    #[test]
    fn named_draws_follow_the_same_order() {
        let groups = groups();
        let bag = Bag::new([2, 1, 3].into_iter(), 2, &groups);
        assert_eq!(bag.check(0, &groups), Ok(()));
        assert_eq!(bag.check(1, &groups), Err(Undrawable::ComesLast));
        assert_eq!(bag.check(2, &groups), Err(Undrawable::LaterStage));
        assert_eq!(bag.check(3, &groups), Err(Undrawable::Unknown));
        let mut bag = Bag::new([0, 1, 3].into_iter(), 2, &groups);
        assert_eq!(bag.check(0, &groups), Err(Undrawable::NoneLeft));
        assert_eq!(bag.check(1, &groups), Ok(()));
        bag.take(1, &groups);
        assert_eq!(bag.check(2, &groups), Ok(()));
    }

    #[test]
    fn random_draws_cover_every_tile_of_the_group() {
        let groups = DrawGroups::new(&[0; 4], &[InStage::Shuffled; 4]);
        let mut seen = [0u32; 4];
        for seed in 0..400 {
            let mut bag = Bag::new([1, 1, 1, 1].into_iter(), 9, &groups);
            seen[usize::from(bag.draw(&mut Rng::new(seed), &groups).unwrap())] += 1;
        }
        assert!(seen.iter().all(|count| (60..140).contains(count)), "{seen:?}");
    }
}
