//! Every limit the library sets on input from outside, in one place, so a host that reads
//! files or messages from strangers knows how much memory and time one can cost.
//!
//! Breaking a limit is always an error that names it, never a panic or a truncation:
//! tile-set files get a diagnostic, setups a [`SetupError`](crate::SetupError), placements a
//! [`PlacementError`](crate::PlacementError). The JSON size limit is for front ends that
//! read JSON (the C API and the command-line tool check it before parsing), since a serde
//! `Deserialize` never sees the size of its input.

pub use crate::board::MAX_COORDINATE;
pub use crate::dsl::limits::{
    MAX_COLOUR, MAX_COLOURS, MAX_COPIES, MAX_FIGURES, MAX_FILE_BYTES, MAX_ID, MAX_LABEL,
    MAX_MESSAGE, MAX_NAME, MAX_STAGE, MAX_TILE_TYPES, MAX_TILES,
};
pub use crate::player::MAX_PLAYERS;

/// The most tiles a board holds: every cell is numbered with a `u16`. A landscape with more
/// is refused with [`PlacementError::BoardFull`](crate::PlacementError::BoardFull).
pub const MAX_BOARD_TILES: usize = 1 << 16;

/// The most tiles one game may bring, counting every copy of every set: no more than a board
/// holds. More is [`SetupError::TooManyTiles`](crate::SetupError::TooManyTiles).
pub const MAX_GAME_TILES: u64 = MAX_BOARD_TILES as u64;

/// The largest JSON text (a setup, a saved game, a landscape) the C API and the command-line
/// tool read: 64 MiB. A saved game of every built-in set is a few hundred kilobytes; this
/// leaves room for dozens of user tile sets written inline, each at most
/// [`MAX_FILE_BYTES`].
pub const MAX_JSON_BYTES: usize = 64 << 20;

/// The deepest JSON nesting serde_json reads: 127 levels, the 128th is an error ("recursion
/// limit exceeded"), not a stack overflow. Every form the library reads is typed and nests at
/// most 5 levels, so a deeper document is refused at its first value of the wrong shape,
/// long before this.
pub const MAX_JSON_DEPTH: usize = 127;

/// The longest error message a front end needs to pass on, in characters: every message the
/// library makes is shorter (a tile set's [`MAX_DIAGNOSTICS`](crate::dsl::MAX_DIAGNOSTICS)
/// diagnostics at their longest come to about 85,000), but serde_json's errors quote a
/// stranger's key or value whole; the C API and the command-line tool cut them to this with
/// [`shorten`].
pub const MAX_ERROR_MESSAGE: usize = 1 << 17;

/// `text` cut to at most `max` characters (at least 1), ending in `…` when it was longer;
/// reads at most `max` characters of it. The library cuts file labels, diagnostic messages
/// and quoted names with it; front ends, the messages they quote from strangers (serde_json's
/// errors quote unknown keys whole).
///
/// ```
/// use carcassonne::limits::shorten;
/// assert_eq!(shorten("carcassonne", 5), "carc…");
/// assert_eq!(shorten("base", 5), "base");
/// ```
#[must_use]
pub fn shorten(text: &str, max: usize) -> alloc::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => alloc::borrow::Cow::Borrowed(text),
        Some(_) => {
            let keep = text.char_indices().nth(max.max(1) - 1).map_or(0, |(at, _)| at);
            alloc::borrow::Cow::Owned(alloc::format!("{}…", &text[..keep]))
        }
    }
}

