//! Catalogs: built-in tile sets by name and the user's tile set files, with their diagnostics,
//! and the tile types they describe.

use std::ffi::{CString, c_char};
use std::ptr;
use std::sync::OnceLock;

use carcassonne::{BUILTIN_NAMES, Catalog, Diagnostics, Dir, Figure, LoadError, TileType};

use crate::boundary::{
    Buffer, ErrSlot, Failure, Out, arg_str, boundary, c_string, file_label, plain_boundary,
    value_boundary,
};
use crate::error::carc_error;
use crate::handle::{self, Held, Kind, Object};
use crate::result::carc_result;
use crate::values::{
    CARC_MAX_SEGMENTS_PER_TILE, carc_edge_kind, carc_segment_kind, edge_kind_to_c,
    segment_kind_to_c,
};

/// A validated tile set: a built-in one or the user's. Games copy what they need from it, so
/// it may be freed as soon as the games that use it are made.
pub struct carc_catalog {
    _opaque: [u8; 0],
}

/// What a `carc_catalog` handle stands for.
pub(crate) struct CatalogObject {
    catalog: Catalog,
    strings: OnceLock<CatalogStrings>,
}

impl Object for CatalogObject {
    const KIND: Kind = Kind::Catalog;
    type Opaque = carc_catalog;
}

/// The catalog behind `catalog`, held for the call, or why there is none.
fn catalog_arg(catalog: *const carc_catalog, name: &str) -> Result<Held<CatalogObject>, Failure> {
    handle::borrow(catalog, name)
}

/// Copies of the catalogs behind an array of `count` handles, which may be NULL when `count`
/// is 0; `name` names the array in messages.
///
/// # Safety
/// `handles` is NULL or points to `count` readable handle values (each any value).
pub(crate) unsafe fn catalogs_arg(
    handles: *const *const carc_catalog,
    count: usize,
    name: &str,
) -> Result<Vec<Catalog>, Failure> {
    let handles: &[*const carc_catalog] = if count == 0 {
        &[]
    } else if handles.is_null() {
        return Err(Failure::null(name));
    } else {
        // SAFETY: not NULL, and the caller promises `count` readable handle values.
        unsafe { std::slice::from_raw_parts(handles, count) }
    };
    let mut catalogs = Vec::with_capacity(handles.len());
    for (index, handle) in handles.iter().enumerate() {
        // One catalog held at a time: a call never holds the turns of two live handles
        // (see handle.rs).
        let handle = catalog_arg(*handle, &format!("{name}[{index}]"))?;
        catalogs.push(handle.catalog.clone());
    }
    Ok(catalogs)
}

impl CatalogObject {
    pub(crate) fn new(catalog: Catalog) -> CatalogObject {
        CatalogObject { catalog, strings: OnceLock::new() }
    }

    fn strings(&self) -> &CatalogStrings {
        self.strings.get_or_init(|| CatalogStrings {
            id: c_string(&self.catalog.info().id),
            name: c_string(&self.catalog.info().name),
            colours: self.catalog.figures().colours.iter().map(|colour| c_string(colour)).collect(),
            tiles: TileStrings::new(self.catalog.tiles()),
        })
    }
}

/// The catalog's text, NUL-terminated once, so the handle can lend it out.
struct CatalogStrings {
    id: CString,
    name: CString,
    colours: Vec<CString>,
    tiles: TileStrings,
}

/// The ids and names of a list of tile types, NUL-terminated.
pub(crate) struct TileStrings {
    ids: Vec<CString>,
    names: Vec<CString>,
}

impl TileStrings {
    pub(crate) fn new(tiles: &[TileType]) -> TileStrings {
        TileStrings {
            ids: tiles.iter().map(|tile| c_string(tile.id())).collect(),
            names: tiles.iter().map(|tile| c_string(tile.name())).collect(),
        }
    }
}

/// Who a tile set is and what it brings. The strings belong to the catalog handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_tileset_info {
    /// The id the set is known by, such as `"base"`.
    pub id: *const c_char,
    /// The name shown to people.
    pub name: *const c_char,
    /// Which printing of the set the data follows (1 = first edition).
    pub edition: u8,
    /// Followers per player.
    pub followers: u8,
    /// Big followers per player.
    pub big_followers: u8,
    /// 1 if the set provides a start tile (`start_tile` is its number), else 0.
    pub has_start_tile: u8,
    /// The start tile's number in the set, when `has_start_tile`.
    pub start_tile: u16,
    /// All tiles of a lower stage are drawn before any tile of a higher stage.
    pub stage: i8,
    /// How many player colours the set adds (`carc_catalog_colour` names them).
    pub colours: usize,
    /// How many tile types the set has.
    pub tile_types: usize,
    /// How many tiles the set has, counting every copy.
    pub tile_count: usize,
}

