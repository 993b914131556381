//! What serialised records leave out: fields at their default, so that files and views of
//! games without a mechanism read exactly as they did before it existed.

/// Whether `value` is its type's default (0, false, an empty bag): serde's
/// `skip_serializing_if` for fields a mechanism adds.
pub(crate) fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}
