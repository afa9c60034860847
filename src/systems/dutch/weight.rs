//! Exact lexicographic edge weights: the criteria of a bracket packed into one integer, each
//! criterion a field wide enough that no sum of lower fields reaches a unit of it.

pub use crate::algo::Weight;

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

    /// Bits of the fields pushed so far.
    pub fn bits_so_far(&self) -> u32 {
        self.widths.iter().sum()
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

    /// Bits of all the fields (set by [`Layout::finish`]).
    pub fn total_bits(&self) -> u32 {
        self.total
    }

    /// One unit of the field above `f` (the fields from `f` down add up to less).
    pub fn above<W: Weight>(&self, f: Field) -> W {
        W::ONE.shl(self.offsets[f.0] + self.widths[f.0])
    }

    /// `v` units of field `f`.
    pub fn unit<W: Weight>(&self, f: Field, v: i64) -> W {
        W::from_i64_shl(v, self.offsets[f.0])
    }
}

/// Builds one weight field by field.
pub struct Builder<'a, W: Weight> {
    layout: &'a Layout,
    value: W,
}

impl<'a, W: Weight> Builder<'a, W> {
    /// A weight of zero, to be set field by field under `layout`.
    pub fn new(layout: &'a Layout) -> Self {
        Builder {
            layout,
            value: W::zero(),
        }
    }
    /// Adds `v` units of field `f`.
    pub fn set(&mut self, f: Field, v: i64) {
        if v != 0 {
            self.value = self.value.add(&self.layout.unit(f, v));
        }
    }
    /// Sets a field the layout may leave out (then the value must not matter).
    pub fn set_opt(&mut self, f: Option<Field>, v: i64) {
        if let Some(f) = f {
            self.set(f, v);
        }
    }
    /// The weight built.
    pub fn done(self) -> W {
        self.value
    }
}
