//! Diagnostics: what is wrong in a tile set file, where, under a stable code.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

use super::limits::{MAX_LABEL, MAX_MESSAGE};
use crate::limits::shorten;

/// The stable code of a tile set problem. Codes are never renamed or reused, so tools may
/// match on them; [`Code::number`] gives the same code as a number for the C API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Code {
    /// The text is not valid TOML.
    Syntax,
    /// The file exceeds a size or count limit.
    TooLarge,
    /// A table has a key the format does not know.
    UnknownKey,
    /// A required key is absent.
    MissingKey,
    /// A value has the wrong TOML type.
    WrongType,
    /// An id is empty, too long or uses characters outside its alphabet.
    InvalidId,
    /// A string is empty or too long.
    InvalidString,
    /// A number is outside its allowed range.
    OutOfRange,
    /// Two tiles share an id.
    DuplicateTileId,
    /// An edge name is not `N`, `E`, `S` or `W`.
    UnknownEdge,
    /// A half-edge name is not one of the eight.
    UnknownHalfEdge,
    /// An edge kind is not `city`, `road`, `field` or `river`.
    UnknownEdgeKind,
    /// A segment kind is not one the format knows.
    UnknownSegmentKind,
    /// A segment or rule names a mark the set does not declare.
    UnknownMark,
    /// A mark stands on a segment kind it does not belong to.
    MarkOnWrongKind,
    /// A list names the same thing twice.
    Duplicate,
    /// A segment has a key its kind does not take.
    KeyNotAllowed,
    /// A city, road or river segment lists no edge.
    EmptySegment,
    /// A segment lists an edge whose declared kind differs from the segment's.
    EdgeKindMismatch,
    /// A city, road or river edge belongs to no segment.
    EdgeUncovered,
    /// An edge belongs to more than one segment.
    EdgeCoveredTwice,
    /// A half-edge of a field, road or river edge belongs to no field.
    HalfEdgeUncovered,
    /// A half-edge belongs to more than one field.
    HalfEdgeCoveredTwice,
    /// A field touches a half-edge of a city edge.
    FieldOnCityEdge,
    /// A field's `cities` names an edge that no city segment of the tile reaches.
    UnknownCity,
    /// A deck rule names a tile the set does not have.
    UnknownTile,
    /// Too many problems to list them all; the rest were dropped.
    TooManyErrors,
    /// A colour is not one of the palette's ([`PALETTE`](crate::PALETTE)).
    UnknownColour,
    /// A rule tests a game option the engine does not have, or a value it cannot take.
    UnknownOption,
    /// A mark's glyph is not one pictures know ([`Glyph`](crate::Glyph)).
    UnknownGlyph,
    /// Two marks, or two rules, share an id.
    DuplicateId,
    /// A value is not one of those its key allows (a mark's `merge`, a rule's `state` or
    /// `feature`).
    UnknownValue,
    /// A declaration can never do anything: a rule naming a mark its feature cannot carry, a
    /// token kind or title worth nothing.
    NeverApplies,
    /// A declared mark that no tile of the set carries and no declaration names.
    UnusedMark,
    /// Two sets loaded together cannot share one game (`tileset check A B`): a mark, rule,
    /// token or title declared differently, two rules of equal standing, too many of a kind.
    SetsClash,
}

impl Code {
    /// Every code, in the order of their numbers.
    pub const ALL: [Code; 35] = [
        Code::Syntax,
        Code::TooLarge,
        Code::UnknownKey,
        Code::MissingKey,
        Code::WrongType,
        Code::InvalidId,
        Code::InvalidString,
        Code::OutOfRange,
        Code::DuplicateTileId,
        Code::UnknownEdge,
        Code::UnknownHalfEdge,
        Code::UnknownEdgeKind,
        Code::UnknownSegmentKind,
        Code::UnknownMark,
        Code::MarkOnWrongKind,
        Code::Duplicate,
        Code::KeyNotAllowed,
        Code::EmptySegment,
        Code::EdgeKindMismatch,
        Code::EdgeUncovered,
        Code::EdgeCoveredTwice,
        Code::HalfEdgeUncovered,
        Code::HalfEdgeCoveredTwice,
        Code::FieldOnCityEdge,
        Code::UnknownCity,
        Code::UnknownTile,
        Code::TooManyErrors,
        Code::UnknownColour,
        Code::UnknownOption,
        Code::UnknownGlyph,
        Code::DuplicateId,
        Code::UnknownValue,
        Code::NeverApplies,
        Code::UnusedMark,
        Code::SetsClash,
    ];

