//! Plain Python values from the library's serde forms and back: events, scores and options
//! travel as dicts, lists, strings and numbers, as their JSON forms are documented.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::Value;

/// A Python value for a JSON value: dicts, lists, str, int, float, bool and None.
pub fn to_python(py: Python<'_>, value: &Value) -> PyResult<Py<PyAny>> {
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(flag) => PyBool::new(py, *flag).to_owned().into_any().unbind(),
        Value::Number(number) => match (number.as_i64(), number.as_u64()) {
            (Some(int), _) => int.into_pyobject(py)?.into_any().unbind(),
            (None, Some(int)) => int.into_pyobject(py)?.into_any().unbind(),
            _ => number.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any().unbind(),
        },
        Value::String(text) => PyString::new(py, text).into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (key, item) in fields {
                dict.set_item(key, to_python(py, item)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// The JSON value of a Python value built of dicts (string keys), lists, tuples, str, int,
/// float, bool and None; anything else is a `TypeError` naming what it met.
pub fn from_python(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    if value.is_none() {
        return Ok(Value::Null);
    }
    // bool before int: a Python bool is an int.
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(Value::Bool(flag.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        if let Ok(int) = value.extract::<i64>() {
            return Ok(Value::from(int));
        }
        return Ok(Value::from(value.extract::<u64>()?));
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(Value::from(value.extract::<f64>()?));
    }
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(Value::String(text.to_cow()?.into_owned()));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut fields = serde_json::Map::new();
        for (key, item) in dict.iter() {
            let key = key
                .cast::<PyString>()
                .map_err(|_| PyTypeError::new_err("dict keys must be strings"))?
                .to_cow()?
                .into_owned();
            fields.insert(key, from_python(&item)?);
        }
        return Ok(Value::Object(fields));
    }
    if let Ok(list) = value.cast::<PyList>() {
        return list
            .iter()
            .map(|item| from_python(&item))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return tuple
            .iter()
            .map(|item| from_python(&item))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    Err(PyTypeError::new_err(format!(
        "cannot pass a {} here: use dicts, lists, str, int, float, bool or None",
        value.get_type().name()?
    )))
}

/// `value` in its JSON form, as a Python value.
pub fn serialized(py: Python<'_>, value: &impl serde::Serialize) -> PyResult<Py<PyAny>> {
    let json = serde_json::to_value(value)
        .map_err(|error| PyTypeError::new_err(format!("cannot convert: {error}")))?;
    to_python(py, &json)
}
