//! The error object: the code, a message, a line and column, and every diagnostic of a tile
//! set file, for callers who want more than a result code.

use std::ffi::{CString, c_char};
use std::ptr;

use crate::boundary::{Failure, Out, c_string, plain_boundary, value_boundary};
use carcassonne::limits::{MAX_ERROR_MESSAGE, shorten};

use crate::handle::{self, Kind, Object};
use crate::result::carc_result;

/// Why a call failed, in detail. Functions that can fail for a reason worth explaining take a
/// last argument `carc_error **err`: when it is not NULL and the call fails, `*err` receives a
/// new error that the caller frees with `carc_error_free`. `*err` is not touched on success.
pub struct carc_error {
    _opaque: [u8; 0],
}

/// What a `carc_error` handle stands for.
pub(crate) struct ErrorObject {
    code: carc_result,
    message: CString,
    line: u32,
    column: u32,
    diagnostics: Vec<DiagnosticStrings>,
}

/// A diagnostic with its strings made NUL-terminated once, so the error can lend them out.
struct DiagnosticStrings {
    file: CString,
    line: u32,
    column: u32,
    code: CString,
    code_number: u32,
    message: CString,
}

impl Object for ErrorObject {
    const KIND: Kind = Kind::Error;
    type Opaque = carc_error;
}

impl From<Failure> for ErrorObject {
    fn from(failure: Failure) -> ErrorObject {
        let first = failure.diagnostics.first();
        let line = first.map_or(failure.line, |diagnostic| diagnostic.line);
        let column = first.map_or(failure.column, |diagnostic| diagnostic.column);
        ErrorObject {
            code: failure.code,
            // Every message the library makes is shorter; this bounds any it quotes.
            message: c_string(&shorten(&failure.message, MAX_ERROR_MESSAGE)),
            line,
            column,
            diagnostics: failure
                .diagnostics
                .iter()
                .map(|diagnostic| DiagnosticStrings {
                    file: c_string(&diagnostic.file),
                    line: diagnostic.line,
                    column: diagnostic.column,
                    code: c_string(diagnostic.code.as_str()),
                    code_number: diagnostic.code.number(),
                    message: c_string(&diagnostic.message),
                })
                .collect(),
        }
    }
}

/// One problem in a tile set file, as `carc_error_diagnostic` describes it. The strings belong
/// to the error and stay valid until it is freed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_diagnostic_info {
    /// The file name given when the tile set was loaded (the path, or the label of a string).
    pub file: *const c_char,
    /// The 1-based line of the problem.
    pub line: u32,
    /// The 1-based column of the problem, in characters.
    pub column: u32,
    /// The stable code of the problem, such as `"dsl-unknown-half-edge"`.
    pub code: *const c_char,
    /// The same code as a stable number, from 1.
    pub code_number: u32,
    /// What is wrong, lower case, without a trailing period.
    pub message: *const c_char,
}

/// The result code of the failure `err` describes; `CARC_RESULT_NULL_ARGUMENT` when `err` is
/// NULL, `CARC_RESULT_INVALID_HANDLE` when it is no live error.
///
/// # Safety
/// `err` is any handle value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_error_code(err: *const carc_error) -> carc_result {
    value_boundary(carc_result::Panic, || match handle::borrow::<ErrorObject>(err, "err") {
        Ok(err) => err.code,
        Err(failure) => failure.code,
    })
}

/// What went wrong, as one line of lower-case text (for a tile set, every diagnostic, one per
/// line). NULL when `err` is NULL or no live error.
///
/// The string belongs to `err` and stays valid until `carc_error_free(err)`.
///
/// # Safety
/// `err` is any handle value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_error_message(err: *const carc_error) -> *const c_char {
    value_boundary(ptr::null(), || {
        handle::borrow::<ErrorObject>(err, "err").map_or(ptr::null(), |err| err.message.as_ptr())
    })
}

/// The 1-based line of the problem in the text the failed call read (a tile set, a JSON
/// document); 0 when there is none or `err` is NULL or no live error. For a tile set, the first diagnostic's.
///
/// # Safety
/// `err` is any handle value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_error_line(err: *const carc_error) -> u32 {
    value_boundary(0, || handle::borrow::<ErrorObject>(err, "err").map_or(0, |err| err.line))
}

/// The 1-based column, in characters, that goes with `carc_error_line`; 0 when there is none
/// or `err` is NULL or no live error.
///
/// # Safety
/// `err` is any handle value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_error_column(err: *const carc_error) -> u32 {
    value_boundary(0, || handle::borrow::<ErrorObject>(err, "err").map_or(0, |err| err.column))
}

/// How many tile set diagnostics `err` holds: every problem of an invalid tile set
/// (`CARC_RESULT_TILESET_INVALID`), 0 for other failures or when `err` is NULL or no live error.
///
/// # Safety
/// `err` is any handle value.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_error_count(err: *const carc_error) -> usize {
    value_boundary(0, || {
        handle::borrow::<ErrorObject>(err, "err").map_or(0, |err| err.diagnostics.len())
    })
}

/// Writes diagnostic `index` (from 0, in file order) of `err` to `*out`.
///
/// The strings in `*out` belong to `err` and stay valid until `carc_error_free(err)`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT` when `err` or `out` is NULL, `CARC_RESULT_OUT_OF_RANGE` when
/// `index` is not below `carc_error_count(err)`.
///
/// # Safety
/// `err` is any handle value; `out` is NULL or points to a
/// writable `carc_diagnostic_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_error_diagnostic(
    err: *const carc_error,
    index: usize,
    out: *mut carc_diagnostic_info,
) -> carc_result {
    plain_boundary(|| {
        let err = handle::borrow::<ErrorObject>(err, "err")?;
        // SAFETY: the caller promises NULL or a writable `carc_diagnostic_info`.
        let out = unsafe { Out::new(out, "out") }?;
        let diagnostic = err.diagnostics.get(index).ok_or_else(|| {
            Failure::new(
                carc_result::OutOfRange,
                format!("the error has {} diagnostics; there is no {index}", err.diagnostics.len()),
            )
        })?;
        out.write(carc_diagnostic_info {
            file: diagnostic.file.as_ptr(),
            line: diagnostic.line,
            column: diagnostic.column,
            code: diagnostic.code.as_ptr(),
            code_number: diagnostic.code_number,
            message: diagnostic.message.as_ptr(),
        });
        Ok(())
    })
}

/// Frees an error; NULL does nothing.
///
/// # Safety
/// `err` is any handle value; it is invalid afterwards, and so
/// is every string borrowed from it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_error_free(err: *mut carc_error) {
    value_boundary((), || drop(handle::take::<ErrorObject>(err)));
}
