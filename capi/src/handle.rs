//! Handles: the opaque pointers C holds are tokens checked against a registry, so a freed,
//! foreign or made-up handle is refused with `CARC_RESULT_INVALID_HANDLE` instead of being
//! dereferenced, and one handle used by several threads at once is safe.
//!
//! A token is `generation << INDEX_BITS | index`: `index` names a slot of the registry and
//! `generation` counts how often the slot has been handed out. The slot remembers the token it
//! holds now, so a token of a freed object (an older generation), of another kind of object,
//! or one never issued matches no live slot. Slots live in chunks that are never freed, so
//! checking any token reads only memory the registry owns. Freed slots are reused oldest
//! first, so a slot's generation turns over as slowly as possible.
//!
//! Each slot has a lock, and a call holds the lock of the handle it uses from its check of the
//! token to its end ([`Held`]): calls on one handle from several threads take turns, and a
//! free, which takes the same lock, waits for the call in progress and takes effect after it.
//! (Unity calls from its main thread and from jobs; C++ programs share handles between
//! threads; without this, concurrent calls on one game corrupted memory.) A thread that has
//! waited long is handed the turn before newcomers ([`Turn`]), so no thread waits for ever.
//!
//! No set of calls can wait on each other in a cycle: a call holds the turn of at most one
//! live handle; a call that makes a handle (a clone, a restart, a game's catalog) also takes,
//! while holding it, the turn of the slot just taken from the free list, which only a call
//! with a stale or made-up token can hold meanwhile, and such a call waits for nothing while
//! it does; the allocator's lock is never held while waiting for a turn. Uncontended, a turn
//! is one compare-and-swap to take and one to give back.

use std::collections::VecDeque;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicPtr, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use parking_lot::lock_api::RawMutex as _;

use crate::boundary::Failure;
use crate::result::carc_result;

/// What a handle stands for; a slot's kind must match the one a function expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    Catalog = 1,
    Game = 2,
    Error = 3,
    LandscapeScore = 4,
    Bot = 5,
}

impl Kind {
    fn from_u8(value: u8) -> Option<Kind> {
        [Kind::Catalog, Kind::Game, Kind::Error, Kind::LandscapeScore, Kind::Bot]
            .into_iter()
            .find(|kind| *kind as u8 == value)
    }

    /// The C type a function expects, for messages.
    const fn c_name(self) -> &'static str {
        match self {
            Kind::Catalog => "carc_catalog",
            Kind::Game => "carc_game",
            Kind::Error => "carc_error",
            Kind::LandscapeScore => "carc_landscape_score",
            Kind::Bot => "carc_bot",
        }
    }
}

/// A Rust object handed to C behind a handle of type `Opaque`.
pub(crate) trait Object: Send + 'static {
    /// The kind its slots carry.
    const KIND: Kind;
    /// The opaque C type its handles point to.
    type Opaque;
}

/// Bits of the token that name the slot; the rest count generations.
const INDEX_BITS: u32 = if usize::BITS >= 64 { 32 } else { 20 };
/// Slots per chunk.
const CHUNK_BITS: u32 = 10;
const CHUNK_SLOTS: usize = 1 << CHUNK_BITS;
/// The most live handles: 16,777,216 on 64-bit targets, 1,048,576 on 32-bit ones.
const MAX_SLOTS: usize = 1 << (if usize::BITS >= 64 { 24 } else { INDEX_BITS });
const MAX_CHUNKS: usize = MAX_SLOTS / CHUNK_SLOTS;
const INDEX_MASK: usize = (1 << INDEX_BITS) - 1;
const GENERATIONS: usize = 1 << (usize::BITS - INDEX_BITS);

/// A slot's lock, held by whoever reads or changes the slot and its object: a call for its
/// duration, a free, the handing out of a new handle.
///
/// `parking_lot`'s raw mutex: one compare-and-swap to take and one to give back when no one
/// waits; a thread that finds the turn taken spins briefly, then sleeps in the kernel until
/// the holder wakes it. A second caller on a bot thinking for 1.7 s used 0.1 ms of CPU while
/// it waited, against 150 ms with the spin-yield-sleep lock before it (which polled every
/// 50 µs); 20,000 random games by number took the same CPU time with either (ratio 1.000,
/// 0.96 to 1.06, 15 alternated pairs), so the C ABI's speed is unchanged. Its eventual
/// fairness (a waiter parked for about half a millisecond is handed the lock directly) keeps a
/// thread calling in a tight loop from keeping another waiting for ever, such as a `_free`
/// from Unity's main thread while a job plays. Two threads on one handle are a caller's slip
/// to survive safely, not a path to make fast.
struct Turn(parking_lot::RawMutex);

