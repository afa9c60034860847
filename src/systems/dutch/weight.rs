//! Exact lexicographic edge weights: the criteria of a bracket packed into one integer, each
//! criterion a field wide enough that no sum of lower fields reaches a unit of it.

use std::fmt::Debug;

/// The integer a bracket's weights are packed in. Only what packing and the matching need.
pub trait Packed: Copy + Ord + Debug + Send + Sync + 'static {
    const ZERO: Self;
    const ONE: Self;
    fn zero() -> Self {
        Self::ZERO
    }
    fn from_i64(v: i64) -> Self;
    /// `self · 2^bits`.
    fn shl(&self, bits: u32) -> Self;
    fn add(&self, other: &Self) -> Self;
    fn sub(&self, other: &Self) -> Self;
    /// `self / 2` (the matching halves only even values).
    fn half(&self) -> Self;
    /// Bits this type holds safely (the matching doubles weights and sums duals).
    const BITS: u32;
}

impl Packed for i128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn from_i64(v: i64) -> Self {
        i128::from(v)
    }
    fn shl(&self, bits: u32) -> Self {
        self << bits
    }
    fn add(&self, o: &Self) -> Self {
        self + o
    }
    fn sub(&self, o: &Self) -> Self {
        self - o
    }
    fn half(&self) -> Self {
        self / 2
    }
    const BITS: u32 = 100;
}

macro_rules! packed_bnum {
    ($t:ty, $bits:expr) => {
        impl Packed for $t {
            const ZERO: Self = <$t>::from_le_bytes([0; std::mem::size_of::<$t>()]);
            const ONE: Self = {
                let mut b = [0; std::mem::size_of::<$t>()];
                b[0] = 1;
                <$t>::from_le_bytes(b)
            };
            fn from_i64(v: i64) -> Self {
                <$t as bnum::cast::CastFrom<i64>>::cast_from(v)
            }
            fn shl(&self, bits: u32) -> Self {
                *self << bits
            }
            fn add(&self, o: &Self) -> Self {
                *self + *o
            }
            fn sub(&self, o: &Self) -> Self {
                *self - *o
            }
            fn half(&self) -> Self {
                *self >> 1u32
            }
            const BITS: u32 = $bits;
        }
    };
}
packed_bnum!(bnum::types::I256, 240);
packed_bnum!(bnum::types::I512, 496);
packed_bnum!(bnum::types::I1024, 1008);
packed_bnum!(bnum::types::I4096, 4080);

/// Bits needed for values up to `v`.
pub fn bits_for(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// Field layout: fields from the most significant down, each with its width in bits.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    widths: Vec<u32>,
    offsets: Vec<u32>,
    total: u32,
}

/// A handle on one field of a [`Layout`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field(usize);

impl Layout {
    /// Adds a field below the ones already added.
    pub fn push(&mut self, width: u32) -> Field {
        self.widths.push(width);
        Field(self.widths.len() - 1)
    }

    /// Fixes the offsets (the last field pushed is the least significant).
    pub fn finish(&mut self) {
        let mut off = 0;
        self.offsets = vec![0; self.widths.len()];
        for i in (0..self.widths.len()).rev() {
            self.offsets[i] = off;
            off += self.widths[i];
        }
        self.total = off;
    }

    pub fn total_bits(&self) -> u32 {
        self.total
    }

    /// `v` units of field `f`.
    pub fn unit<W: Packed>(&self, f: Field, v: i64) -> W {
        W::from_i64(v).shl(self.offsets[f.0])
    }
}

/// Builds one weight field by field.
pub struct Builder<'a, W: Packed> {
    layout: &'a Layout,
    value: W,
}

impl<'a, W: Packed> Builder<'a, W> {
    pub fn new(layout: &'a Layout) -> Self {
        Builder {
            layout,
            value: W::zero(),
        }
    }
    pub fn set(&mut self, f: Field, v: i64) {
        if v != 0 {
            self.value = self.value.add(&self.layout.unit(f, v));
        }
    }
    pub fn done(self) -> W {
        self.value
    }
}
