//! Rates: a token bucket, and buckets by key (an address, a session) in a map bounded in size,
//! for every limit that counts how often rather than how many.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A rate and a burst: `per_second` on average, `burst` at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

impl Rate {
    /// `per_second` on average, `burst` at once.
    pub const fn new(per_second: f64, burst: f64) -> Rate {
        Rate { per_second, burst }
    }
}

/// A token bucket: full at first, one token taken a time, refilled at the rate.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    rate: Rate,
    last: Instant,
    /// When the last refusal was told: one a second at most, so the answers to a flood do not
    /// flood back.
    warned: Option<Instant>,
}

impl Bucket {
    pub fn new(rate: Rate) -> Bucket {
        Bucket { tokens: rate.burst, rate, last: Instant::now(), warned: None }
    }

    fn refill(&mut self, now: Instant) {
        let earned = now.saturating_duration_since(self.last).as_secs_f64() * self.rate.per_second;
        self.tokens = (self.tokens + earned).min(self.rate.burst);
        self.last = now;
    }

    /// Takes a token if there is one.
    pub fn take(&mut self) -> bool {
        self.refill(Instant::now());
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Takes a token if there is one; else owes one, down to a debt of a whole burst, so
    /// that a key that goes on asking past its rate waits longer, not less, and is
    /// [`Buckets::is_refusing`] until it has paid.
    pub fn take_or_owe(&mut self) -> bool {
        if self.take() {
            return true;
        }
        self.tokens = (self.tokens - 1.0).max(-self.rate.burst);
        false
    }

    /// How long until a token is back (zero when one is there).
    pub fn wait(&self) -> Duration {
        let missing = (1.0 - self.tokens).max(0.0);
        if self.rate.per_second > 0.0 {
            Duration::from_secs_f64((missing / self.rate.per_second).min(86_400.0))
        } else {
            Duration::from_secs(86_400)
        }
    }

    /// Whether a refusal should be told now (at most one a second).
    pub fn should_warn(&mut self) -> bool {
        let now = Instant::now();
        if self.warned.is_some_and(|then| now.duration_since(then) < Duration::from_secs(1)) {
            return false;
        }
        self.warned = Some(now);
        true
    }

    /// Whether the bucket has refilled whole: it then says nothing a new one would not.
    fn is_full_at(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.rate.burst
    }
}

/// Why a keyed bucket refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Refused {
    /// The rate that refused.
    pub rate: Rate,
    /// How long until one more is allowed.
    pub retry_after: Duration,
    /// Whether this refusal is the first in a second (the others are best not answered).
    pub tell: bool,
}

/// Buckets by key, all at one rate. A key's bucket is forgotten once it refills whole (it
/// then counts as new), so the map holds only keys that were busy lately; past `most` keys,
/// the full ones go first, and when none is full a new key shares a bucket of keys that
/// overflowed, which is refused sooner, never later.
pub struct Buckets<K> {
    rate: Rate,
    most: usize,
    inner: Mutex<Inner<K>>,
}

struct Inner<K> {
    buckets: HashMap<K, Bucket>,
    /// The bucket of keys that found the map full.
    overflow: Bucket,
}

impl<K: Hash + Eq + Clone> Buckets<K> {
    /// Buckets at `rate`, at most `most` of them kept.
    pub fn new(rate: Rate, most: usize) -> Buckets<K> {
        Buckets {
            rate,
            most: most.max(1),
            inner: Mutex::new(Inner { buckets: HashMap::new(), overflow: Bucket::new(rate) }),
        }
    }

    /// Takes one for `key`, or says why not.
    pub fn take(&self, key: &K) -> Result<(), Refused> {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let Inner { buckets, overflow } = &mut *inner;
        if !buckets.contains_key(key) && buckets.len() >= self.most {
            let now = Instant::now();
            buckets.retain(|_, bucket| !bucket.is_full_at(now));
        }
        let bucket = if buckets.contains_key(key) || buckets.len() < self.most {
            buckets.entry(key.clone()).or_insert_with(|| Bucket::new(self.rate))
        } else {
            overflow
        };
        if bucket.take_or_owe() {
            Ok(())
        } else {
            Err(Refused { rate: self.rate, retry_after: bucket.wait(), tell: bucket.should_warn() })
        }
    }

