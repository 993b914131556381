//! One implementation of the engine's small sets: directions, half-edges, rotations, players,
//! marks, segment kinds and segments are each a bit mask over their members' numbers, with
//! the same operations and the same rule for numbers past the set's capacity.

/// Defines a set type over `$member`, stored in `$repr`, with `$cap` possible members
/// numbered by `$index` (a `const` expression of `$m`) and rebuilt by `$from` (a `const`
/// expression of the number `$n`). Every set has the same operations:
///
/// - `EMPTY`, `contains`, `with`, `without`, `union`, `len`, `is_empty`, `bits`,
///   `from_bits` (bits past the capacity dropped), and `iter` in increasing number (one step
///   per member, as scoring walks sets in hot loops), plus `FromIterator`.
/// - A member numbered past the capacity is never in a set: `contains` says no and `with`
///   leaves the set as it was (the members' own types make such numbers impossible except
///   for plain numbers like a segment index).
macro_rules! bit_set {
    (
        $(#[$meta:meta])*
        $name:ident($repr:ty) of $member:ty, capacity $cap:expr,
        index |$m:ident| $index:expr,
        member |$n:ident| $from:expr $(,)?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name($repr);

        impl $name {
            /// The empty set.
            pub const EMPTY: $name = $name(0);

            /// How many members a set of this kind can hold.
            pub const CAPACITY: usize = $cap;

            /// All bits of the members a set of this kind can hold.
            const ALL_BITS: $repr = if $cap >= <$repr>::BITS as usize {
                <$repr>::MAX
            } else {
                ((1 as $repr) << $cap) - 1
            };

            /// The number of `member`, or `None` past the capacity.
            const fn number($m: $member) -> Option<u32> {
                let index = $index;
                if index < $cap { Some(index as u32) } else { None }
            }

            /// The set whose bit `n` stands for the member numbered `n`; bits past the
            /// capacity are dropped.
            #[must_use]
            pub const fn from_bits(bits: $repr) -> $name {
                $name(bits & Self::ALL_BITS)
            }

            /// The bit mask: bit `n` stands for the member numbered `n`.
            #[must_use]
            pub const fn bits(self) -> $repr {
                self.0
            }

            /// Whether `member` is in the set.
            #[must_use]
            pub const fn contains(self, member: $member) -> bool {
                match Self::number(member) {
                    Some(bit) => self.0 & ((1 as $repr) << bit) != 0,
                    None => false,
                }
            }

            /// The set with `member` added; a member past the capacity is ignored.
            #[must_use]
            pub const fn with(self, member: $member) -> $name {
                match Self::number(member) {
                    Some(bit) => $name(self.0 | ((1 as $repr) << bit)),
                    None => self,
                }
            }

            /// The set without `member`.
            #[must_use]
            pub const fn without(self, member: $member) -> $name {
                match Self::number(member) {
                    Some(bit) => $name(self.0 & !((1 as $repr) << bit)),
                    None => self,
                }
            }

            /// Every member of either set.
            #[must_use]
            pub const fn union(self, other: $name) -> $name {
                $name(self.0 | other.0)
            }

            /// Whether every member of `other` is in this set.
            #[must_use]
            pub const fn contains_all(self, other: $name) -> bool {
                self.0 & other.0 == other.0
            }

            /// How many members the set holds.
            #[must_use]
            pub const fn len(self) -> usize {
                // Counting a byte's bits takes a dozen instructions without a popcount
                // instruction (the baseline x86-64 target has none), and the placement loops
                // count rotations for every frontier cell: a byte is counted by looking up
                // each half in a 16-entry table of 4-bit counts held in one register.
                if <$repr>::BITS == 8 {
                    $crate::bits::BYTE_COUNTS[(self.0 as usize) & 0xff] as usize
                } else {
                    self.0.count_ones() as usize
                }
            }

            /// Whether the set is empty.
            #[must_use]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// The members, in increasing number.
            pub fn iter(self) -> impl Iterator<Item = $member> {
                let mut bits = self.0;
                core::iter::from_fn(move || {
                    if bits == 0 {
                        return None;
                    }
                    let $n = bits.trailing_zeros() as usize;
                    bits &= bits.wrapping_sub(1);
                    Some($from)
                })
            }
        }

        impl FromIterator<$member> for $name {
            fn from_iter<I: IntoIterator<Item = $member>>(iter: I) -> $name {
                iter.into_iter().fold($name::EMPTY, $name::with)
            }
        }
    };
}

pub(crate) use bit_set;

/// How many bits each byte has set.
pub(crate) const BYTE_COUNTS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u8).count_ones() as u8;
        byte += 1;
    }
    table
};

/// A set of up to 256 numbers, as two 128-bit words: a tile's deployments, a bit for each
/// segment and kind of figure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct WideBits([u128; 2]);

impl WideBits {
    /// The empty set.
    pub(crate) const EMPTY: WideBits = WideBits([0; 2]);

    /// The set with `bit` added (below 256).
    #[must_use]
    pub(crate) fn with(mut self, bit: usize) -> WideBits {
        self.0[bit / 128] |= 1 << (bit % 128);
        self
    }

    /// The set with the bits of `byte` added at `8 × group`.
    #[must_use]
    pub(crate) fn with_byte(mut self, group: usize, byte: u8) -> WideBits {
        let bit = 8 * group;
        self.0[bit / 128] |= u128::from(byte) << (bit % 128);
        self
    }

    /// How many numbers the set holds.
    pub(crate) const fn len(self) -> usize {
        (self.0[0].count_ones() + self.0[1].count_ones()) as usize
    }

    /// The `index`-th number in increasing order, if the set holds that many.
    pub(crate) fn nth(self, index: usize) -> Option<usize> {
        let low = self.0[0].count_ones() as usize;
        let (mut word, offset, mut skip) =
            if index < low { (self.0[0], 0, index) } else { (self.0[1], 128, index - low) };
        while skip > 0 && word != 0 {
            word &= word - 1;
            skip -= 1;
        }
        (word != 0).then(|| offset + word.trailing_zeros() as usize)
    }

    /// The numbers, in increasing order.
    pub(crate) fn iter(self) -> impl Iterator<Item = usize> {
        let mut words = self.0;
        core::iter::from_fn(move || {
            let half = usize::from(words[0] == 0);
            let word = &mut words[half];
            if *word == 0 {
                return None;
            }
            let bit = word.trailing_zeros() as usize;
            *word &= *word - 1;
            Some(128 * half + bit)
        })
    }
}

#[cfg(test)]
mod wide_tests {
    use super::WideBits;

    #[test]
    fn wide_sets_list_their_numbers_in_order() {
        let set = WideBits::EMPTY.with(3).with(200).with(127).with(128).with_byte(2, 0b101);
        let listed: alloc::vec::Vec<usize> = set.iter().collect();
        assert_eq!(listed, [3, 16, 18, 127, 128, 200]);
        assert_eq!(set.len(), 6);
        for (index, bit) in listed.iter().enumerate() {
            assert_eq!(set.nth(index), Some(*bit));
        }
        assert_eq!(set.nth(6), None);
        assert_eq!(WideBits::EMPTY.len(), 0);
    }
}
