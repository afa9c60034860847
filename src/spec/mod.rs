//! The round specification: what a pairing system hands the solver, the contract between
//! [`crate::systems`] (which produce it) and [`crate::solve`] (which consumes it); it imports
//! neither. It names who is paired, which pairs are allowed (hard rules are encoded by leaving
//! pairs out or by rows), and the objective tiers in strict priority order. It knows nothing
//! of HiGHS.

pub mod quads;
pub mod words;

use serde::Serialize;

/// One objective tier. Lower is better; tiers compare lexicographically in the order given.
#[derive(Debug, Clone, Serialize)]
pub struct Tier {
    /// Short name shown in certificates, e.g. `colour preferences`.
    pub name: String,
    /// The rule the tier encodes, e.g. `FIDE Dutch C.12`.
    pub rule: String,
}

impl Tier {
    /// A tier of that name and rule.
    pub fn new(name: &str, rule: &str) -> Tier {
        Tier {
            name: name.to_string(),
            rule: rule.to_string(),
        }
    }
}

/// An allowed pair: players `a` and `b` (indices into [`RoundSpec::players`]), the colour
/// allocation the system would give them, and its cost on every tier (non-negative integers).
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    /// One player of the pair (an index into [`RoundSpec::players`]).
    pub a: usize,
    /// The other player (an index into [`RoundSpec::players`]).
    pub b: usize,
    /// Index (`a` or `b`) of the player who gets white or plays first.
    pub white: usize,
    /// The pair's cost on each tier of [`RoundSpec::tiers`], in order.
    pub costs: Vec<i64>,
}

/// A player who may receive the pairing-allocated bye, with its cost on every tier.
#[derive(Debug, Clone, Serialize)]
pub struct ByeOption {
    /// The player (an index into [`RoundSpec::players`]).
    pub player: usize,
    /// The bye's cost on each tier of [`RoundSpec::tiers`], in order.
    pub costs: Vec<i64>,
}

/// A variable of the round's integer program, as systems refer to it in extra rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Var {
    /// Candidate pair by index.
    Pair(usize),
    /// Player by index takes the pairing-allocated bye.
    Bye(usize),
    /// Player by index is left without a game or bye.
    Unpaired(usize),
}

/// An extra hard row `min ≤ Σ coef·var ≤ max`, with the rule it encodes.
#[derive(Debug, Clone, Serialize)]
pub struct Linear {
    /// The variables and their coefficients.
    pub terms: Vec<(Var, i64)>,
    /// Lower bound on the sum, if any.
    pub min: Option<i64>,
    /// Upper bound on the sum, if any.
    pub max: Option<i64>,
    /// The rule the row encodes, cited.
    pub rule: String,
}

/// Everything the solver needs to pair one round.
#[derive(Debug, Clone, Serialize)]
pub struct RoundSpec {
    /// The system's name (e.g. `nsc2006`).
    pub system: String,
    /// The round to pair (1-based).
    pub round: u32,
    /// Player ids to pair, in rank order (index 0 ranks highest).
    pub players: Vec<u32>,
    /// Pairing score of each player (used for board order).
    pub scores: Vec<f64>,
    /// Tiers after the implicit first one ("players left unpaired", always minimised first).
    pub tiers: Vec<Tier>,
    /// The allowed pairs: a pair not listed is forbidden (unless a [`PairSource`] prices it in).
    pub candidates: Vec<Candidate>,
    /// The players who may receive the pairing-allocated bye, with its cost.
    pub byes: Vec<ByeOption>,
    /// How many pairing-allocated byes the round gives at most (normally the parity of the
    /// field).
    pub max_byes: usize,
    /// Sets of players whose size plus the byes and unpaired among them is odd, so that at
    /// least one pair must leave them: valid inequalities the solver may add (score groups and
    /// unions of the top groups).
    pub odd_sets: Vec<Vec<usize>>,
    /// Extra hard rows the pairing must satisfy.
    pub rows: Vec<Linear>,
    /// Remarks for the director (warnings about the field or the rules applied).
    pub notes: Vec<String>,
}