    /// Whether `key` is in debt now (taking nothing): it was refused and has not yet earned
    /// back what it asked for meanwhile. A key only just out of tokens is not: its next
    /// request is refused in the words of its protocol.
    pub fn is_refusing(&self, key: &K) -> bool {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.buckets.get_mut(key).is_some_and(|bucket| {
            bucket.refill(Instant::now());
            bucket.tokens < 0.0
        })
    }

    /// Forgets the buckets that have refilled whole.
    pub fn prune(&self) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        inner.buckets.retain(|_, bucket| !bucket.is_full_at(now));
    }

    /// Keys held now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner).buckets.len()
    }
}

/// The most keys one limit keeps buckets for (a few megabytes at most).
const KEYS: usize = 65_536;

/// The server's rates by address and by session.
pub struct Rates {
    /// HTTP requests by address.
    pub http: Buckets<std::net::IpAddr>,
    /// `CONNECT`s by address.
    pub connects: Buckets<std::net::IpAddr>,
    /// Reconnections by session (player id), counted only with the session's token, so that
    /// nobody can spend another's.
    pub reconnects: Buckets<String>,
    /// Room moves by session.
    pub room_moves: Buckets<String>,
}

impl Rates {
    pub fn new(limits: &crate::config::Limits) -> Rates {
        Rates {
            http: Buckets::new(limits.http_requests, KEYS),
            connects: Buckets::new(limits.connects_per_address, KEYS),
            reconnects: Buckets::new(limits.reconnects_per_session, KEYS),
            room_moves: Buckets::new(limits.room_moves_per_session, KEYS),
        }
    }

    /// Forgets what has refilled.
    pub fn prune(&self) {
        self.http.prune();
        self.connects.prune();
        self.reconnects.prune();
        self.room_moves.prune();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let mut bucket = Bucket::new(Rate::new(1000.0, 3.0));
        assert!(bucket.take() && bucket.take() && bucket.take());
        assert!(!bucket.take(), "the burst is spent");
        assert!(bucket.wait() <= Duration::from_millis(1));
        std::thread::sleep(Duration::from_millis(5));
        assert!(bucket.take(), "refilled at the rate");
        assert!(bucket.should_warn());
        assert!(!bucket.should_warn(), "one warning a second");
    }

    #[test]
    fn keys_have_buckets_of_their_own_and_the_map_stays_bounded() {
        let buckets = Buckets::new(Rate::new(0.001, 2.0), 3);
        for key in 0..3 {
            assert_eq!(buckets.take(&key), Ok(()));
            assert_eq!(buckets.take(&key), Ok(()));
            assert!(buckets.take(&key).is_err(), "key {key} spent its burst");
        }
        // The map is full of busy keys: a new one shares the overflow bucket.
        assert_eq!(buckets.take(&10), Ok(()));
        assert_eq!(buckets.take(&11), Ok(()));
        let refused = buckets.take(&12).expect_err("the overflow bucket is spent too");
        assert!(refused.retry_after > Duration::from_secs(60));
        assert_eq!(buckets.len(), 3);
    }

    #[test]
    fn a_key_that_asks_past_its_rate_owes_and_is_refused_until_it_has_paid() {
        let buckets = Buckets::new(Rate::new(100.0, 2.0), 8);
        assert_eq!(buckets.take(&"a"), Ok(()));
        assert_eq!(buckets.take(&"a"), Ok(()));
        assert!(!buckets.is_refusing(&"a"), "out of tokens, not in debt");
        let first = buckets.take(&"a").expect_err("past the burst");
        assert!(buckets.is_refusing(&"a"), "in debt");
        for _ in 0..10 {
            let _ = buckets.take(&"a");
        }
        let later = buckets.take(&"a").expect_err("still past it");
        assert!(later.retry_after > first.retry_after, "the debt makes the wait longer");
        assert!(later.retry_after <= Duration::from_millis(31), "at most a burst owed");
        std::thread::sleep(Duration::from_millis(40));
        assert!(!buckets.is_refusing(&"a"));
        assert_eq!(buckets.take(&"a"), Ok(()));
    }

    #[test]
    fn a_refilled_bucket_is_forgotten() {
        let buckets = Buckets::new(Rate::new(1000.0, 1.0), 8);
        assert_eq!(buckets.take(&"a"), Ok(()));
        std::thread::sleep(Duration::from_millis(5));
        buckets.prune();
        assert_eq!(buckets.len(), 0);
    }
}