/// `value` as text, cut to at most `max` characters (at least 1), ending in `…` when it was
/// longer; never holds more than that: for an error whose message quotes a stranger's text
/// whole (serde_json's `unknown field` quotes the key), where `to_string` would copy it.
///
/// ```
/// use carcassonne::limits::shortened_display;
/// assert_eq!(shortened_display(&format_args!("{}", "x".repeat(100)), 4), "xxx…");
/// ```
#[must_use]
pub fn shortened_display(value: &impl core::fmt::Display, max: usize) -> alloc::string::String {
    use core::fmt::Write;

    /// Keeps the first `left` characters written to it, and whether more came.
    struct Capped {
        text: alloc::string::String,
        left: usize,
        cut: bool,
    }

    impl Write for Capped {
        fn write_str(&mut self, part: &str) -> core::fmt::Result {
            for c in part.chars() {
                if self.left == 0 {
                    self.cut = true;
                    return Err(core::fmt::Error);
                }
                self.text.push(c);
                self.left -= 1;
            }
            Ok(())
        }
    }

    let mut capped = Capped { text: alloc::string::String::new(), left: max.max(1), cut: false };
    // An error means only that the text was cut.
    let _ = write!(capped, "{value}");
    if capped.cut {
        capped.text.pop();
        capped.text.push('…');
    }
    capped.text
}

/// The text `reader` gives, or `None` when that is more than `max` bytes. It reads at most
/// `max + 1` bytes, so a pipe, a device such as `/dev/zero` or a file that grows while it is
/// read costs no more than that. The library reads tile set files with it; front ends, JSON
/// from files or standard input under [`MAX_JSON_BYTES`].
///
/// ```
/// use carcassonne::limits::read_text_at_most;
/// assert_eq!(read_text_at_most(&b"{}"[..], 2)?.as_deref(), Some("{}"));
/// assert_eq!(read_text_at_most(std::io::repeat(b' '), 1 << 20)?, None);
/// let error = read_text_at_most(&b"\xff"[..], 2).unwrap_err();
/// assert_eq!(error.to_string(), "the text is not UTF-8 (at byte 0)");
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// What the reader reports, and text that is not UTF-8 as [`std::io::ErrorKind::InvalidData`].
#[cfg(feature = "std")]
pub fn read_text_at_most(
    reader: impl std::io::Read,
    max: usize,
) -> std::io::Result<Option<alloc::string::String>> {
    use std::io::Read;

    let mut bytes = alloc::vec::Vec::new();
    reader.take(max as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > max {
        return Ok(None);
    }
    alloc::string::String::from_utf8(bytes).map(Some).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        let why = alloc::format!("the text is not UTF-8 (at byte {at})");
        std::io::Error::new(std::io::ErrorKind::InvalidData, why)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn a_board_numbers_as_many_cells_as_it_holds_tiles() {
        assert_eq!(MAX_BOARD_TILES, usize::from(u16::MAX) + 1);
        const { assert!(MAX_GAME_TILES >= MAX_TILES) };
        const { assert!(MAX_JSON_BYTES >= 16 * MAX_FILE_BYTES) };
        // Every diagnostic of a file, at its longest, with its code and position, fits.
        let diagnostic = MAX_LABEL + MAX_MESSAGE + 64;
        assert!(MAX_ERROR_MESSAGE > (crate::dsl::MAX_DIAGNOSTICS + 1) * diagnostic);
    }

    #[test]
    fn long_texts_are_cut_to_their_limit_with_an_ellipsis() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcd", 3), "ab…");
        assert_eq!(shorten("ééééé", 4).chars().count(), 4);
        assert_eq!(shorten("", 1), "");
        assert_eq!(shorten("ab", 1), "…");
    }

    /// The documented depth is serde_json's: an untyped read takes 127 levels and refuses
    /// the 128th. (A typed read refuses far sooner, at the first value of the wrong shape.)
    #[test]
    fn json_nests_at_most_max_json_depth_levels() {
        let nested = |depth| "[".repeat(depth) + &"]".repeat(depth);
        assert!(serde_json::from_str::<serde_json::Value>(&nested(MAX_JSON_DEPTH)).is_ok());
        let error = serde_json::from_str::<serde_json::Value>(&nested(MAX_JSON_DEPTH + 1));
        assert!(error.unwrap_err().to_string().contains("recursion limit exceeded"));
        let error = serde_json::from_str::<crate::Game>(&nested(MAX_JSON_DEPTH + 1));
        assert!(error.unwrap_err().to_string().contains("invalid type: sequence"));
    }
}
