//! What a name people see may hold (a player's, a room's, a bot's): at least one visible
//! character, and no character that changes how the text around it reads.
//!
//! The rule follows Unicode's guidance for identifiers people read (UAX #31 and UTS #39): a
//! name may not carry the bidirectional controls (UAX #9: the embeddings, overrides and
//! isolates, and the marks LRM, RLM and ALM), which reorder the text beside it ("tsoh —
//! yrollam" for `U+202E mallory — host`), nor Default_Ignorable_Code_Point characters other
//! than those scripts and emoji need (ZWNJ, ZWJ, variation selectors): they draw nothing, so
//! they make two names look alike or a name look empty. Some characters are not default
//! ignorable and still draw nothing (U+2800 BRAILLE PATTERN BLANK, U+3164 HANGUL FILLER among
//! the fillers); they may stand in a name, but they do not count as visible, nor do spaces,
//! controls and combining marks on their own.

/// Why a name was refused, in words for the refusal's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameProblem {
    /// A bidirectional control character, with its code point.
    Bidi(char),
    /// An invisible formatting character (default ignorable), with its code point.
    Invisible(char),
    /// Nothing in it would be seen.
    NothingVisible,
}

impl core::fmt::Display for NameProblem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NameProblem::Bidi(c) => write!(
                f,
                "may not hold U+{:04X}, a bidirectional control that reorders the text around it",
                u32::from(*c)
            ),
            NameProblem::Invisible(c) => {
                write!(f, "may not hold U+{:04X}, a character that draws nothing", u32::from(*c))
            }
            NameProblem::NothingVisible => write!(f, "needs at least one visible character"),
        }
    }
}

/// Checks a name against the rule of this module.
///
/// ```
/// use carcassonne_rooms::protocol::names::{NameProblem, check};
/// assert_eq!(check("Ann"), Ok(()));
/// assert_eq!(check("אנה 7"), Ok(()));
/// assert_eq!(check("👩‍🚀"), Ok(()));
/// assert_eq!(check("\u{202E}mallory"), Err(NameProblem::Bidi('\u{202E}')));
/// assert_eq!(check("\u{200B}\u{200B}"), Err(NameProblem::Invisible('\u{200B}')));
/// assert_eq!(check("\u{2800}\u{2800}"), Err(NameProblem::NothingVisible));
/// ```
///
/// # Errors
/// The first problem found.
pub fn check(name: &str) -> Result<(), NameProblem> {
    let mut visible = false;
    for c in name.chars() {
        if is_bidi_control(c) {
            return Err(NameProblem::Bidi(c));
        }
        if is_default_ignorable(c) && !is_needed_joiner(c) {
            return Err(NameProblem::Invisible(c));
        }
        visible |= draws_something(c);
    }
    if visible { Ok(()) } else { Err(NameProblem::NothingVisible) }
}

/// The bidirectional formatting characters of UAX #9 (Bidi_Control).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Default_Ignorable_Code_Point, from the Unicode Character Database's
/// DerivedCoreProperties.txt (version 15.1; the property is stable: code points are only ever
/// added to it from unassigned ones).
fn is_default_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// The default-ignorable characters a name may need: ZWNJ and ZWJ (Persian and Indic words,
/// emoji sequences) and the variation selectors (emoji presentation). UTS #39 allows them in
/// identifiers where a script needs them; they never make a name that shows nothing visible
/// on its own, since they do not count as visible.
fn is_needed_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}' | '\u{FE00}'..='\u{FE0F}')
}

/// Whether `c` draws something on its own: not a space, a control, a default-ignorable
/// character, a combining mark of the common blocks, or a blank that is none of these.
fn draws_something(c: char) -> bool {
    !(c.is_whitespace()
        || c.is_control()
        || is_default_ignorable(c)
        || matches!(
            c,
            // A blank that is a symbol, not default ignorable: Braille's empty pattern (the
            // Hangul fillers and Khmer's blank vowels are default ignorable, above).
            '\u{2800}'
            // Combining marks, which need a base to show on.
            | '\u{0300}'..='\u{036F}'
            | '\u{0483}'..='\u{0489}'
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}'
            | '\u{FE20}'..='\u{FE2F}'
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name the second security review tried, refused; names in other scripts and with
    /// emoji, kept.
    #[test]
    fn the_reviews_invisible_and_bidi_names_are_refused() {
        for name in [
            "\u{200B}",
            "\u{00AD}\u{00AD}",
            "\u{FEFF}",
            "\u{3164}",
            "\u{2800}\u{2800}",
            "\u{E0041}\u{E0042}",
            " \u{0301}",
            "\u{202E}mallory",
            "host\u{202D}",
            "\u{2067}x",
            "a\u{200F}b",
        ] {
            assert!(check(name).is_err(), "{name:?} was accepted");
        }
        for name in ["Ann", "José", "محمد", "אנה 7", "李雷", "👨‍👩‍👧", "❤️", "می‌خواهم", "a b"]
        {
            assert_eq!(check(name), Ok(()), "{name:?}");
        }
        assert_eq!(check("\u{2800}a"), Ok(()), "a blank beside a visible character may stay");
    }
}