/// One tile type, unrotated. The strings belong to the handle the information came from.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct carc_tile_info {
    /// The id, unique across the tile sets of a game, such as `"D"`.
    pub id: *const c_char,
    /// The name shown to people.
    pub name: *const c_char,
    /// How many copies the set contains.
    pub count: u16,
    /// How many segments the tile has; they are numbered from 0.
    pub segment_count: u8,
    /// The edge kinds, `CARC_EDGE_KIND_*` constants, in the order N, E, S, W.
    pub edges: [carc_edge_kind; 4],
}

/// One segment of a tile type, unrotated: enough to draw it and to know what it joins.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct carc_segment_info {
    /// A `CARC_SEGMENT_KIND_*` constant.
    pub kind: carc_segment_kind,
    /// The edges a city, road or river segment joins, as `CARC_DIR_*` bits.
    pub edges: u8,
    /// The half-edges a field touches, as `CARC_HALF_EDGE_*` bits.
    pub half_edges: u8,
    /// The marks printed on it, as `CARC_MARK_*` bits.
    pub marks: u8,
    /// For a field, the city segments of the same tile it borders: bit `i` for segment `i`.
    pub cities: u32,
}

pub(crate) fn no_tile(tile: u16, types: usize) -> Failure {
    Failure::new(
        carc_result::OutOfRange,
        format!("there are {types} tile types; there is no tile number {tile}"),
    )
}

pub(crate) fn tile_info(
    tiles: &[TileType],
    strings: &TileStrings,
    tile: u16,
) -> Result<carc_tile_info, Failure> {
    let index = usize::from(tile);
    let (Some(tile_type), Some(id), Some(name)) =
        (tiles.get(index), strings.ids.get(index), strings.names.get(index))
    else {
        return Err(no_tile(tile, tiles.len()));
    };
    Ok(carc_tile_info {
        id: id.as_ptr(),
        name: name.as_ptr(),
        count: tile_type.count(),
        segment_count: tile_type.segments().len() as u8,
        edges: Dir::ALL.map(|dir| edge_kind_to_c(tile_type.edges()[dir])),
    })
}

pub(crate) fn segment_info(
    tiles: &[TileType],
    marks: &[carcassonne::MarkInfo],
    tile: u16,
    segment: u8,
) -> Result<carc_segment_info, Failure> {
    let tile_type = tiles.get(usize::from(tile)).ok_or_else(|| no_tile(tile, tiles.len()))?;
    let printed = tile_type.segments().get(usize::from(segment)).ok_or_else(|| {
        Failure::new(
            carc_result::OutOfRange,
            format!(
                "tile {} has {} segments; there is no segment {segment}",
                tile_type.id(),
                tile_type.segments().len()
            ),
        )
    })?;
    debug_assert!(tile_type.segments().len() <= CARC_MAX_SEGMENTS_PER_TILE);
    Ok(carc_segment_info {
        kind: segment_kind_to_c(printed.kind()),
        edges: printed.edges().iter().fold(0, |bits, dir| bits | 1 << dir.index()),
        half_edges: printed.half_edges().bits(),
        marks: crate::legacy::mark_bits(printed.marks(), marks),
        cities: printed.cities().iter().fold(0, |bits, city| bits | 1 << city),
    })
}

pub(crate) fn no_tile_id(id: &str) -> Failure {
    Failure::new(carc_result::NotAvailable, format!("no tile type has id `{id}`"))
}

/// A failure listing every problem of a tile set.
pub(crate) fn invalid_tileset(diagnostics: Diagnostics) -> Failure {
    let mut failure = Failure::new(carc_result::TilesetInvalid, diagnostics.to_string());
    failure.diagnostics = diagnostics.0;
    failure
}

/// Hands a new catalog to the caller.
fn give(out: Out<*mut carc_catalog>, catalog: Catalog) -> Result<(), Failure> {
    out.write(handle::hand_out(CatalogObject::new(catalog))?);
    Ok(())
}

/// Loads the built-in tile set `name` (`"base"`, `"base_c2"`, `"river"` or
/// `"inns_and_cathedrals"`) into a new catalog at `*out`, to be freed with
/// `carc_catalog_free`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, `CARC_RESULT_UNKNOWN_BUILTIN`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `out` is NULL or points to a writable
/// `carc_catalog *`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_builtin(
    name: *const c_char,
    out: *mut *mut carc_catalog,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let name = unsafe { arg_str(name, "name") }?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        let catalog = Catalog::builtin(name)
            .map_err(|error| Failure::new(carc_result::UnknownBuiltin, error.to_string()))?;
        give(out, catalog)
    })
}

