//! The C ABI of the carcassonne rules engine: opaque handles, numbered result codes, and
//! `#[repr(C)]` values, described by the generated header `include/carcassonne.h`.
//!
//! Everything `extern "C"` and every `unsafe` of the project lives in this crate; the core
//! stays `no_std` and safe. The conventions every export follows are written once, at the top
//! of the header (see `cbindgen.toml`), and summed up here:
//!
//! - types are `carc_<object>`, functions `carc_<object>_<verb>`; `_free(NULL)` does nothing;
//! - fallible functions return a [`carc_result`], a `uint32_t` in numbered ranges that are
//!   never reused, and may fill an optional [`carc_error`] with a message, a line and column,
//!   and tile set diagnostics;
//! - outputs are written only on success; lists and text go into caller buffers with a
//!   separate size query, never into memory the caller frees;
//! - NULL is never dereferenced, nothing unwinds across the boundary ([`carc_result::Panic`]),
//!   and a handle whose call failed stays valid.
//!
//! The exports are ordinary Rust functions too (this crate is also an `rlib`), which is how the
//! tests and benchmarks drive the ABI exactly as a C program would.

#![allow(non_camel_case_types)]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

// In the order the header lists them (cbindgen keeps source order).
mod version;

mod result;

mod error;

mod values;

mod legacy;

mod catalog;

mod palette;

mod game;

mod declared;

mod flock;

mod figures;

mod board;

mod save;

mod landscape;

mod bot;

mod picture;

mod analysis;

// Helpers behind every export: the panic boundary, pointer checks, caller buffers, the
// writing of outputs with their padding zeroed, and the registry that checks handles.
mod boundary;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
mod handle;
mod written;

pub use analysis::*;
pub use board::*;
pub use bot::*;
pub use catalog::*;
pub use error::*;
pub use game::*;
pub use landscape::*;
pub use palette::*;
pub use picture::*;
pub use result::*;
pub use save::*;
pub use values::*;
pub use version::*;
