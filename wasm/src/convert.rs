//! Values to and from JavaScript: serde forms as plain objects (maps as objects, 64-bit
//! integers as numbers), the same shapes as the engine's JSON.

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;

use crate::errors::type_error;

/// The JavaScript value of `value`'s JSON form.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|error| type_error("cannot convert a value for JavaScript", error))
}

/// The Rust value of a JavaScript value in `T`'s JSON form; `what` names it in the error.
///
/// The value goes through `JSON.stringify` and `serde_json`, as JSON text would: the engine's
/// readers then refuse a misspelt key (serde-wasm-bindgen reads a struct's fields by name and
/// would never see it), a cycle is a `TypeError` instead of unbounded recursion, nesting is
/// bounded by serde_json's depth limit, and a number that is not finite (which JSON writes as
/// `null`, so that `{ seed: NaN }` would read as no seed) is refused by name.
pub fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsValue> {
    let text = REFUSE_NON_FINITE.with(|replacer| {
        js_sys::JSON::stringify_with_replacer(&value, replacer.as_ref().unchecked_ref())
    });
    let text = text.map_err(|thrown| type_error(what, message(&thrown)))?;
    let Some(text) = text.as_string() else {
        return Err(type_error(what, "not a value JSON can hold (undefined or a function)"));
    };
    serde_json::from_str(&text).map_err(|error| type_error(what, error))
}

thread_local! {
    /// `JSON.stringify`'s replacer: every value as it is, save numbers that are not finite.
    static REFUSE_NON_FINITE: Closure<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>> =
        Closure::new(|key: JsValue, value: JsValue| match value.as_f64() {
            Some(number) if !number.is_finite() => {
                let key = key.as_string().unwrap_or_default();
                let name = if key.is_empty() { "the value".to_owned() } else { format!("`{key}`") };
                Err(js_sys::TypeError::new(&format!("{name} is {number}, not a finite number")).into())
            }
            _ => Ok(value),
        });
}

/// The message of a thrown value: an `Error`'s message, or the value in words.
fn message(thrown: &JsValue) -> String {
    thrown
        .dyn_ref::<js_sys::Error>()
        .map(|error| String::from(error.message()))
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| "JSON cannot hold it".to_owned())
}

/// A whole number from `min` to `max`, given as a JavaScript number; `what` names it.
pub fn whole(value: f64, what: &str, min: f64, max: f64) -> Result<f64, JsValue> {
    if value.fract() == 0.0 && (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(type_error(what, format!("{value} is not a whole number from {min} to {max}")))
    }
}

/// A seed given as a number: a whole number from 0 to 2^53 - 1, which a JavaScript number
/// holds exactly.
pub fn seed(value: f64) -> Result<u64, JsValue> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    whole(value, "seed", 0.0, MAX_SAFE).map(|seed| seed as u64)
}