/// Reads and validates a tile set from TOML `text` into a new catalog at `*out`, to be freed
/// with `carc_catalog_free`. `file` names the text in diagnostics; NULL names it `<string>`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, and `CARC_RESULT_TILESET_INVALID`
/// with every problem as a diagnostic (file, line, column, code, message) in `*err`.
///
/// # Safety
/// `file` is NULL or a NUL-terminated string; `text` is NULL or a NUL-terminated string; `out`
/// is NULL or points to a writable `carc_catalog *`; `err` is NULL or points to a writable
/// `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_from_toml(
    file: *const c_char,
    text: *const c_char,
    out: *mut *mut carc_catalog,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let file = unsafe { file_label(file) }?;
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let text = unsafe { arg_str(text, "text") }?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        give(out, Catalog::from_toml(file, text).map_err(invalid_tileset)?)
    })
}

/// Reads and validates the tile set file at `path` into a new catalog at `*out`, to be freed
/// with `carc_catalog_free`. Diagnostics name the file as given. Only a regular file is read,
/// and never more than 1 MiB and one byte of it.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, `CARC_RESULT_TILESET_IO` when the
/// file cannot be read or is not a regular file (a directory, a pipe, a device such as
/// `/dev/zero`), `CARC_RESULT_TILESET_TOO_LARGE` when it is over the size limit (1 MiB),
/// `CARC_RESULT_TILESET_INVALID` with every diagnostic.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `out` is NULL or points to a writable
/// `carc_catalog *`; `err` is NULL or points to a writable `carc_error *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_from_path(
    path: *const c_char,
    out: *mut *mut carc_catalog,
    err: *mut *mut carc_error,
) -> carc_result {
    // SAFETY: the caller promises NULL or a writable `carc_error *`.
    let err = unsafe { ErrSlot::new(err) };
    boundary(err, || {
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let path = unsafe { arg_str(path, "path") }?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        give(out, Catalog::from_path(path).map_err(load_failure)?)
    })
}

/// The failure of loading a tile set file.
pub(crate) fn load_failure(error: LoadError) -> Failure {
    match error {
        LoadError::Invalid(diagnostics) => invalid_tileset(diagnostics),
        LoadError::TooLarge { .. } => Failure::new(carc_result::TilesetTooLarge, error.to_string()),
        LoadError::Io { .. } | LoadError::NotAFile { .. } => {
            Failure::new(carc_result::TilesetIo, error.to_string())
        }
    }
}

/// Copies `catalog` into a new catalog at `*out`, to be freed with `carc_catalog_free`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`.
///
/// # Safety
/// `catalog` is any handle value; `out` is NULL or points to a writable
/// `carc_catalog *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_clone(
    catalog: *const carc_catalog,
    out: *mut *mut carc_catalog,
) -> carc_result {
    plain_boundary(|| {
        let catalog = catalog_arg(catalog, "catalog")?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        give(out, catalog.catalog.clone())
    })
}

/// Frees a catalog; NULL does nothing. Games made from it keep working.
///
/// # Safety
/// `catalog` is any handle value; it is invalid afterwards, and so is every string
/// borrowed from it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_free(catalog: *mut carc_catalog) {
    value_boundary((), || drop(handle::take::<CatalogObject>(catalog)));
}

/// Writes who the tile set is and what it brings to `*out`. Its strings belong to `catalog`
/// and stay valid until it is freed.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`.
///
/// # Safety
/// `catalog` is any handle value; `out` is NULL or points to a writable
/// `carc_tileset_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_info(
    catalog: *const carc_catalog,
    out: *mut carc_tileset_info,
) -> carc_result {
    plain_boundary(|| {
        let handle = catalog_arg(catalog, "catalog")?;
        // SAFETY: the caller promises NULL or a writable `carc_tileset_info`.
        let out = unsafe { Out::new(out, "out") }?;
        let catalog = &handle.catalog;
        let strings = handle.strings();
        out.write(carc_tileset_info {
            id: strings.id.as_ptr(),
            name: strings.name.as_ptr(),
            edition: catalog.info().edition,
            followers: catalog.figures().count(Figure::FOLLOWER),
            big_followers: catalog.figures().count(Figure::BIG_FOLLOWER),
            has_start_tile: catalog.deck().start.is_some().into(),
            start_tile: catalog.deck().start.unwrap_or(0),
            stage: catalog.deck().stage,
            colours: catalog.figures().colours.len(),
            tile_types: catalog.tiles().len(),
            tile_count: catalog.tile_count(),
        });
        Ok(())
    })
}

/// Writes to `*out` the name of player colour `index` the tile set adds (from 0, below
/// `colours` in `carc_tileset_info`). The string belongs to `catalog`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_OUT_OF_RANGE`.
///
/// # Safety
/// `catalog` is any handle value; `out` is NULL or points to a writable
/// `const char *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_colour(
    catalog: *const carc_catalog,
    index: usize,
    out: *mut *const c_char,
) -> carc_result {
    plain_boundary(|| {
        let handle = catalog_arg(catalog, "catalog")?;
        // SAFETY: the caller promises NULL or a writable pointer.
        let out = unsafe { Out::new(out, "out") }?;
        let colours = &handle.strings().colours;
        let colour = colours.get(index).ok_or_else(|| {
            Failure::new(
                carc_result::OutOfRange,
                format!("the set adds {} colours; there is no colour {index}", colours.len()),
            )
        })?;
        out.write(colour.as_ptr());
        Ok(())
    })
}

