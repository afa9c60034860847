//! Exact weights: `i64`, `i128` and [`crate::fixed::Fixed`] (the Dutch procedure's widths;
//! at 512 bits, [`Wide`], the tier model's).
//!
//! The trait is [`crate::algo::Weight`], below the systems that pack their criteria into it;
//! the algorithm's values stay within a few times the largest total weight.

pub use crate::algo::Weight;

/// A 512-bit two's-complement integer ([`crate::fixed::F512`], the Dutch procedure's
/// integers at one width): lexicographic tier weights of several hundred bits, folded exactly.
/// A fixed width keeps weights `Copy`-sized and allocation-free, which an arbitrary-precision
/// integer would not.
pub type Wide = crate::fixed::F512;

/// An `i128` as a [`Wide`].
pub fn wide(x: i128) -> Wide {
    Wide::from_i128(x)
}