    /// The code as printed in brackets, such as `dsl-unknown-half-edge`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "dsl-syntax",
            Code::TooLarge => "dsl-too-large",
            Code::UnknownKey => "dsl-unknown-key",
            Code::MissingKey => "dsl-missing-key",
            Code::WrongType => "dsl-wrong-type",
            Code::InvalidId => "dsl-invalid-id",
            Code::InvalidString => "dsl-invalid-string",
            Code::OutOfRange => "dsl-out-of-range",
            Code::DuplicateTileId => "dsl-duplicate-tile-id",
            Code::UnknownEdge => "dsl-unknown-edge",
            Code::UnknownHalfEdge => "dsl-unknown-half-edge",
            Code::UnknownEdgeKind => "dsl-unknown-edge-kind",
            Code::UnknownSegmentKind => "dsl-unknown-segment-kind",
            Code::UnknownMark => "dsl-unknown-mark",
            Code::MarkOnWrongKind => "dsl-mark-on-wrong-kind",
            Code::Duplicate => "dsl-duplicate",
            Code::KeyNotAllowed => "dsl-key-not-allowed",
            Code::EmptySegment => "dsl-empty-segment",
            Code::EdgeKindMismatch => "dsl-edge-kind-mismatch",
            Code::EdgeUncovered => "dsl-edge-uncovered",
            Code::EdgeCoveredTwice => "dsl-edge-covered-twice",
            Code::HalfEdgeUncovered => "dsl-half-edge-uncovered",
            Code::HalfEdgeCoveredTwice => "dsl-half-edge-covered-twice",
            Code::FieldOnCityEdge => "dsl-field-on-city-edge",
            Code::UnknownCity => "dsl-unknown-city",
            Code::UnknownTile => "dsl-unknown-tile",
            Code::TooManyErrors => "dsl-too-many-errors",
            Code::UnknownColour => "dsl-unknown-colour",
            Code::UnknownOption => "dsl-unknown-option",
            Code::UnknownGlyph => "dsl-unknown-glyph",
            Code::DuplicateId => "dsl-duplicate-id",
            Code::UnknownValue => "dsl-unknown-value",
            Code::NeverApplies => "dsl-never-applies",
            Code::UnusedMark => "dsl-unused-mark",
            Code::SetsClash => "dsl-sets-clash",
        }
    }

    /// The code as a stable number (1 for `dsl-syntax` upwards), for callers across the C ABI.
    #[must_use]
    pub fn number(self) -> u32 {
        let position = Code::ALL.iter().position(|code| *code == self).unwrap_or(0);
        // 35 codes: the conversion cannot truncate.
        position as u32 + 1
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem in a tile set file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// What kind of problem it is.
    pub code: Code,
    /// The file (or source name) the problem is in, at most
    /// [`MAX_LABEL`](super::limits::MAX_LABEL) characters; every diagnostic of one file
    /// shares it.
    pub file: Arc<str>,
    /// The 1-based line of the problem's start.
    pub line: u32,
    /// The 1-based column, in characters, of the problem's start.
    pub column: u32,
    /// The byte range of the offending text in the source.
    pub span: Range<usize>,
    /// A plain description, lower case, without a trailing period, at most
    /// [`MAX_MESSAGE`](super::limits::MAX_MESSAGE) characters.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "error[{}]: {}:{}:{}: {}",
            self.code, self.file, self.line, self.column, self.message
        )
    }
}

/// Every problem found in one tile set file, in the order of their position in the file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The problems, in file order.
    pub fn iter(&self) -> core::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    /// How many problems there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many problems the file has: every one listed, and when there were more than
    /// [`MAX_DIAGNOSTICS`], those the last entry (`dsl-too-many-errors`) counts instead of
    /// listing. [`Diagnostics::len`] counts entries.
    #[must_use]
    pub fn problems(&self) -> usize {
        self.0
            .iter()
            .map(|diagnostic| match diagnostic.code {
                Code::TooManyErrors => diagnostic
                    .message
                    .split(' ')
                    .next()
                    .and_then(|count| count.parse().ok())
                    .unwrap_or(0),
                _ => 1,
            })
            .sum()
    }
}

impl fmt::Display for Diagnostics {
    /// One diagnostic per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, diagnostic) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{diagnostic}")?;
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = core::slice::Iter<'a, Diagnostic>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// The most problems reported for one file; a hostile file cannot make the report huge.
pub const MAX_DIAGNOSTICS: usize = 100;

/// A problem found while reading, located by byte span until the line index resolves it.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    pub(crate) code: Code,
    pub(crate) span: Range<usize>,
    pub(crate) message: String,
}

