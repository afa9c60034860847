//! The algorithms' side of the contract with the systems, below both: the integers a
//! system packs its lexicographic criteria into ([`Weight`], on [`crate::fixed`]) and the
//! exact maximum-weight matching it asks questions of ([`Matcher`], [`Matchers`]). A system
//! states its weights and questions through these traits; `solve` answers them
//! (`solve::bracket`), so neither imports the other.

use crate::fixed as F;
use std::fmt::Debug;

/// An exact, totally ordered integer weight: what a system packs its lexicographic criteria
/// into and what the exact matching computes with (it doubles weights and halves even
/// values, so it needs add, sub, comparisons and zero). Every operation but shifts checks for
/// overflow and panics rather than wrap: a matching computed on a wrapped weight would be
/// silently wrong, and callers size their weights ([`Weight::SAFE_BITS`]) so that it never
/// happens.
pub trait Weight: Copy + Ord + Debug + Send + Sync + 'static {
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Width in bits (the matching's event queue has a bucket per bit).
    const WIDTH: u32;
    /// Bits a packed value may use: the matching doubles weights and sums duals above them.
    const SAFE_BITS: u32;
    /// Zero (as [`Weight::ZERO`]).
    fn zero() -> Self {
        Self::ZERO
    }
    /// `v` as a weight.
    fn from_i64(v: i64) -> Self;
    /// `self · 2^bits`.
    fn shl(&self, bits: u32) -> Self;
    /// `v · 2^bits` (a field's unit times its value).
    fn from_i64_shl(v: i64, bits: u32) -> Self {
        Self::from_i64(v).shl(bits)
    }
    /// `self + other` (panics on overflow).
    fn add(&self, other: &Self) -> Self;
    /// `self − other` (panics on overflow).
    fn sub(&self, other: &Self) -> Self;
    /// `2 · self`.
    fn double(&self) -> Self {
        self.add(self)
    }
    /// Exact `self / 2` where `self` is even (only even values are halved).
    fn half(&self) -> Self;
    /// The bits of the two's complement forms of `self` and `other` up to and including the
    /// highest one where they differ (0 when equal): a key's bucket in the event queue.
    fn differing_bits(&self, other: &Self) -> u32;
    /// The value when it fits in an `i128`, else `i128::MAX` or `i128::MIN` by its sign.
    fn saturating_i128(&self) -> i128;
}

macro_rules! primitive {
    ($t:ty, $safe:expr) => {
        impl Weight for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const WIDTH: u32 = <$t>::BITS;
            const SAFE_BITS: u32 = $safe;
            fn from_i64(v: i64) -> Self {
                v.into()
            }
            fn shl(&self, bits: u32) -> Self {
                self << bits
            }
            fn add(&self, o: &Self) -> Self {
                self.checked_add(*o).expect("matching weight overflow")
            }
            fn sub(&self, o: &Self) -> Self {
                self.checked_sub(*o).expect("matching weight overflow")
            }
            fn double(&self) -> Self {
                self.checked_mul(2).expect("matching weight overflow")
            }
            fn half(&self) -> Self {
                debug_assert!(self % 2 == 0, "halving an odd weight");
                self / 2
            }
            fn differing_bits(&self, o: &Self) -> u32 {
                <$t>::BITS - (self ^ o).leading_zeros()
            }
            fn saturating_i128(&self) -> i128 {
                (*self).into()
            }
        }
    };
}

primitive!(i64, 40);
primitive!(i128, 100);

/// The wide widths: [`crate::fixed::Fixed`] of `64·L` bits, 16 of them kept as headroom.
impl<const L: usize> Weight for F::Fixed<L> {
    const ZERO: Self = Self::ZERO;
    const ONE: Self = Self::ONE;
    const WIDTH: u32 = 64 * L as u32;
    const SAFE_BITS: u32 = 64 * L as u32 - 16;
    fn from_i64(v: i64) -> Self {
        Self::from_i64(v)
    }
    fn shl(&self, bits: u32) -> Self {
        F::Fixed::shl(self, bits)
    }
    fn from_i64_shl(v: i64, bits: u32) -> Self {
        F::Fixed::from_i64_shl(v, bits)
    }
    fn add(&self, o: &Self) -> Self {
        F::Fixed::add(self, o)
    }
    fn sub(&self, o: &Self) -> Self {
        F::Fixed::sub(self, o)
    }
    fn half(&self) -> Self {
        // An arithmetic shift is exact on even values, negative ones included.
        self.shr(1)
    }
    fn differing_bits(&self, o: &Self) -> u32 {
        F::Fixed::differing_bits(self, o)
    }
    fn saturating_i128(&self) -> i128 {
        F::Fixed::saturating_i128(self)
    }
}