impl Turn {
    const fn new() -> Turn {
        Turn(parking_lot::RawMutex::INIT)
    }

    #[inline]
    fn take(&self) -> Taken<'_> {
        self.0.lock();
        Taken(self)
    }
}

/// A taken [`Turn`], given back when dropped (also while a panic unwinds).
struct Taken<'a>(&'a Turn);

impl Drop for Taken<'_> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: a `Taken` exists only after `take` locked this mutex, on this thread, and
        // it is dropped once, so the lock is held here and given back once.
        unsafe { self.0.0.unlock() };
    }
}

/// A slot of the registry. Its fields change only in its turn; they are atomics because
/// slots are shared, not because they are read without it.
struct Slot {
    turn: Turn,
    /// The token this slot answers to; 0 while it is free (no token is 0: generations start
    /// at 1).
    token: AtomicUsize,
    /// A `Kind` as `u8`, set with the token.
    kind: AtomicU8,
    /// The boxed object, type-erased; its type is given by `kind`.
    object: AtomicPtr<()>,
    /// The generation of the last token issued for this slot.
    generation: AtomicUsize,
}

impl Slot {
    /// Takes the slot's turn, waiting for another thread's call on it to end. A panic during
    /// a call gives the turn back as it unwinds and cannot leave the slot inconsistent (its
    /// fields change only in `hand_out` and `take`, which do not panic); a game changed by a
    /// panicking call marks itself poisoned.
    #[inline]
    fn turn(&self) -> Taken<'_> {
        self.turn.take()
    }

    /// Whether the slot holds `token` for an object of kind `T`; call with the turn held.
    fn holds<T: Object>(&self, token: usize) -> bool {
        self.token.load(Ordering::Relaxed) == token
            && self.kind.load(Ordering::Relaxed) == T::KIND as u8
    }
}

struct Chunk {
    slots: [Slot; CHUNK_SLOTS],
}

static CHUNKS: [AtomicPtr<Chunk>; MAX_CHUNKS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; MAX_CHUNKS];

/// What only making and freeing handles touch.
struct Allocator {
    /// Slots freed, oldest first.
    free: VecDeque<usize>,
    /// Slots ever used; the next new slot's index.
    used: usize,
}

static ALLOCATOR: Mutex<Allocator> = Mutex::new(Allocator { free: VecDeque::new(), used: 0 });

/// Handles made and not yet freed, of every kind.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// How many handles of every kind (catalogs, games, errors, landscape scores) are live in the
/// process: made and not yet freed. A program that frees what it makes sees 0 before it exits.
/// Leak checkers cannot tell: a forgotten handle's object stays reachable from the library's
/// registry, so valgrind and LeakSanitizer report nothing; this count does.
#[unsafe(no_mangle)]
pub extern "C" fn carc_live_handles() -> usize {
    crate::boundary::value_boundary(0, || LIVE.load(Ordering::Relaxed))
}

#[inline]
fn slot(index: usize) -> Option<&'static Slot> {
    let chunk = CHUNKS.get(index >> CHUNK_BITS)?.load(Ordering::Acquire);
    // SAFETY: a non-NULL chunk pointer was made by `Box::into_raw` in `hand_out` and is never
    // freed, so it is valid for `'static`; a chunk is only read through shared references.
    let chunk = unsafe { chunk.as_ref() }?;
    chunk.slots.get(index & (CHUNK_SLOTS - 1))
}

fn allocator() -> MutexGuard<'static, Allocator> {
    // A panic while the lock was held cannot leave the allocator inconsistent: every change
    // to it is a single push, pop or increment.
    ALLOCATOR.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A free slot's index, its chunk made if it is the first of its chunk.
fn free_slot() -> Result<usize, Failure> {
    let mut allocator = allocator();
    if let Some(index) = allocator.free.pop_front() {
        return Ok(index);
    }
    let index = allocator.used;
    if index >= MAX_SLOTS {
        return Err(Failure::new(
            carc_result::TooManyHandles,
            format!("{MAX_SLOTS} handles are live; free some before making more"),
        ));
    }
    let chunk = &CHUNKS[index >> CHUNK_BITS];
    if chunk.load(Ordering::Acquire).is_null() {
        let new = Box::new(Chunk {
            slots: std::array::from_fn(|_| Slot {
                turn: Turn::new(),
                token: AtomicUsize::new(0),
                kind: AtomicU8::new(0),
                object: AtomicPtr::new(std::ptr::null_mut()),
                generation: AtomicUsize::new(0),
            }),
        });
        chunk.store(Box::into_raw(new), Ordering::Release);
    }
    allocator.used += 1;
    Ok(index)
}

