//! What the properties' proptests share: the fuzz targets' seed corpora, and mutations of
//! them in the spirit of a fuzzer, so a proptest explores the same neighbourhood of valid
//! input that the fuzzer starts from.

#![allow(dead_code, reason = "each test file uses part of this")]

use std::fmt::Debug;
use std::path::Path;

use arbitrary::{Arbitrary, Unstructured};

use proptest::prelude::*;

/// The seed files of a fuzz target, `fuzz/corpus/<target>/`, read once.
pub fn corpus(target: &str) -> Vec<Vec<u8>> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    let seeds: Vec<Vec<u8>> =
        files.iter().map(|path| std::fs::read(path).expect("a seed file")).collect();
    assert!(!seeds.is_empty(), "{} has no seeds", folder.display());
    seeds
}

/// Pieces of TOML and JSON syntax, and numbers at the edges of their types, that a mutation
/// may insert: a byte flip seldom makes a new token.
const TOKENS: &[&[u8]] = &[
    b"\"",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"=",
    b"\n",
    b"null",
    b"true",
    b"-1",
    b"0",
    b"65535",
    b"65536",
    b"4294967296",
    b"18446744073709551616",
    b"1e999",
    b"-32768",
    b"1023",
    b"1024",
    b"\\u0000",
    b"\\\"",
    b"[[tile]]\n",
    b"count = 1000\n",
    b"\"N_x\"",
    b"\"city\"",
    b"\"field\"",
    b"{\"action\":\"skip\"}",
    b"{\"action\":\"draw\"}",
    b"\"base\"",
    b"{\"toml\":\"[set]\"}",
    b"\"rotation\":45",
    b"\"segment\":255",
    b"\"player\":8",
];

/// One change to a byte string.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Flip bits of the byte at a position.
    Flip(usize, u8),
    /// Insert a byte.
    Insert(usize, u8),
    /// Insert a token of [`TOKENS`].
    Token(usize, usize),
    /// Delete up to this many bytes.
    Delete(usize, usize),
    /// Copy a stretch to another place.
    Splice(usize, usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<usize>();
    prop_oneof![
        (at, 1u8..).prop_map(|(at, bits)| Edit::Flip(at, bits)),
        (at, any::<u8>()).prop_map(|(at, byte)| Edit::Insert(at, byte)),
        (at, 0..TOKENS.len()).prop_map(|(at, token)| Edit::Token(at, token)),
        (at, 1usize..64).prop_map(|(at, len)| Edit::Delete(at, len)),
        (at, at, 1usize..256).prop_map(|(from, to, len)| Edit::Splice(from, to, len)),
    ]
}

/// Applies `edits` to `bytes`, positions taken modulo the length.
pub fn mutate(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for edit in edits {
        let len = bytes.len();
        let at = |position: usize| if len == 0 { 0 } else { position % (len + 1) };
        match *edit {
            Edit::Flip(position, bits) if len > 0 => bytes[position % len] ^= bits,
            Edit::Flip(..) => {}
            Edit::Insert(position, byte) => bytes.insert(at(position), byte),
            Edit::Token(position, token) => {
                let at = at(position);
                bytes.splice(at..at, TOKENS[token].iter().copied());
            }
            Edit::Delete(position, count) => {
                let start = at(position).min(len);
                bytes.drain(start..(start + count).min(len));
            }
            Edit::Splice(from, to, count) => {
                let start = at(from).min(len);
                let piece: Vec<u8> = bytes[start..(start + count).min(len)].to_vec();
                let to = at(to).min(len);
                bytes.splice(to..to, piece);
            }
        }
    }
    bytes
}

/// A seed of `target`'s corpus with up to `most` edits, or (one time in eight) random bytes.
pub fn mutated_seed(target: &str, most: usize) -> impl Strategy<Value = Vec<u8>> + use<> {
    prop_oneof![
        7 => edited_seed(target, most),
        1 => prop::collection::vec(any::<u8>(), 0..512),
    ]
}

/// A committed seed of a script target with up to four edits, which mostly change one step or
/// argument and keep the rest of a script that reaches deep states.
pub fn mutated_script(target: &str) -> impl Strategy<Value = Vec<u8>> + use<> {
    edited_seed(target, 4)
}

/// A seed of `target`'s corpus with up to `most` edits.
fn edited_seed(target: &str, most: usize) -> impl Strategy<Value = Vec<u8>> + use<> {
    let seeds = corpus(target);
    (0..seeds.len(), prop::collection::vec(edit(), 0..=most))
        .prop_map(move |(seed, edits)| mutate(seeds[seed].clone(), &edits))
}

/// Up to `most` items, each read with `arbitrary` from 64 random bytes of its own. Read from
/// one run of random bytes, a list stops after each item with even odds (`arbitrary` takes a
/// byte to go on), so random scripts would hold a call or two; the fuzzer learns to go on.
pub fn chunked<T: for<'a> Arbitrary<'a> + Debug>(most: usize) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(prop::collection::vec(any::<u8>(), 64), 0..=most).prop_map(|chunks| {
        chunks.iter().filter_map(|chunk| T::arbitrary(&mut Unstructured::new(chunk)).ok()).collect()
    })
}
