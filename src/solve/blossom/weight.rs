//! Exact weights: `i64`, `i128` and [`crate::fixed::Fixed`] (the Dutch procedure's widths;
//! at 512 bits, [`Wide`], the tier model's).
//!
//! Every operation checks for overflow and panics rather than wrap: a matching computed on a
//! wrapped weight would be silently wrong, and the callers size their weights so that overflow
//! never happens (the algorithm's values stay within a few times the largest total weight).

/// An exact, totally ordered weight (an ordered abelian group); the algorithm doubles weights
/// internally, so it only needs add, sub, comparisons and zero.
pub trait Weight: Clone + Ord + std::fmt::Debug + Send + Sync + 'static {
    fn zero() -> Self;
    fn add(&self, other: &Self) -> Self;
    fn sub(&self, other: &Self) -> Self;
    /// 2·self.
    fn double(&self) -> Self;
    /// Exact self/2 where self is even (the algorithm only halves even values).
    fn half(&self) -> Self;
    /// The bits of the two's complement forms of self and other up to and including the
    /// highest one where they differ (0 when equal): a key's bucket in the search's event
    /// queue ([`super::queue::Events`]).
    fn differing_bits(&self, other: &Self) -> u32;
    /// Width in bits: the event queue's buckets.
    const WIDTH: u32;
}

macro_rules! primitive {
    ($t:ty) => {
        impl Weight for $t {
            fn zero() -> Self {
                0
            }
            fn add(&self, other: &Self) -> Self {
                self.checked_add(*other).expect("matching weight overflow")
            }
            fn sub(&self, other: &Self) -> Self {
                self.checked_sub(*other).expect("matching weight overflow")
            }
            fn double(&self) -> Self {
                self.checked_mul(2).expect("matching weight overflow")
            }
            fn half(&self) -> Self {
                debug_assert!(self % 2 == 0, "halving an odd weight");
                self / 2
            }
            fn differing_bits(&self, other: &Self) -> u32 {
                <$t>::BITS - (self ^ other).leading_zeros()
            }
            const WIDTH: u32 = <$t>::BITS;
        }
    };
}

primitive!(i64);
primitive!(i128);

/// A 512-bit two's-complement integer ([`crate::fixed::F512`], the Dutch procedure's
/// integers at one width): lexicographic tier weights of several hundred bits, folded exactly.
/// A fixed width keeps weights `Copy`-sized and allocation-free, which an arbitrary-precision
/// integer would not.
pub type Wide = crate::fixed::F512;

/// The Dutch procedure's widths ([`crate::fixed::Fixed`]).
impl<const L: usize> Weight for crate::fixed::Fixed<L> {
    fn zero() -> Self {
        Self::ZERO
    }
    fn add(&self, other: &Self) -> Self {
        crate::fixed::Fixed::add(self, other)
    }
    fn sub(&self, other: &Self) -> Self {
        crate::fixed::Fixed::sub(self, other)
    }
    fn double(&self) -> Self {
        crate::fixed::Fixed::add(self, self)
    }
    fn half(&self) -> Self {
        // An arithmetic shift is exact on even values, negative ones included.
        self.shr(1)
    }
    fn differing_bits(&self, other: &Self) -> u32 {
        crate::fixed::Fixed::differing_bits(self, other)
    }
    const WIDTH: u32 = 64 * L as u32;
}

/// An `i128` as a [`Wide`].
pub fn wide(x: i128) -> Wide {
    Wide::from_i128(x)
}