/// Gives `value` a new handle.
///
/// # Errors
/// `CARC_RESULT_TOO_MANY_HANDLES` when every slot is live.
pub(crate) fn hand_out<T: Object>(value: T) -> Result<*mut T::Opaque, Failure> {
    // The allocator's lock is given back before the slot's is taken: see the module docs.
    let index = free_slot()?;
    let slot = slot(index).expect("the slot's chunk was made when it was first used");
    let _turn = slot.turn();
    let generation = match slot.generation.load(Ordering::Relaxed) + 1 {
        GENERATIONS => 1,
        next => next,
    };
    slot.generation.store(generation, Ordering::Relaxed);
    let token = generation << INDEX_BITS | index;
    slot.object.store(Box::into_raw(Box::new(value)).cast(), Ordering::Relaxed);
    slot.kind.store(T::KIND as u8, Ordering::Relaxed);
    slot.token.store(token, Ordering::Relaxed);
    LIVE.fetch_add(1, Ordering::Relaxed);
    Ok(std::ptr::without_provenance_mut(token))
}

/// The object behind a handle, held for one call: other threads' calls on the handle, and
/// its free, wait until it is dropped.
pub(crate) struct Held<T: Object> {
    object: NonNull<T>,
    _turn: Taken<'static>,
}

impl<T: Object> std::ops::Deref for Held<T> {
    type Target = T;

    fn deref(&self) -> &T {
        // SAFETY: `object` is the live `Box<T>` of a slot whose turn this `Held` holds, so
        // nobody frees or changes it while `self` lives, and `&self` lends it for less.
        unsafe { self.object.as_ref() }
    }
}

