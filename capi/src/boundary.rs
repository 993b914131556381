//! What stands behind every export: the panic boundary, the checks of pointer arguments, and
//! the writing of outputs and caller buffers only once a call has succeeded.

use std::any::Any;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::NonNull;

use carcassonne::Diagnostic;

use crate::error::{ErrorObject, carc_error};
use crate::handle;
use crate::result::carc_result;
use crate::written::Written;

/// Why a call failed, before it becomes a result code and, if asked for, a [`carc_error`].
///
/// Boxed, so that the result every export's body returns is one pointer: the successful path
/// of a hot call (a step of self-play) then carries no failure-sized value around.
#[derive(Debug)]
pub(crate) struct Failure(Box<FailureData>);

#[derive(Debug)]
pub(crate) struct FailureData {
    pub(crate) code: carc_result,
    pub(crate) message: String,
    /// 1-based line and column of the problem in the caller's text, 0 when there is none.
    pub(crate) line: u32,
    pub(crate) column: u32,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl std::ops::Deref for Failure {
    type Target = FailureData;

    fn deref(&self) -> &FailureData {
        &self.0
    }
}

impl std::ops::DerefMut for Failure {
    fn deref_mut(&mut self) -> &mut FailureData {
        &mut self.0
    }
}

impl Failure {
    #[cold]
    pub(crate) fn new(code: carc_result, message: impl Into<String>) -> Failure {
        Failure(Box::new(FailureData {
            code,
            message: message.into(),
            line: 0,
            column: 0,
            diagnostics: Vec::new(),
        }))
    }

    pub(crate) fn null(name: &str) -> Failure {
        Failure::new(carc_result::NullArgument, format!("`{name}` is NULL"))
    }

    fn panic(payload: &(dyn Any + Send)) -> Failure {
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("no message");
        Failure::new(carc_result::Panic, format!("internal error (a bug in the library): {what}"))
    }
}

/// The result of the body of an export.
pub(crate) type Outcome = Result<(), Failure>;

/// Where a failure's [`carc_error`] goes: the caller's optional `carc_error **err`.
pub(crate) struct ErrSlot(*mut *mut carc_error);

impl ErrSlot {
    /// # Safety
    /// `err` is NULL or valid for writing one pointer.
    pub(crate) unsafe fn new(err: *mut *mut carc_error) -> ErrSlot {
        ErrSlot(err)
    }

    fn fill(self, failure: Failure) {
        if !self.0.is_null() {
            // Without a free handle there is no error to give; NULL says so.
            let error =
                handle::hand_out(ErrorObject::from(failure)).unwrap_or(std::ptr::null_mut());
            // SAFETY: not NULL, and valid for writing a pointer, as promised to `ErrSlot::new`.
            unsafe { self.0.write(error) };
        }
    }
}

/// Runs `body` behind the panic boundary and turns its outcome into a result code, filling
/// the caller's error slot on failure.
pub(crate) fn boundary(err: ErrSlot, body: impl FnOnce() -> Outcome) -> carc_result {
    let failure = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return carc_result::Ok,
        Ok(Err(failure)) => failure,
        Err(payload) => Failure::panic(payload.as_ref()),
    };
    let code = failure.code;
    err.fill(failure);
    code
}

/// As [`boundary`] without an error object.
pub(crate) fn plain_boundary(body: impl FnOnce() -> Outcome) -> carc_result {
    boundary(ErrSlot(std::ptr::null_mut()), body)
}

/// Runs `body` behind the panic boundary for an export that returns a value, not a result
/// code: `fallback` if it panics.
pub(crate) fn value_boundary<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// A shared reference to what `ptr` points to.
///
/// # Safety
/// `ptr` is NULL or points to a valid `T` that nothing changes for `'a`.
pub(crate) unsafe fn arg<'a, T>(ptr: *const T, name: &str) -> Result<&'a T, Failure> {
    // SAFETY: the caller promises a non-NULL `ptr` points to a valid `T` for `'a`.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(name))
}

/// The UTF-8 text of a NUL-terminated string argument.
///
/// # Safety
/// `ptr` is NULL or points to a NUL-terminated string that nothing changes for `'a`.
pub(crate) unsafe fn arg_str<'a>(ptr: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: not NULL, and the caller promises a NUL-terminated string that lives for `'a`.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str().map_err(|error| {
        Failure::new(
            carc_result::InvalidUtf8,
            format!("`{name}` is not valid UTF-8 (at byte {})", error.valid_up_to()),
        )
    })
}

/// The label of a text in messages: the string argument `file`, or `<string>` when it is NULL.
///
/// # Safety
/// `file` is NULL or points to a NUL-terminated string that nothing changes for `'a`.
pub(crate) unsafe fn file_label<'a>(file: *const c_char) -> Result<&'a str, Failure> {
    if file.is_null() {
        return Ok("<string>");
    }
    // SAFETY: not NULL, and the caller promises a NUL-terminated string that lives for `'a`.
    unsafe { arg_str(file, "file") }
}

/// `text` as a C string; a NUL inside (a tile name may hold one) becomes U+FFFD.
pub(crate) fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "\u{fffd}")).unwrap_or_default()
}

