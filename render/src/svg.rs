//! Writing SVG text: numbers, escapes, captions.

use std::fmt::{self, Write as _};

/// Appends formatted text to the document.
pub(crate) fn push(out: &mut String, args: fmt::Arguments<'_>) {
    // Formatting into a `String` never fails; the `Result` exists only for other writers.
    let _ = out.write_fmt(args);
}

/// A coordinate for the document: one decimal is finer than a pixel, and fewer digits keep
/// the sheet small and byte-for-byte stable.
pub(crate) fn num(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    // Rounding can give -0, which would print as "-0".
    if rounded == 0.0 { String::from("0") } else { format!("{rounded}") }
}

/// `text` with the characters that XML gives a meaning replaced by entities.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// `name`, cut to at most `max` characters with an ellipsis when it is longer.
pub(crate) fn truncate(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return String::from(name);
    }
    let mut short: String = name.chars().take(max.saturating_sub(1)).collect();
    short.truncate(short.trim_end().len());
    short.push('\u{2026}');
    short
}

/// Opens an SVG document of `width` by `height` pixels, its text in a sans-serif face.
pub(crate) fn open_document(out: &mut String, width: f64, height: f64) {
    push(
        out,
        format_args!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n",
            w = num(width),
            h = num(height)
        ),
    );
}
