//! Properties of the C API under hostile input, for the cargo-fuzz targets and proptests of
//! `carcassonne-properties` (feature `fuzzing`). They live in this crate because they call
//! the exports, which is `unsafe`, and this crate is where the library's `unsafe` is kept.
//!
//! Each property panics when the library breaks a promise: a call that panicked inside (the
//! boundary turns that into `CARC_RESULT_PANIC`), an output written on failure, an error
//! object that disagrees with the result, a refused call that changed a game.

pub mod c_calls;
pub mod landscape_json;

use std::ffi::{CStr, CString};
use std::ptr;

use crate::error::{carc_error, carc_error_code, carc_error_free, carc_error_message};
use crate::result::carc_result;

/// `bytes` up to the first NUL, NUL-terminated: what a C caller's string would be.
pub(crate) fn c_string(bytes: &[u8]) -> CString {
    let end = bytes.iter().position(|byte| *byte == 0).unwrap_or(bytes.len());
    CString::new(&bytes[..end]).expect("no NUL inside")
}

/// Checks a call's result against its error object, frees the object, and returns the code:
/// never a panic inside the library, an error object exactly when the call failed, carrying
/// the same code and a message.
pub(crate) fn settle(call: &str, code: carc_result, err: *mut carc_error) -> carc_result {
    // SAFETY: `err` is NULL or an error object this property owns and frees once.
    unsafe {
        let message = if err.is_null() {
            String::new()
        } else {
            let text = carc_error_message(err);
            assert!(!text.is_null(), "{call}: an error without a message");
            CStr::from_ptr(text).to_string_lossy().into_owned()
        };
        assert!(
            !matches!(code, carc_result::Panic | carc_result::Poisoned),
            "{call} panicked inside the library: {message}"
        );
        if code == carc_result::Ok {
            assert!(err.is_null(), "{call} succeeded but wrote an error: {message}");
        } else {
            assert!(!err.is_null(), "{call} failed with {code:?} and no error object");
            assert_eq!(carc_error_code(err), code, "{call}: the error's code differs");
            assert!(!message.is_empty(), "{call}: an empty error message");
            let chars = message.chars().count();
            assert!(
                chars <= carcassonne::limits::MAX_ERROR_MESSAGE,
                "{call}: an error message of {chars} characters"
            );
            carc_error_free(err);
        }
    }
    code
}

/// A null error slot for a call to fill.
pub(crate) fn no_error() -> *mut carc_error {
    ptr::null_mut()
}
