//! Values to and from JavaScript: serde forms as plain objects (maps as objects, 64-bit
//! integers as numbers), the same shapes as the engine's JSON.

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

use crate::errors::type_error;

/// The JavaScript value of `value`'s JSON form.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|error| type_error("cannot convert a value for JavaScript", error))
}

/// The Rust value of a JavaScript value in `T`'s JSON form; `what` names it in the error.
///
/// The value is read whole first, as JSON reads it: serde-wasm-bindgen reads a struct's
/// fields by name and never sees keys it lacks, so a misspelt key (`{ colur: "red" }`) would
/// pass unnoticed where the engine's JSON refuses it.
pub fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsValue> {
    let json: serde_json::Value =
        serde_wasm_bindgen::from_value(value).map_err(|error| type_error(what, error))?;
    serde_json::from_value(json).map_err(|error| type_error(what, error))
}

/// A seed given as a number: a whole number from 0 to 2^53 - 1, which a JavaScript number
/// holds exactly.
pub fn seed(value: f64) -> Result<u64, JsValue> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    if value.fract() == 0.0 && (0.0..=MAX_SAFE).contains(&value) {
        Ok(value as u64)
    } else {
        Err(type_error("seed", format!("{value} is not a whole number from 0 to 2^53 - 1")))
    }
}
