//! Short ids packed into a fixed array: what figures and bag tokens are known by, so that
//! actions and events naming them stay `Copy` and small.

/// The most characters a packed id has.
pub(crate) const ID_LEN: usize = 16;

/// `id` packed, zero-padded, or `None` unless it is 1 to [`ID_LEN`] characters of `a`–`z`,
/// `0`–`9` and `_`, starting with a letter.
pub(crate) const fn pack(id: &str) -> Option<[u8; ID_LEN]> {
    let bytes = id.as_bytes();
    if bytes.is_empty() || bytes.len() > ID_LEN || !bytes[0].is_ascii_lowercase() {
        return None;
    }
    let mut packed = [0u8; ID_LEN];
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if !(byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'_') {
            return None;
        }
        packed[index] = byte;
        index += 1;
    }
    Some(packed)
}

/// The id `pack` made.
pub(crate) fn unpack(packed: &[u8; ID_LEN]) -> &str {
    let len = packed.iter().position(|byte| *byte == 0).unwrap_or(ID_LEN);
    // Only ASCII bytes are ever stored.
    core::str::from_utf8(&packed[..len]).unwrap_or_default()
}

/// `id` as messages name it: spaces for underscores ("big follower").
pub(crate) fn write_words(id: &str, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
    for (index, word) in id.split('_').enumerate() {
        if index > 0 {
            f.write_str(" ")?;
        }
        f.write_str(word)?;
    }
    Ok(())
}