impl RoundSpec {
    /// The tier named `name`, for a system to amend its rule. Panics if there is none: a
    /// system names only tiers it put there.
    pub fn tier_mut(&mut self, name: &str) -> &mut Tier {
        self.tiers
            .iter_mut()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("no tier named {name:?}"))
    }

    /// Inserts `tier` just before the tier named `before`, each candidate's cost on it from
    /// `pair` and each bye's from `bye`, so that an accelerated system adds a tier by name.
    /// Panics if there is no tier named `before`.
    pub fn insert_tier_before(
        &mut self,
        before: &str,
        tier: Tier,
        pair: impl Fn(&Candidate) -> i64,
        bye: impl Fn(&ByeOption) -> i64,
    ) {
        let at = self
            .tiers
            .iter()
            .position(|t| t.name == before)
            .unwrap_or_else(|| panic!("no tier named {before:?}"));
        for c in &mut self.candidates {
            let cost = pair(c);
            c.costs.insert(at, cost);
        }
        for b in &mut self.byes {
            let cost = bye(b);
            b.costs.insert(at, cost);
        }
        self.tiers.insert(at, tier);
    }

    /// Checks the specification's shape and names the first fault: one cost per tier on every
    /// candidate and bye, no negative cost, player indices in range (two players, white one of
    /// them), one score per player, at most one bye option per player, and the rows' and odd
    /// sets' indices in range. The solver runs it in debug builds, the tests on every system.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.players.len();
        let tiers = self.tiers.len();
        if self.scores.len() != n {
            return Err(format!("{} scores for {n} players", self.scores.len()));
        }
        let costs = |what: &str, c: &[i64]| -> Result<(), String> {
            if c.len() != tiers {
                return Err(format!("{what}: {} costs for {tiers} tiers", c.len()));
            }
            match c.iter().position(|&x| x < 0) {
                Some(k) => Err(format!(
                    "{what}: negative cost on tier {:?}",
                    self.tiers[k].name
                )),
                None => Ok(()),
            }
        };
        for (i, c) in self.candidates.iter().enumerate() {
            let what = format!("candidate {i} ({} v {})", c.a, c.b);
            if c.a == c.b || c.a >= n || c.b >= n {
                return Err(format!("{what}: players out of range or the same"));
            }
            if c.white != c.a && c.white != c.b {
                return Err(format!("{what}: white {} is neither player", c.white));
            }
            costs(&what, &c.costs)?;
        }
        let mut bye_of = vec![false; n];
        for b in &self.byes {
            let what = format!("bye option of player {}", b.player);
            if b.player >= n || std::mem::replace(&mut bye_of[b.player], true) {
                return Err(format!("{what}: out of range or given twice"));
            }
            costs(&what, &b.costs)?;
        }
        for (k, set) in self.odd_sets.iter().enumerate() {
            if set.iter().any(|&i| i >= n) {
                return Err(format!("odd set {k}: a player out of range"));
            }
        }
        for row in &self.rows {
            for (var, _) in &row.terms {
                let ok = match *var {
                    Var::Pair(k) => k < self.candidates.len(),
                    Var::Bye(i) | Var::Unpaired(i) => i < n,
                };
                if !ok {
                    return Err(format!("row {:?}: {var:?} out of range", row.rule));
                }
            }
            if let (Some(lo), Some(hi)) = (row.min, row.max) {
                if lo > hi {
                    return Err(format!("row {:?}: min {lo} above max {hi}", row.rule));
                }
            }
        }
        Ok(())
    }

    /// All pairs among the players, whether candidates or not.
    pub fn all_pairs(&self) -> u64 {
        let n = self.players.len() as u64;
        n * n.saturating_sub(1) / 2
    }
}

