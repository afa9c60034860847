//! The search's candidate dual steps in one monotone priority queue (a radix heap).
//!
//! Every event is keyed by twice the total step (`offset`) at which it happens, and no event
//! is ever queued for a time already passed: the queue's least key only grows during a
//! search. A radix heap exploits that. Keys go to bucket `i` by the highest bit in which they
//! differ from the last least key; only the lowest non-empty bucket is ever searched for the
//! least key and redistributed into the buckets below, so each entry moves a few times
//! instead of sifting through a binary heap of a million entries (the stale ones included)
//! at every pop: binary heaps took a fifth of a 10,000-player round (EXPERIMENTS.md).
//!
//! Entries of one key come out in payload order, as from a binary heap of `(key, payload)`:
//! the search takes its steps in the same order as before.

use super::Weight;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What an event is about: (kind, then its vertex, blossom or edge ids), ordered as the
/// search prefers among events of one time.
pub(super) type Event = (u8, u32, u32);

/// Entries a bucket emptied by `peek` keeps room for.
const KEEP: usize = 1024;

pub(super) struct Events<W> {
    /// The least key found last (every queued key is at least it).
    last: W,
    /// Entries with key `last`, by payload.
    here: BinaryHeap<Reverse<Event>>,
    /// Bucket i: entries whose key first differs from `last` at bit i − 1 (counted from 0).
    buckets: Vec<Vec<(W, Event)>>,
    /// Which buckets are not empty, 64 to a word.
    filled: Vec<u64>,
}

impl<W: Weight> Events<W> {
    pub(super) fn new() -> Self {
        let n = W::WIDTH as usize + 1;
        Events {
            last: W::zero(),
            here: BinaryHeap::new(),
            buckets: (0..n).map(|_| Vec::new()).collect(),
            filled: vec![0; n.div_ceil(64)],
        }
    }

    /// Empties the queue for a new search (whose keys start again from 0).
    pub(super) fn clear(&mut self) {
        self.here.clear();
        for (w, word) in self.filled.iter_mut().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                if self.buckets[i].capacity() <= KEEP {
                    self.buckets[i].clear();
                } else {
                    self.buckets[i] = Vec::new();
                }
                bits &= bits - 1;
            }
            *word = 0;
        }
        self.last = W::zero();
    }

    pub(super) fn push(&mut self, key: W, event: Event) {
        debug_assert!(
            key >= self.last,
            "an event queued for a time already passed"
        );
        let i = key.differing_bits(&self.last) as usize;
        if i == 0 {
            self.here.push(Reverse(event));
        } else {
            if self.buckets[i].is_empty() {
                self.filled[i / 64] |= 1 << (i % 64);
            }
            self.buckets[i].push((key, event));
        }
    }

    /// The least key and its first event, if any.
    pub(super) fn peek(&mut self) -> Option<(W, Event)> {
        if self.here.is_empty() {
            let i = self.lowest_filled()?;
            let bucket = std::mem::take(&mut self.buckets[i]);
            self.filled[i / 64] &= !(1 << (i % 64));
            self.last = *bucket
                .iter()
                .map(|(k, _)| k)
                .min()
                .expect("a filled bucket");
            let mut bucket = bucket;
            for (key, event) in bucket.drain(..) {
                self.push(key, event);
            }
            // A small emptied bucket keeps its room for later keys; a large one gives it
            // back (the buckets' largest sizes together would hold far more than the queue).
            if bucket.capacity() <= KEEP {
                self.buckets[i] = bucket;
            }
        }
        self.here.peek().map(|Reverse(event)| (self.last, *event))
    }

    /// Drops the event `peek` returned.
    pub(super) fn pop(&mut self) {
        self.here.pop();
    }

    fn lowest_filled(&self) -> Option<usize> {
        self.filled
            .iter()
            .enumerate()
            .find(|(_, &word)| word != 0)
            .map(|(w, &word)| w * 64 + word.trailing_zeros() as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::Rng;
    use super::*;

    /// Interleaved pushes (never below the last least key) and pops come out exactly as from
    /// a binary heap of (key, event), ties by event.
    #[test]
    fn events_come_out_as_from_a_binary_heap() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..200 {
            let mut q: Events<i64> = Events::new();
            let mut h: BinaryHeap<Reverse<(i64, Event)>> = BinaryHeap::new();
            let mut floor = 0i64;
            let spread = [4, 1 << 10, 1 << 40][round % 3];
            for _ in 0..500 {
                if rng.next(3) != 0 {
                    let key = floor + rng.next(spread) as i64;
                    let event = (rng.next(3) as u8, rng.next(5) as u32, rng.next(5) as u32);
                    q.push(key, event);
                    h.push(Reverse((key, event)));
                } else {
                    let want = h.peek().map(|Reverse(x)| *x);
                    assert_eq!(q.peek(), want);
                    if let Some((key, _)) = want {
                        floor = key;
                        q.pop();
                        h.pop();
                    }
                }
            }
            if round % 2 == 0 {
                q.clear();
                h.clear();
                q.push(3, (0, 0, 0));
                h.push(Reverse((3, (0, 0, 0))));
            }
            while let Some(Reverse(x)) = h.pop() {
                assert_eq!(q.peek(), Some(x));
                q.pop();
            }
            assert_eq!(q.peek(), None);
        }
    }
}
