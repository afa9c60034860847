//! Exact maximum-weight matchings for systems that settle a round bracket by bracket (the
//! Dutch system): the system packs its criteria into integer weights, this module matches.
//! It knows no system: a graph and weights in, mates out.

use crate::systems::dutch::procedure::Matcher;
use crate::systems::dutch::weight::Packed;

/// Matches with the exact primal–dual blossom algorithm and counts the solves.
#[derive(Debug, Default)]
pub struct ExactMatcher {
    pub solves: usize,
    pub edges: usize,
}

/// A packed weight as the blossom implementation's weight type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Dense<W>(W);

impl<W: Packed> std::ops::Add for Dense<W> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Dense(self.0.add(&o.0))
    }
}
impl<W: Packed> std::ops::Sub for Dense<W> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Dense(self.0.sub(&o.0))
    }
}
impl<W: Packed> std::ops::AddAssign for Dense<W> {
    fn add_assign(&mut self, o: Self) {
        self.0 = self.0.add(&o.0);
    }
}
impl<W: Packed> std::ops::SubAssign for Dense<W> {
    fn sub_assign(&mut self, o: Self) {
        self.0 = self.0.sub(&o.0);
    }
}
impl<W: Packed> integer_blossom::Weight for Dense<W> {
    const ZERO: Self = Dense(W::ZERO);
    const ONE: Self = Dense(W::ONE);
    fn inf() -> Self {
        Dense(W::from_i64(1).shl(W::BITS))
    }
    fn double(self) -> Self {
        Dense(self.0.add(&self.0))
    }
    fn half(self) -> Self {
        Dense(self.0.half())
    }
}

impl<W: Packed> Matcher<W> for ExactMatcher {
    fn matching(&mut self, n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
        self.solves += 1;
        self.edges += edges.len();
        let mut w = vec![Dense(W::zero()); n * n];
        for &(a, b, x) in edges {
            let (a, b) = (a.min(b), a.max(b));
            if Dense(x) > w[a * n + b] {
                w[a * n + b] = Dense(x);
            }
        }
        integer_blossom::max_weight_matching(&w, n)
    }
}