/// Pairs a specification does not list, for the solver to price in from LP duals: a large
/// field's specification lists a few candidates per player, and the solver proves optimality
/// over every pair by asking this source for the pairs whose reduced cost is negative. Memory
/// then grows with the candidates, not with the square of the field.
///
/// Players fall into classes (the score groups of a Swiss); `lower(g, h)` bounds every tier's
/// cost of any allowed pair between classes `g` and `h` from below, so that whole blocks of
/// pairs are skipped when even that bound prices out.
pub trait PairSource: Send + Sync {
    /// The candidate for players `a < b` (indices), or `None` if the rules forbid the pair.
    fn pair(&self, a: usize, b: usize) -> Option<Candidate>;
    /// Class of player `i` (classes numbered from 0).
    fn class(&self, i: usize) -> usize;
    /// Lower bound on each tier's cost of any allowed pair between classes `g` and `h`.
    fn lower(&self, g: usize, h: usize) -> Vec<i64>;
    /// Raises `low`, the bound [`lower`](Self::lower) gives for `a`'s class and another
    /// class, to a bound on every pair of `a` with a partner of that class whose index is in
    /// `lo..=hi`: costs that depend on positions only let the solver skip whole runs of
    /// partners. The default keeps the classes' bound.
    fn refine_lower(&self, _a: usize, _lo: usize, _hi: usize, _low: &mut [i64]) {}
    /// Upper bound on each tier's cost of any allowed pair (the solver's tier weights must
    /// hold for pairs it has not seen yet).
    fn upper(&self) -> Vec<i64>;
    /// Pairs (indices `a < b`, each a listed candidate) that the legal fallback keeps before
    /// it pairs the other players: a system's own procedure that no tier can express (US
    /// Chess: the plan, whose games switch nothing, so within the 80- and 200-point rules).
    /// The default keeps none: the fallback starts from its quick pass.
    fn fallback_start(&self) -> Vec<(usize, usize)> {
        Vec::new()
    }
}

/// A specification listing some candidates, with the source of all the others.
#[derive(Clone)]
pub struct SparseSpec {
    /// The listed part: the candidates given up front, and everything else about the round.
    pub spec: RoundSpec,
    /// The source of every pair the listed part leaves out.
    pub source: std::sync::Arc<dyn PairSource>,
}

impl SparseSpec {
    /// [`RoundSpec::validate`], and the source's bounds: one per tier, and no listed
    /// candidate above them (the solver's tier weights rest on them).
    pub fn validate(&self) -> Result<(), String> {
        self.spec.validate()?;
        let upper = self.source.upper();
        if upper.len() != self.spec.tiers.len() {
            return Err(format!(
                "the pair source bounds {} tiers of {}",
                upper.len(),
                self.spec.tiers.len()
            ));
        }
        for c in &self.spec.candidates {
            if let Some(k) = (0..upper.len()).find(|&k| c.costs[k] > upper[k]) {
                return Err(format!(
                    "candidate {} v {}: cost {} above the bound {} on tier {:?}",
                    c.a, c.b, c.costs[k], upper[k], self.spec.tiers[k].name
                ));
            }
        }
        Ok(())
    }
}

impl std::fmt::Debug for SparseSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SparseSpec")
            .field("spec", &self.spec)
            .finish_non_exhaustive()
    }
}

/// Small programs a system needs answered while it states a round, handed to it by whoever
/// pairs (`solve::PROGRAMS`): a system states the problem and calls these, and never imports
/// the solver.
#[derive(Clone, Copy)]
pub struct Programs {
    /// NSC06 quad membership: the adjusted slots, or why none keeps the barred pairs apart.
    pub quads: fn(&quads::QuadProblem) -> Result<quads::QuadSolution, String>,
    /// Whether vertices `0..n` have a perfect matching over the edges given (TSH07's minimum
    /// repeats and leader split, which depend on whether a group can be paired at all).
    pub perfect_matching: fn(usize, &[(usize, usize)]) -> bool,
}

/// How a round is to be paired: the ways a system offers, in the order the engine tries
/// them. The engine runs this one list for every system; each way's outcome becomes a
/// certificate by the same builder (`solve::certificate`).
pub struct RoundPlan<'a> {
    /// The strategies, in the order the engine tries them.
    pub strategies: Vec<Strategy<'a>>,
}

