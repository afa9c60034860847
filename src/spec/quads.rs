//! The quad-membership program a system may need answered while it states a round (NSC06:
//! "the computer program will adjust the quad pairings accordingly, with minimum
//! adjustments"). The system states the problem here and receives the solver as a
//! [`super::Programs`]; `solve::quads` solves it.

/// What the system asks for (indices are the system's player indices).
#[derive(Debug, Clone)]
pub struct QuadProblem {
    /// Number of players (indices `0..players`).
    pub players: usize,
    /// Base membership of every slot; slots partition the players.
    pub pods: Vec<Vec<usize>>,
    /// For each player, the slots it may be placed in (its base slot is always allowed).
    pub allowed: Vec<Vec<usize>>,
    /// Pairs that may not share a slot (with `soft`: that share one only when unavoidable).
    pub forbidden: Vec<(usize, usize)>,
    /// Pairs that may share a slot at the cost of one repeat each.
    pub repeats: Vec<(usize, usize)>,
    /// When false, forbidden pairs never share a slot (no solution: `Err`). When true, they
    /// may, each costing one barred repeat, and the fewest barred repeats rank before the
    /// fewest moves.
    pub soft: bool,
}

/// The adjusted slots (members in the order given by the player indices), and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct QuadSolution {
    /// Members of every slot, in the order of [`QuadProblem::pods`].
    pub pods: Vec<Vec<usize>>,
    /// Players placed outside their base slot.
    pub moved: usize,
    /// Permitted repeats kept (pairs of [`QuadProblem::repeats`] sharing a slot).
    pub repeats: usize,
    /// Forbidden pairs sharing a slot (0 unless [`QuadProblem::soft`]), proved fewest: the
    /// solve that ranks them first ended optimal with no gap.
    pub barred: usize,
}
