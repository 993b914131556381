//! The player colours: every name a tile set may give a seat, with the shade the pictures,
//! the server's page and every binding draw it in (the engine's one palette).

use std::ffi::{CString, c_char};
use std::ptr;
use std::sync::OnceLock;

use carcassonne::PALETTE;

use crate::boundary::{c_string, value_boundary};

/// The palette's names and shades as C strings, made once.
fn strings() -> &'static [(CString, CString)] {
    static STRINGS: OnceLock<Vec<(CString, CString)>> = OnceLock::new();
    STRINGS.get_or_init(|| {
        PALETTE.iter().map(|colour| (c_string(colour.name()), c_string(colour.shade()))).collect()
    })
}

/// How many colours the palette has (the built-in sets use the first six).
#[unsafe(no_mangle)]
pub extern "C" fn carc_palette_count() -> usize {
    value_boundary(0, || PALETTE.len())
}

/// The name of palette colour `index` (from 0, below `carc_palette_count()`), such as
/// `"red"`, as tile sets and `carc_catalog_colour` spell it; NULL past the end. The string
/// is static.
#[unsafe(no_mangle)]
pub extern "C" fn carc_palette_name(index: usize) -> *const c_char {
    value_boundary(ptr::null(), || {
        strings().get(index).map_or(ptr::null(), |(name, _)| name.as_ptr())
    })
}

/// The shade of palette colour `index` as CSS writes it, `"#rrggbb"` in lower case, such as
/// `"#d62828"` for red; NULL past the end. The string is static.
#[unsafe(no_mangle)]
pub extern "C" fn carc_palette_shade(index: usize) -> *const c_char {
    value_boundary(ptr::null(), || {
        strings().get(index).map_or(ptr::null(), |(_, shade)| shade.as_ptr())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn names_and_shades_are_the_engines() {
        assert_eq!(carc_palette_count(), PALETTE.len());
        for (index, colour) in PALETTE.iter().enumerate() {
            // SAFETY: both are static, NUL-terminated strings made by `strings`.
            let (name, shade) = unsafe {
                (
                    CStr::from_ptr(carc_palette_name(index)),
                    CStr::from_ptr(carc_palette_shade(index)),
                )
            };
            assert_eq!(name.to_str(), Ok(colour.name()));
            assert_eq!(shade.to_str(), Ok(colour.shade()));
        }
        assert!(carc_palette_name(PALETTE.len()).is_null());
        assert!(carc_palette_shade(usize::MAX).is_null());
    }
}
