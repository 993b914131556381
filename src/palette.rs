//! Player colours: every name a tile set may give a seat, with the one shade that pictures,
//! pages and bindings draw it in.

/// A player colour: the name tile sets and messages use, and its shade.
///
/// ```
/// let red = carcassonne::Colour::named("red").unwrap();
/// assert_eq!(red.shade(), "#d62828");
/// assert_eq!(red.rgb(), [0xd6, 0x28, 0x28]);
/// assert!(carcassonne::Colour::named("gray").is_none(), "the palette spells it grey");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour {
    name: &'static str,
    shade: &'static str,
}

impl Colour {
    /// The colour called `name` in the palette (exact, lower-case), if there is one.
    #[must_use]
    pub fn named(name: &str) -> Option<Colour> {
        PALETTE.iter().copied().find(|colour| colour.name == name)
    }

    /// The colour's name, as tile sets, saved games and the server's messages spell it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The colour's shade as CSS writes it: `#rrggbb`, lower-case.
    #[must_use]
    pub const fn shade(self) -> &'static str {
        self.shade
    }

    /// The shade's red, green and blue components.
    #[must_use]
    pub fn rgb(self) -> [u8; 3] {
        let digits = self.shade.as_bytes();
        let byte = |at: usize| (hex_digit(digits[at]) << 4) | hex_digit(digits[at + 1]);
        [byte(1), byte(3), byte(5)]
    }
}

const fn hex_digit(digit: u8) -> u8 {
    match digit {
        b'0'..=b'9' => digit - b'0',
        b'a'..=b'f' => digit - b'a' + 10,
        _ => 0,
    }
}

/// Every player colour there is. The built-in sets bring the first six, in this order (the
/// base game's red, green, blue, yellow and black, then Inns & Cathedrals' grey); the others
/// are the later boxes' colours, for sets that bring them.
pub const PALETTE: [Colour; 10] = [
    Colour { name: "red", shade: "#d62828" },
    Colour { name: "green", shade: "#2a9d3f" },
    Colour { name: "blue", shade: "#1f5fbf" },
    Colour { name: "yellow", shade: "#f2c12e" },
    Colour { name: "black", shade: "#222222" },
    Colour { name: "grey", shade: "#8a8a8a" },
    Colour { name: "pink", shade: "#e85fa6" },
    Colour { name: "purple", shade: "#7b3fb0" },
    Colour { name: "orange", shade: "#ef7d1a" },
    Colour { name: "white", shade: "#f4f4f4" },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_shades_are_css_hex() {
        for (index, colour) in PALETTE.iter().enumerate() {
            assert!(PALETTE[..index].iter().all(|other| other.name != colour.name));
            let shade = colour.shade.as_bytes();
            assert_eq!(shade.len(), 7);
            assert_eq!(shade[0], b'#');
            assert!(shade[1..].iter().all(|digit| matches!(digit, b'0'..=b'9' | b'a'..=b'f')));
        }
        assert_eq!(Colour::named("grey").map(Colour::rgb), Some([0x8a, 0x8a, 0x8a]));
    }

    #[test]
    #[cfg_attr(miri, ignore = "parses every built-in set (90 s); other tests parse under Miri")]
    fn the_built_in_sets_name_only_palette_colours() {
        for name in crate::BUILTIN_NAMES {
            let catalog = crate::Catalog::builtin(name).unwrap();
            for colour in &catalog.figures().colours {
                assert!(Colour::named(colour).is_some(), "{name} brings {colour}");
            }
        }
    }
}