/// Collects problems, capped at [`MAX_DIAGNOSTICS`].
#[derive(Default)]
pub(crate) struct Problems {
    list: Vec<Problem>,
    dropped: usize,
}

impl Problems {
    pub(crate) fn report(&mut self, code: Code, span: Range<usize>, mut message: String) {
        if self.list.len() < MAX_DIAGNOSTICS {
            if let alloc::borrow::Cow::Owned(short) = shorten(&message, MAX_MESSAGE) {
                message = short;
            }
            self.list.push(Problem { code, span, message });
        } else {
            self.dropped += 1;
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// How many problems have been reported so far, dropped ones included.
    pub(crate) fn reported(&self) -> usize {
        self.list.len() + self.dropped
    }

    /// Resolves spans to lines and columns of `text` and sorts the problems by position.
    pub(crate) fn into_diagnostics(mut self, file: &str, text: &str) -> Diagnostics {
        self.list.sort_by_key(|problem| problem.span.start);
        if self.dropped > 0 {
            let end = text.len();
            self.list.push(Problem {
                code: Code::TooManyErrors,
                span: end..end,
                message: alloc::format!(
                    "{} more problems not shown; fix the ones above first",
                    self.dropped
                ),
            });
        }
        let lines = LineIndex::new(text);
        let file: Arc<str> = Arc::from(shorten(file, MAX_LABEL).as_ref());
        Diagnostics(
            self.list
                .into_iter()
                .map(|problem| {
                    let (line, column) = lines.locate(text, problem.span.start);
                    Diagnostic {
                        code: problem.code,
                        file: Arc::clone(&file),
                        line,
                        column,
                        span: problem.span,
                        message: problem.message,
                    }
                })
                .collect(),
        )
    }
}

/// Byte offsets of line starts, to turn a byte offset into a line and a column.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let mut starts = alloc::vec![0];
        starts.extend(text.match_indices('\n').map(|(at, _)| at + 1));
        LineIndex { starts }
    }

    /// The 1-based line and character column of byte `offset`, clamped to the text.
    fn locate(&self, text: &str, offset: usize) -> (u32, u32) {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|start| *start <= offset) - 1;
        let column = text[self.starts[line]..offset].chars().count() + 1;
        (saturate(line + 1), saturate(column))
    }
}

/// The 1-based line of byte `offset` in `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> u32 {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    saturate(before.matches('\n').count() + 1)
}

fn saturate(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based_in_characters() {
        let text = "ab\nçd = 1\n";
        let lines = LineIndex::new(text);
        assert_eq!(lines.locate(text, 0), (1, 1));
        assert_eq!(lines.locate(text, 3), (2, 1));
        // 'ç' is two bytes but one column.
        assert_eq!(lines.locate(text, 5), (2, 2));
        assert_eq!(lines.locate(text, 4), (2, 1), "mid-character offsets step back");
        assert_eq!(lines.locate(text, 999), (3, 1));
    }

    #[test]
    fn codes_have_distinct_names_and_numbers() {
        for (i, a) in Code::ALL.iter().enumerate() {
            assert_eq!(a.number() as usize, i + 1);
            for b in &Code::ALL[i + 1..] {
                assert_ne!(a.as_str(), b.as_str());
            }
        }
    }

    #[test]
    fn every_diagnostic_shares_one_short_file_name_and_messages_are_bounded() {
        let mut problems = Problems::default();
        problems.report(Code::Syntax, 0..0, "x".repeat(10 * MAX_MESSAGE));
        problems.report(Code::Syntax, 1..1, String::from("short"));
        let long_name = "n".repeat(4 * MAX_LABEL);
        let diagnostics = problems.into_diagnostics(&long_name, "ab");
        let [first, second] = &diagnostics.0[..] else { panic!("{diagnostics:?}") };
        assert!(Arc::ptr_eq(&first.file, &second.file));
        assert_eq!(first.file.chars().count(), MAX_LABEL);
        assert!(first.file.ends_with('…'));
        assert_eq!(first.message.chars().count(), MAX_MESSAGE);
        assert_eq!(second.message, "short");
    }

    #[test]
    fn problems_are_capped() {
        let mut problems = Problems::default();
        for i in 0..MAX_DIAGNOSTICS + 5 {
            problems.report(Code::Syntax, i..i, String::from("x"));
        }
        let diagnostics = problems.into_diagnostics("f.toml", "");
        assert_eq!(diagnostics.len(), MAX_DIAGNOSTICS + 1);
        assert_eq!(diagnostics.0.last().unwrap().code, Code::TooManyErrors);
        assert_eq!(diagnostics.problems(), MAX_DIAGNOSTICS + 5);
    }
}
