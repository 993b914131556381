//! Refusals as JavaScript errors: an `Error` whose `name` is the kind of refusal, with a
//! `reason` where the engine gives a machine-readable one.

use wasm_bindgen::JsValue;

/// An `Error` named `name` with `message`.
pub fn error(name: &str, message: impl AsRef<str>) -> JsValue {
    let error = js_sys::Error::new(message.as_ref());
    error.set_name(name);
    error.into()
}

/// An `Error` named `name` with `message` and a `reason` property.
pub fn error_with_reason(name: &str, message: impl AsRef<str>, reason: &str) -> JsValue {
    let error = error(name, message);
    // Setting a property on a fresh Error cannot fail; a failure would only lose the reason.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("reason"), &JsValue::from_str(reason));
    error
}

/// A `TypeError`: a value of the wrong shape, named by what it is for.
pub fn type_error(what: &str, detail: impl std::fmt::Display) -> JsValue {
    js_sys::TypeError::new(&format!("{what}: {detail}")).into()
}

/// A `RangeError`: a number outside what it may be.
pub fn range_error(message: impl AsRef<str>) -> JsValue {
    js_sys::RangeError::new(message.as_ref()).into()
}