/// An exact maximum-weight matching kept between solves, supplied by the solver: the
/// procedure changes a few weights or removes paired players, then asks again. Read from
/// several threads at once after a solve (pricing), hence `Sync`.
pub trait Matcher<W>: Sync {
    /// A graph on vertices `0..n`; edge ids are positions in `edges`.
    fn start(&mut self, n: usize, edges: &[(usize, usize, W)]);
    /// After `start`: sets edge `edge`'s weight to `w` (the next solve repairs what it breaks).
    fn set_weight(&mut self, edge: usize, w: W);
    /// Adds an edge after a solve (the next solve repairs what it breaks); its id.
    fn add_edge(&mut self, a: usize, b: usize, w: W) -> usize;
    /// After a solve: the reduced cost a pair of weight `w` between `a` and `b` would have,
    /// in the graph or not (as [`Matcher::reduced_cost`]).
    fn pair_reduced_cost(&self, a: usize, b: usize, w: W) -> Option<W>;
    /// After a solve: [`Matcher::pair_reduced_cost`] when it is negative (the pair is not
    /// covered by the duals), else `None`.
    fn pair_violation(&self, a: usize, b: usize, w: W) -> Option<W>;
    /// After a solve: whether pairs at `v` may have lost reduced cost since the solve before
    /// (true after the first).
    fn lowered(&self, v: usize) -> bool;
    /// After a solve: vertex `v`'s dual, in the units of [`Matcher::pair_reduced_cost`]: a pair
    /// of weight `w` at `a` and `b` has a reduced cost of at least `dual(a) + dual(b) − 2·w`
    /// (the duals of blossoms holding both only add).
    fn vertex_dual(&self, v: usize) -> Option<W>;
    /// After a solve: two blossoms holding `v`, each with the sum Z of its dual and those
    /// above it (same units); `None` when v is in none. A pair of v and another player in one
    /// of them has a reduced cost of at least `dual(a) + dual(b) + Z − 2·w`. The first is the
    /// one where that bound is exact, the second the top blossom.
    fn blossoms_of(&self, v: usize) -> Option<[(usize, W); 2]>;
    /// After a solve: the duals of the blossoms holding both `a` and `b`, summed (same
    /// units; zero when none does).
    fn shared_dual(&self, a: usize, b: usize) -> Option<W>;
    /// After `start`: the first solve keeps the vertex's dual at `y` or above (same units).
    fn set_floor(&mut self, v: usize, y: W);
    /// Drops the current matching and duals: the next solve starts afresh on the weights
    /// then set (when nearly every weight is about to change).
    fn forget(&mut self);
    /// The vertex and its edges leave the graph (a player paired for good).
    fn remove_vertex(&mut self, v: usize);
    /// After a solve: the edges leave the graph (pairs in no optimum left to find).
    fn remove_edges(&mut self, edges: &[usize]);
    /// An optimal matching of the current graph: `mate[v]`.
    fn solve(&mut self) -> Vec<Option<usize>>;
    /// [`Matcher::solve`] unless `cancel` (asked during the solve, so that a deadline stops
    /// a long matching) says stop first: then `None`, nothing proved.
    fn solve_until(&mut self, cancel: &dyn Fn() -> bool) -> Option<Vec<Option<usize>>> {
        let _ = cancel;
        Some(self.solve())
    }
    /// Bracket `done + 1` of about `of` begins (for a progress line; nothing by default).
    fn bracket_begun(&mut self, done: usize, of: usize) {
        let _ = (done, of);
    }
    /// A maximum-weight matching of a separate graph, solved on its own (the completion of
    /// the players below a bracket).
    fn side(&mut self, n: usize, edges: &[(usize, usize, i64)]) -> Vec<Option<usize>>;
    /// After a solve: the edge's reduced cost under the optimal duals, in units of twice its
    /// weight (vertex duals plus the duals of the blossoms holding both ends, minus 2·w).
    fn reduced_cost(&self, edge: usize) -> Option<W>;
}

/// Every integer width the procedure may pack a bracket's criteria into: the solver provides
/// a matching for each.
pub trait Matchers:
    Matcher<i128>
    + Matcher<F::F256>
    + Matcher<F::F320>
    + Matcher<F::F384>
    + Matcher<F::F512>
    + Matcher<F::F1024>
    + Matcher<F::F4096>
{
}
impl<T> Matchers for T where
    T: Matcher<i128>
        + Matcher<F::F256>
        + Matcher<F::F320>
        + Matcher<F::F384>
        + Matcher<F::F512>
        + Matcher<F::F1024>
        + Matcher<F::F4096>
{
}