/// An output argument, checked for NULL before the work and written only after it succeeds.
pub(crate) struct Out<T>(NonNull<T>);

impl<T: Written> Out<T> {
    /// # Safety
    /// `ptr` is NULL or valid for writing a `T` for as long as the `Out` lives.
    pub(crate) unsafe fn new(ptr: *mut T, name: &str) -> Result<Out<T>, Failure> {
        NonNull::new(ptr).map(Out).ok_or_else(|| Failure::null(name))
    }

    /// Writes `value`, its padding bytes as 0.
    pub(crate) fn write(self, value: T) {
        // SAFETY: not NULL, and valid for writing a `T`, as promised to `Out::new`.
        unsafe { value.write_to(self.0.as_ptr()) }
    }
}

/// A caller buffer of `cap` items with its count argument: the pattern of every list.
///
/// The count receives how many items were written, or, when `cap` is too small, how many are
/// needed (the buffer is then left alone). A NULL buffer with `cap` 0 asks only for the count.
pub(crate) struct Buffer<T> {
    buf: *mut T,
    cap: usize,
    count: Out<usize>,
}

impl<T: Written> Buffer<T> {
    /// # Safety
    /// `buf` is NULL or valid for writing `cap` items of `T`, and `count` is NULL or valid
    /// for writing a `usize`, for as long as the `Buffer` lives.
    pub(crate) unsafe fn new(
        buf: *mut T,
        cap: usize,
        count: *mut usize,
        names: (&str, &str),
    ) -> Result<Buffer<T>, Failure> {
        // SAFETY: passed on from the caller.
        let count = unsafe { Out::new(count, names.1) }?;
        if buf.is_null() && cap > 0 {
            return Err(Failure::null(names.0));
        }
        Ok(Buffer { buf, cap, count })
    }

    /// Writes the `len` items `items` yields, or fails with [`carc_result::BufferTooSmall`]
    /// after writing the count needed.
    fn fill_iter(self, len: usize, items: impl Iterator<Item = T>) -> Outcome {
        if len > self.cap {
            return self.too_small(len);
        }
        for (index, value) in items.take(len).enumerate() {
            // SAFETY: `index < len <= cap`, and the caller promised `cap` writable items (so
            // `buf` is not NULL here: `cap` is at least 1).
            unsafe { value.write_to(self.buf.add(index)) };
        }
        self.count.write(len);
        Ok(())
    }

    /// Writes `convert` of each of `items`, as [`Buffer::fill_iter`], in a loop of its own: the
    /// lists of legal actions run it, and through `fill_iter` listing a game's actions took a
    /// fifth longer (benches/ffi_games.rs, c_abi_list: 58 µs against 71 µs).
    pub(crate) fn fill_map<S: Copy>(self, items: &[S], convert: impl Fn(S) -> T) -> Outcome {
        if items.len() > self.cap {
            return self.too_small(items.len());
        }
        for (index, item) in items.iter().enumerate() {
            // SAFETY: `index < items.len() <= cap`, and the caller promised `cap` writable
            // items (so `buf` is not NULL here: `cap` is at least 1).
            unsafe { convert(*item).write_to(self.buf.add(index)) };
        }
        self.count.write(items.len());
        Ok(())
    }

    fn too_small(self, len: usize) -> Outcome {
        self.count.write(len);
        Err(Failure::new(
            carc_result::BufferTooSmall,
            format!("the buffer holds {} items; {len} are needed", self.cap),
        ))
    }

    /// Writes the items of `items`, as [`Buffer::fill_map`].
    pub(crate) fn fill_from(self, items: &[T]) -> Outcome
    where
        T: Copy,
    {
        self.fill_map(items, |item| item)
    }
}

impl Buffer<c_char> {
    /// Writes `value` as JSON text, as [`Buffer::fill_text`].
    pub(crate) fn fill_json(self, value: &impl serde::Serialize) -> Outcome {
        // Our own types serialize without fail; an error here is a bug.
        let json = serde_json::to_string(value)
            .map_err(|error| Failure::new(carc_result::Panic, error.to_string()))?;
        self.fill_text(&json)
    }

    /// Writes `text` and a terminating NUL; the count is in bytes, the NUL included.
    pub(crate) fn fill_text(self, text: &str) -> Outcome {
        let bytes = text.bytes().map(|byte| byte as c_char).chain([0]);
        self.fill_iter(text.len() + 1, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{carc_error_code, carc_error_free, carc_error_message};

    #[test]
    fn a_panic_becomes_a_result_code_and_an_error_with_its_message() {
        let mut err: *mut carc_error = std::ptr::null_mut();
        // SAFETY: `err` is writable.
        let slot = unsafe { ErrSlot::new(&mut err) };
        let code = boundary(slot, || panic!("a bug in the library"));
        assert_eq!(code, carc_result::Panic);
        // SAFETY: a failed call filled `err` with a live error; it is freed once.
        unsafe {
            assert_eq!(carc_error_code(err), carc_result::Panic);
            let message = CStr::from_ptr(carc_error_message(err)).to_str().unwrap();
            assert!(message.ends_with("a bug in the library"), "{message}");
            carc_error_free(err);
        }
        assert_eq!(value_boundary(5, || -> u32 { panic!("again") }), 5);
    }
}
