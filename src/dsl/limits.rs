//! Limits that keep a hostile tile set file from exhausting memory or time.

/// The largest file accepted, in bytes.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// The most tile types in one set.
pub const MAX_TILE_TYPES: usize = 1_000;
/// The most copies of one tile type.
pub const MAX_COPIES: u16 = 1_000;
/// The most tiles in one set, counting every copy.
pub const MAX_TILES: u64 = 10_000;
/// The longest id (set or tile), in characters.
pub const MAX_ID: usize = 32;
/// The longest name, in characters.
pub const MAX_NAME: usize = 100;
/// The longest colour name, in characters.
pub const MAX_COLOUR: usize = 32;
/// The most colours one set may bring.
pub const MAX_COLOURS: usize = 20;
/// The most figures of one kind per player one set may bring.
pub const MAX_FIGURES: i64 = 20;
/// The most tokens of one kind a bag may hold.
pub const MAX_BAG_TOKENS: i64 = 50;
/// The most one token may be worth.
pub const MAX_TOKEN_WORTH: i64 = 8;
/// Stages run from `-MAX_STAGE` to `MAX_STAGE`.
pub const MAX_STAGE: i64 = 100;
/// The longest file name a diagnostic carries, in characters; a longer one (a saved game may
/// name its inline tile set anything) is cut to this length, ending in `…`. Every
/// diagnostic of a file shares one copy.
pub const MAX_LABEL: usize = 256;
/// The longest diagnostic message, in characters; a longer one (it may quote the file) is
/// cut to this length, ending in `…`.
pub const MAX_MESSAGE: usize = 512;

pub(crate) fn is_set_id_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'
}

pub(crate) fn is_tile_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}