/// Writes tile type `tile` of the set (numbered from 0 in file order) to `*out`. Its strings
/// belong to `catalog`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_OUT_OF_RANGE`.
///
/// # Safety
/// `catalog` is any handle value; `out` is NULL or points to a writable `carc_tile_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_tile_info(
    catalog: *const carc_catalog,
    tile: u16,
    out: *mut carc_tile_info,
) -> carc_result {
    plain_boundary(|| {
        let handle = catalog_arg(catalog, "catalog")?;
        // SAFETY: the caller promises NULL or a writable `carc_tile_info`.
        let out = unsafe { Out::new(out, "out") }?;
        out.write(tile_info(handle.catalog.tiles(), &handle.strings().tiles, tile)?);
        Ok(())
    })
}

/// Writes segment `segment` of tile type `tile` of the set to `*out`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_OUT_OF_RANGE` for a tile or segment number past
/// the end.
///
/// # Safety
/// `catalog` is any handle value; `out` is NULL or points to a writable
/// `carc_segment_info`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_tile_segment(
    catalog: *const carc_catalog,
    tile: u16,
    segment: u8,
    out: *mut carc_segment_info,
) -> carc_result {
    plain_boundary(|| {
        let handle = catalog_arg(catalog, "catalog")?;
        // SAFETY: the caller promises NULL or a writable `carc_segment_info`.
        let out = unsafe { Out::new(out, "out") }?;
        out.write(segment_info(handle.catalog.tiles(), handle.catalog.marks(), tile, segment)?);
        Ok(())
    })
}

/// Writes to `*tile` the number in the set of the tile type with id `id`.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_INVALID_UTF8`, `CARC_RESULT_NOT_AVAILABLE` when no
/// tile type has that id.
///
/// # Safety
/// `catalog` is any handle value; `id` is NULL or a NUL-terminated string; `tile` is NULL
/// or points to a writable `uint16_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_tile_by_id(
    catalog: *const carc_catalog,
    id: *const c_char,
    tile: *mut u16,
) -> carc_result {
    plain_boundary(|| {
        let handle = catalog_arg(catalog, "catalog")?;
        // SAFETY: the caller promises NULL or a NUL-terminated string.
        let id = unsafe { arg_str(id, "id") }?;
        // SAFETY: the caller promises NULL or a writable `uint16_t`.
        let tile = unsafe { Out::new(tile, "tile") }?;
        let (index, _) = handle.catalog.tile_by_id(id).ok_or_else(|| no_tile_id(id))?;
        tile.write(index);
        Ok(())
    })
}

/// Writes the set in the tile set format (TOML, canonical form) to `buf`, NUL-terminated;
/// loading that text gives an equal catalog. `*size` receives the bytes written, the NUL
/// included, or, with `CARC_RESULT_BUFFER_TOO_SMALL`, the bytes needed (then nothing is
/// written to `buf`). `buf` may be NULL when `cap` is 0, to ask for the size.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT`, `CARC_RESULT_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `catalog` is any handle value; `buf` is NULL or valid for writing `cap` bytes; `size`
/// is NULL or points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn carc_catalog_to_toml(
    catalog: *const carc_catalog,
    buf: *mut c_char,
    cap: usize,
    size: *mut usize,
) -> carc_result {
    plain_boundary(|| {
        let handle = catalog_arg(catalog, "catalog")?;
        // SAFETY: the caller promises `buf` NULL or valid for `cap` bytes, `size` NULL or
        // writable.
        let buffer = unsafe { Buffer::new(buf, cap, size, ("buf", "size")) }?;
        buffer.fill_text(&handle.catalog.to_toml())
    })
}

/// How many tile sets are built into the library.
#[unsafe(no_mangle)]
pub extern "C" fn carc_builtin_count() -> usize {
    value_boundary(0, || BUILTIN_NAMES.len())
}

/// The name of built-in tile set `index` (from 0, below `carc_builtin_count()`), such as
/// `"base"`, in the order they are listed to users; NULL past the end. The string is static.
#[unsafe(no_mangle)]
pub extern "C" fn carc_builtin_name(index: usize) -> *const c_char {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    value_boundary(ptr::null(), || {
        let names = NAMES.get_or_init(|| BUILTIN_NAMES.iter().map(|name| c_string(name)).collect());
        names.get(index).map_or(ptr::null(), |name| name.as_ptr())
    })
}
