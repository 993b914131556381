//! Versions: of the ABI this header describes, and of the library behind it.

use std::ffi::c_char;

use crate::boundary::value_boundary;

/// The ABI's major version: it changes when a declaration in this header changes in a way that
/// breaks programs built against an older header (a struct's layout, a signature, the meaning
/// of a result code).
pub const CARC_ABI_VERSION_MAJOR: u32 = 1;

/// The ABI's minor version: it changes when declarations are added and nothing else.
pub const CARC_ABI_VERSION_MINOR: u32 = 10;

/// The ABI version of the library actually linked, as
/// `(CARC_ABI_VERSION_MAJOR << 16) | CARC_ABI_VERSION_MINOR`. A program built against this
/// header works with it when the major versions are equal and the library's minor version is
/// at least the header's.
#[unsafe(no_mangle)]
pub extern "C" fn carc_abi_version() -> u32 {
    value_boundary(0, || CARC_ABI_VERSION_MAJOR << 16 | CARC_ABI_VERSION_MINOR)
}

/// The library's version, such as `"0.1.0"`. The string is static.
#[unsafe(no_mangle)]
pub extern "C" fn carc_version() -> *const c_char {
    const VERSION: &std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(
        concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
    ) {
        Ok(version) => version,
        Err(_) => panic!("the package version holds a NUL"),
    };
    value_boundary(std::ptr::null(), || VERSION.as_ptr())
}