/// One way of pairing a round.
pub enum Strategy<'a> {
    /// An exact procedure the system runs itself, bracket by bracket, asking the solver's
    /// matchers (the FIDE Dutch procedure). It may stop early (its share of the time limit,
    /// its memory budget): then the next strategy pairs the round. Stated when the engine
    /// reaches it (the system's checks of the field come with it).
    Exact(Box<dyn Fn() -> crate::Result<ExactProcedure<'a>> + 'a>),
    /// The round as a lexicographic tier program, stated when the engine reaches it (a large
    /// field's program is costly to state and often not needed): given the field size from
    /// which to state it sparse, if the system can (`None`: every allowed pair listed).
    Tiers(Box<dyn Fn(Option<usize>) -> crate::Result<Tiers> + 'a>),
    /// The legal fallback on the tier program (a maximum matching, then the rows as a
    /// feasibility program): when the strategies before it found no pairing, or one the
    /// verifier rejects.
    Fallback,
}

/// A tier program as the system states it: every allowed pair listed, or some listed and
/// the rest priced in from a [`PairSource`].
pub enum Tiers {
    /// Every allowed pair listed.
    Listed(RoundSpec),
    /// Some pairs listed, the rest priced in from a [`PairSource`].
    Sparse(SparseSpec),
}

impl Tiers {
    /// The listed part of the program.
    pub fn spec(&self) -> &RoundSpec {
        match self {
            Tiers::Listed(s) => s,
            Tiers::Sparse(s) => &s.spec,
        }
    }
}

/// The signature of an exact procedure's run: the most pairs it may hold at once, a
/// deadline asked before each matching (true: stop), and the matchers that answer it.
pub type ExactRun<'a> =
    dyn Fn(usize, &dyn Fn() -> bool, &mut dyn crate::algo::Matchers) -> ExactPairing + 'a;

/// An exact procedure offered by a system.
pub struct ExactProcedure<'a> {
    /// The rule the round is paired under, opening the certificate's summary when the
    /// system is not the procedure's own (e.g. "ECF basic 5, the standard Swiss after
    /// acceleration: "); empty otherwise.
    pub basis: String,
    /// The system's notes on the field and the rules it applies.
    pub notes: Vec<String>,
    /// Pairs the round.
    pub run: Box<ExactRun<'a>>,
}

/// What one bracket of an exact procedure did: its line of the certificate, as data.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Bracket {
    /// Resident score in thousandths (the score group that opened the bracket).
    pub score: i64,
    /// Players whose score is the bracket's (the score group).
    pub residents: usize,
    /// Players moved down into the bracket from higher ones.
    pub moved_down: usize,
    /// Pairs made in the bracket.
    pub pairs: usize,
    /// Players of the bracket not paired in it: they float down to the next.
    pub floaters: usize,
    /// Exact matchings solved for this bracket (criteria, then the order of candidates).
    pub matchings: usize,
    /// Solved over every pair of the unpaired players, rather than over the bracket and its
    /// look-ahead with the players below completed apart (see `models/dutch.md`).
    pub dense: bool,
}

/// A round paired by an exact procedure.
#[derive(Debug, Clone, Default)]
pub struct ExactPairing {
    /// Games as (white, black) ids in board order.
    pub games: Vec<(u32, u32)>,
    /// The pairing-allocated bye.
    pub bye: Option<u32>,
    /// Players no pairing can place under the absolute criteria (the round is impossible).
    pub unpaired: Vec<u32>,
    /// Each bracket in the order paired.
    pub brackets: Vec<Bracket>,
    /// Bits of the widest packed weight.
    pub weight_bits: u32,
    /// Players put up for pairing.
    pub players: usize,
    /// The deadline passed before every bracket was paired: no pairing.
    pub cancelled: bool,
    /// A bracket's graph would have held this many pairs, over the budget: no pairing.
    pub over_budget: Option<usize>,
}
