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
    /// A slot whose rounds leave some of its pairs unplayed (NSC06's bottom pod of 5–7): with
    /// `soft`, a barred pair there costs only when it must play, as [`Unplayed::games`] counts.
    pub unplayed: Option<Unplayed>,
}

/// The fewest barred games a slot plays with the given members (player indices, increasing).
pub type GamesOf = std::sync::Arc<dyn Fn(&[usize]) -> usize + Send + Sync>;

/// A slot that plays only some of its pairs: `size` members over three rounds, each round a
/// maximum matching, no pair twice, `sitters` members (distinct) sitting out one round each.
/// The pairs a member leaves unplayed are `degree` (one more for a sitter).
#[derive(Clone)]
pub struct Unplayed {
    /// The slot (an index of [`QuadProblem::pods`]).
    pub slot: usize,
    /// Its members' count.
    pub size: usize,
    /// Pairs a member who never sits out leaves unplayed.
    pub degree: usize,
    /// Members who sit out one of the rounds (0 in an even slot).
    pub sitters: usize,
    /// True when no three members can leave all three of their pairs unplayed (the slot's
    /// later rounds need the unplayed pairs to hold a maximum matching).
    pub triangle_free: bool,
    /// The fewest barred games the slot plays with these members (player indices, increasing).
    pub games: GamesOf,
}

impl Unplayed {
    /// The pairs the slot leaves unplayed.
    pub fn pairs(&self) -> usize {
        (self.size * self.degree + self.sitters) / 2
    }

    /// The most pairs one member leaves unplayed.
    pub fn per_player(&self) -> usize {
        self.degree + usize::from(self.sitters > 0)
    }
}

impl std::fmt::Debug for Unplayed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Unplayed")
            .field("slot", &self.slot)
            .field("size", &self.size)
            .field("degree", &self.degree)
            .field("sitters", &self.sitters)
            .field("triangle_free", &self.triangle_free)
            .finish_non_exhaustive()
    }
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
    /// Barred games: forbidden pairs sharing a slot, and in the [`QuadProblem::unplayed`]
    /// slot only those its rounds must play (0 unless [`QuadProblem::soft`]); proved fewest:
    /// the solve that ranks them first ended optimal with no gap.
    pub barred: usize,
}