impl<T: Object> std::ops::DerefMut for Held<T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`; the turn is exclusive, so nothing else reads it either.
        unsafe { self.object.as_mut() }
    }
}

/// The object behind `handle`, held until the result is dropped; `name` names the argument
/// in messages. Any handle value is fine: NULL, freed, foreign and made-up handles are
/// refused, and a handle another thread is using is waited for.
///
/// # Errors
/// `CARC_RESULT_NULL_ARGUMENT` for NULL, `CARC_RESULT_INVALID_HANDLE` for anything but a live
/// handle of kind `T`.
pub(crate) fn borrow<T: Object>(handle: *const T::Opaque, name: &str) -> Result<Held<T>, Failure> {
    let token = handle.addr();
    if token == 0 {
        return Err(Failure::null(name));
    }
    let Some(slot) = slot(token & INDEX_MASK) else {
        return Err(not_live::<T>(None, token, name));
    };
    let turn = slot.turn();
    if !slot.holds::<T>(token) {
        let other = Kind::from_u8(slot.kind.load(Ordering::Relaxed))
            .filter(|_| slot.token.load(Ordering::Relaxed) == token);
        return Err(not_live::<T>(other, token, name));
    }
    let object = NonNull::new(slot.object.load(Ordering::Relaxed).cast::<T>())
        .ok_or_else(|| Failure::null(name))?;
    Ok(Held { object, _turn: turn })
}

/// Why `token` names no live object of kind `T`; `other` is the kind it names instead.
#[cold]
fn not_live<T: Object>(other: Option<Kind>, _token: usize, name: &str) -> Failure {
    let what = match other {
        Some(kind) => format!("a {} handle", kind.c_name()),
        None => "freed or was never made by this library".to_owned(),
    };
    Failure::new(
        carc_result::InvalidHandle,
        format!("`{name}` is {what}, not a live {} handle", T::KIND.c_name()),
    )
}

/// Ends `handle` and gives its object back; `None` for NULL or anything but a live handle of
/// kind `T`, which is left alone. A call on the handle in progress on another thread ends
/// first; later calls are refused.
pub(crate) fn take<T: Object>(handle: *mut T::Opaque) -> Option<Box<T>> {
    let token = handle.addr();
    if token == 0 {
        return None;
    }
    let slot = slot(token & INDEX_MASK)?;
    let object = {
        let _turn = slot.turn();
        if !slot.holds::<T>(token) {
            return None;
        }
        slot.token.store(0, Ordering::Relaxed);
        slot.kind.store(0, Ordering::Relaxed);
        slot.object.swap(std::ptr::null_mut(), Ordering::Relaxed).cast::<T>()
    };
    allocator().free.push_back(token & INDEX_MASK);
    LIVE.fetch_sub(1, Ordering::Relaxed);
    // SAFETY: the slot was live and of kind `T`, so `object` came from `Box::into_raw` of a
    // `Box<T>` in `hand_out`, and clearing the slot in its turn made this the only owner.
    Some(unsafe { Box::from_raw(object) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    struct Thing(u32);
    struct OpaqueThing;
    impl Object for Thing {
        const KIND: Kind = Kind::Catalog;
        type Opaque = OpaqueThing;
    }

    struct Other;
    struct OpaqueOther;
    impl Object for Other {
        const KIND: Kind = Kind::Game;
        type Opaque = OpaqueOther;
    }

    fn code<T>(result: Result<T, Failure>) -> carc_result {
        result.err().map_or(carc_result::Ok, |failure| failure.code)
    }

    /// A thread calling in a tight loop on a handle cannot keep another waiting for ever: after
    /// 1 ms the waiter starves and is served before the looping thread's next call. (Without
    /// that, the free below waited about 8 s on two busy cores; with it, under 10 ms.)
    #[test]
    fn a_tight_loop_cannot_keep_a_free_waiting() {
        use std::sync::atomic::AtomicBool;

        let thing = hand_out(Thing(5)).unwrap();
        let token = thing.addr();
        let done = std::sync::Arc::new(AtomicBool::new(false));
        let looping = {
            let done = std::sync::Arc::clone(&done);
            std::thread::spawn(move || {
                let deadline = Instant::now() + Duration::from_secs(30);
                let handle = std::ptr::without_provenance::<OpaqueThing>(token);
                let mut calls = 0u64;
                while !done.load(Ordering::Relaxed) && Instant::now() < deadline {
                    if let Ok(held) = borrow::<Thing>(handle, "x") {
                        // A call's worth of work, the turn held.
                        std::hint::black_box(held.0);
                        std::thread::sleep(Duration::from_micros(20));
                    }
                    calls += 1;
                }
                calls
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        let start = Instant::now();
        assert_eq!(take::<Thing>(thing).map(|thing| thing.0), Some(5));
        let waited = start.elapsed();
        done.store(true, Ordering::Relaxed);
        let calls = looping.join().unwrap();
        assert!(calls > 0);
        println!("the free waited {waited:?} while the loop made {calls} calls");
        assert!(waited < Duration::from_secs(2), "the free waited {waited:?}");
    }

    #[test]
    fn a_freed_handle_is_refused_and_its_slot_gets_a_new_token() {
        let first = hand_out(Thing(7)).unwrap();
        assert_eq!(borrow::<Thing>(first, "x").unwrap().0, 7);
        assert_eq!(take::<Thing>(first).map(|thing| thing.0), Some(7));
        assert_eq!(code(borrow::<Thing>(first, "x")), carc_result::InvalidHandle);
        assert!(take::<Thing>(first).is_none());
        let second = hand_out(Thing(8)).unwrap();
        assert_ne!(first.addr(), second.addr());
        assert_eq!(code(borrow::<Thing>(first, "x")), carc_result::InvalidHandle);
        drop(take::<Thing>(second));
    }

    #[test]
    fn a_handle_of_another_kind_null_and_garbage_are_refused() {
        let thing = hand_out(Thing(1)).unwrap();
        let as_other = std::ptr::without_provenance::<OpaqueOther>(thing.addr());
        let failure = borrow::<Other>(as_other, "game").err().unwrap();
        assert_eq!(failure.code, carc_result::InvalidHandle);
        assert!(failure.message.contains("a carc_catalog handle"), "{}", failure.message);
        assert!(take::<Other>(as_other.cast_mut()).is_none());
        let null = borrow::<Thing>(std::ptr::null(), "x");
        assert_eq!(code(null), carc_result::NullArgument);
        for garbage in [1usize, 0xdead_beef, usize::MAX, thing.addr() ^ 1 << INDEX_BITS] {
            let garbage = std::ptr::without_provenance::<OpaqueThing>(garbage);
            assert_eq!(code(borrow::<Thing>(garbage, "x")), carc_result::InvalidHandle);
        }
        drop(take::<Thing>(thing));
    }
}
