//! Round specification → integer program → HiGHS, with a greedy procedural fallback and a
//! certificate saying what was proved.
//!
//! The solver knows no pairing system (it imports [`crate::spec`], never `systems`): it sees
//! players, candidate pairs with integer costs per tier, bye options and extra rows
//! ([`RoundSpec`]); [`PROGRAMS`] answers the small programs a system needs while it states a
//! round. Tiers are minimised in strict
//! lexicographic order (see `models/swiss.md`, "Exact lexicographic tiers").

pub mod blossom;
pub mod bracket;
mod certificate;
mod error;
mod exchange;
mod greedy;
mod ilp;
mod lexmatch;
mod lp;
mod matching;
pub mod progress;
pub mod quads;
mod warm;

/// The programs a system may need answered while it states a round, solved here.
pub const PROGRAMS: crate::spec::Programs = crate::spec::Programs {
    quads: quads::solve,
    perfect_matching,
};

pub use certificate::{Certificate, ModelSize, SolverStats, Status, TierValue};
pub use error::{Fallback, FallbackCause, RowsRepair, SolveError, TimeLimitAt};
pub use ilp::HighsStep;
pub use progress::{Progress, Step};

use crate::spec::{RoundSpec, SparseSpec, Tiers, Var};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Whether vertices `0..n` have a perfect matching over `edges`: a maximum-cardinality
/// matching (the blossom) covers them all.
fn perfect_matching(n: usize, edges: &[(usize, usize)]) -> bool {
    if n % 2 == 1 {
        return false;
    }
    let e: Vec<(usize, usize, i64)> = edges.iter().map(|&(u, v)| (u, v, 1)).collect();
    blossom::maximum_weight_matching(n, &e, true)
        .mate
        .iter()
        .all(Option::is_some)
}

/// How to solve.
#[derive(Debug, Clone)]
pub struct Options {
    /// Wall-clock limit of the whole solve: the exact solve has most of it, and past its
    /// share the legal fallback pairs the round in the rest.
    pub time_limit: Option<f64>,
    /// Seconds at the end of [`Self::time_limit`] kept for the legal fallback; `None`: the
    /// part the exact solve's share ([`EXACT_SHARE`]) leaves.
    pub fallback_seconds: Option<f64>,
    /// Skip HiGHS and pair with the greedy pass only.
    pub greedy_only: bool,
    /// How the legal fallback improves its matching by partner exchanges.
    pub fallback_exchanges: Exchanges,
    /// HiGHS `random_seed`: fixed so that the same input gives the same output.
    pub seed: i32,
    /// Add odd-set (blossom) rows for odd score groups and odd unions of top groups.
    pub odd_set_rows: bool,
    /// Put every allowed pair in the program from the start (the plain formulation) instead
    /// of a sparse set priced by LP duals.
    pub full_candidates: bool,
    /// Close a tier group whose LP optimum is fractional with a pairing on the LP optimum's
    /// face when one meets the bound (models/swiss.md, "Solving over a sparse set of pairs",
    /// item 3); off, such a group goes to cuts and a MIP. On by default; off to compare.
    pub lp_face: bool,
    /// Keep each tier group's LP in HiGHS between pricing rounds and add the priced pairs as
    /// columns (a warm start from the last basis) instead of building it again.
    pub warm_lp: bool,
    /// Pairs priced in from a pair source per player and pricing round (a pair stays while
    /// either of its players has fewer): a few for every player rather than the most negative
    /// overall, which crowd on the players of largest dual. Pricing repeats until no pair
    /// prices out, so any value ≥ 1 gives the same optimum. Default 4.
    pub priced_per_player: usize,
    /// Close a tier group at once, without an LP, when a pairing that keeps the earlier
    /// groups' optima costs nothing on it and no pair costs less (models/swiss.md, item 8).
    /// On by default; off to compare.
    pub zero_cost: bool,
    /// Close a tier group whose LP bound no pairing meets with an exact weighted matching
    /// instead of a HiGHS MIP, when the round is a plain matching (no system rows, at most one
    /// bye; models/swiss.md, item 9). On by default; off to compare.
    pub weighted_matching: bool,
    /// Before a tier group's first LP over a pair source, improve the incumbent by partner
    /// exchanges that keep the earlier groups' optima (models/swiss.md, item 10): a better
    /// first restricted program, fewer pricing rounds. On by default; off to compare.
    pub exchange: bool,
    /// Fields of at least this many players are solved from a sparse specification when the
    /// system has one, their other pairs priced in (smaller fields list every pair: it costs
    /// little and keeps the program whole). Default [`SPARSE_FROM`]; the command line reads
    /// `OPTIPAIR_SPARSE_FROM` into it (benchmarks comparing the two ways of building).
    pub sparse_from: usize,
    /// Most pairs an exact procedure pairing bracket by bracket may hold at once (its memory
    /// budget); `None`: the procedure's own (about 1 GB). Past it the round goes to the
    /// tier model, and the notes say so.
    pub exact_pairs: Option<usize>,
    /// Write the largest component of each exact weighted matching to this file (`n`, then
    /// `u v weight` lines), for `cargo bench --bench blossom -- file FILE`; the command line
    /// sets it from `OPTIPAIR_DUMP_MATCHING`.
    pub dump_matching: Option<PathBuf>,
    /// Told of each bracket of the Dutch procedure and each tier group of the tier model as
    /// it begins (a progress line); `None`: nobody listens.
    pub progress: Option<Progress>,
}

/// How the legal fallback improves its maximum matching by partner exchanges, each lowering
/// one tier ([`Options::fallback_exchanges`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exchanges {
    /// Each tier in priority order, keeping every tier above it: the rules' own order.
    Lexicographic,
    /// Each tier, keeping every other tier: never a cost on one rule for a gain on another.
    Pareto,
    /// None: the matching as found.
    Off,
}

impl Exchanges {
    /// The order the engine tries them in until the verifier passes a fallback pairing.
    pub const ORDER: [Exchanges; 3] = [Exchanges::Lexicographic, Exchanges::Pareto, Exchanges::Off];
}

/// The default [`Options::sparse_from`].
pub const SPARSE_FROM: usize = 500;

impl Default for Options {
    fn default() -> Self {
        Options {
            time_limit: None,
            fallback_seconds: None,
            greedy_only: false,
            fallback_exchanges: Exchanges::Lexicographic,
            seed: 0,
            odd_set_rows: true,
            full_candidates: false,
            lp_face: true,
            zero_cost: true,
            weighted_matching: true,
            exchange: true,
            priced_per_player: 4,
            warm_lp: true,
            sparse_from: SPARSE_FROM,
            exact_pairs: None,
            dump_matching: None,
            progress: None,
        }
    }
}

/// A chosen set of variables: candidate indices, bye takers and unpaired players (indices).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Candidate pairs chosen, by index into the spec's candidates.
    pub pairs: Vec<usize>,
    /// Players given the bye, by index into the spec's players.
    pub byes: Vec<usize>,
    /// Players left unpaired, by index into the spec's players.
    pub unpaired: Vec<usize>,
}

impl Selection {
    /// Exact integer value of every tier (tier 0 = players left unpaired).
    pub fn tier_values(&self, spec: &RoundSpec) -> Vec<i64> {
        let mut v = vec![0i64; spec.tiers.len() + 1];
        v[0] = self.unpaired.len() as i64;
        for &c in &self.pairs {
            for (t, cost) in spec.candidates[c].costs.iter().enumerate() {
                v[t + 1] += cost;
            }
        }
        for &b in &self.byes {
            let opt = spec
                .byes
                .iter()
                .find(|o| o.player == b)
                .expect("bye option");
            for (t, cost) in opt.costs.iter().enumerate() {
                v[t + 1] += cost;
            }
        }
        v
    }

    /// Whether the selection satisfies the spec's hard rows.
    pub fn satisfies_rows(&self, spec: &RoundSpec) -> bool {
        spec.rows.iter().all(|row| {
            let total: i64 = row
                .terms
                .iter()
                .map(|(var, k)| {
                    let on = match var {
                        Var::Pair(c) => self.pairs.contains(c),
                        Var::Bye(p) => self.byes.contains(p),
                        Var::Unpaired(p) => self.unpaired.contains(p),
                    };
                    if on {
                        *k
                    } else {
                        0
                    }
                })
                .sum();
            row.min.is_none_or(|m| total >= m) && row.max.is_none_or(|m| total <= m)
        })
    }
}

/// A paired round: games in board order as (white, black) ids, byes, players left unpaired,
/// and the certificate.
#[derive(Debug, Clone)]
pub struct Pairing {
    /// Games in board order, as (white, black) player ids.
    pub games: Vec<(u32, u32)>,
    /// Ids of the players given the bye.
    pub byes: Vec<u32>,
    /// Ids of the players left without a game or the bye.
    pub unpaired: Vec<u32>,
    /// What the solve proved of the pairing, and how it was found.
    pub certificate: Certificate,
}

/// Pairs the round described by `spec`: the exact solve, and the legal fallback when it
/// finds no pairing.
pub fn solve(spec: &RoundSpec, opts: &Options) -> Pairing {
    if cfg!(debug_assertions) {
        if let Err(e) = spec.validate() {
            panic!(
                "{} round {}: invalid specification: {e}",
                spec.system, spec.round
            );
        }
    }
    exact_on(spec, None, opts).unwrap_or_else(|u| fallback_on(spec, None, opts, u))
}

/// Pairs the round of a sparse specification: optimality is proved over every pair, the
/// unlisted ones priced in from the source as LP duals call for them. (The greedy fallback
/// sees only the listed candidates.)
pub fn solve_sparse(sparse: &SparseSpec, opts: &Options) -> Pairing {
    if cfg!(debug_assertions) {
        if let Err(e) = sparse.validate() {
            let s = &sparse.spec;
            panic!("{} round {}: invalid specification: {e}", s.system, s.round);
        }
    }
    let (spec, source) = (&sparse.spec, Some(sparse.source.clone()));
    exact_on(spec, source.clone(), opts).unwrap_or_else(|u| fallback_on(spec, source, opts, u))
}

/// Why the exact solve of a tier program found no pairing, and the time the fallback that
/// follows it has (measured from the exact solve's start).
#[derive(Debug)]
pub struct Unsolved {
    cause: FallbackCause,
    start: Instant,
    end: Option<Instant>,
}

/// The exact solve of a tier program, lexicographic tier by tier, within its share of
/// [`Options::time_limit`]; [`Unsolved`] when it finds no pairing (or
/// [`Options::greedy_only`] asks for none), for [`fallback`].
pub fn exact(tiers: &Tiers, opts: &Options) -> Result<Pairing, Unsolved> {
    let (spec, source) = parts(tiers);
    exact_on(spec, source, opts)
}

fn exact_on(spec: &RoundSpec, source: Option<Source>, opts: &Options) -> Result<Pairing, Unsolved> {
    let start = Instant::now();
    // The exact solve has its share of the limit; the fallback the rest, to the limit's end.
    let deadline = opts.time_limit.and_then(|s| {
        let kept = opts.fallback_seconds.unwrap_or(s * (1.0 - EXACT_SHARE));
        deadline_after(start, s - kept.clamp(0.0, s))
    });
    let end = opts.time_limit.and_then(|s| deadline_after(start, s));
    let exact = if opts.greedy_only {
        Err(FallbackCause::Requested)
    } else if deadline.is_some_and(|d| Instant::now() >= d) {
        // No time left for it (an exact procedure before it took its share): the worker
        // would only hold a core while the fallback runs.
        Err(FallbackCause::Solver(SolveError::TimeLimit(
            TimeLimitAt::Solving,
        )))
    } else {
        ilp::solve(spec, source, opts, deadline).map_err(FallbackCause::Solver)
    };
    log::debug!(
        "exact solve {:.2} s ({})",
        start.elapsed().as_secs_f64(),
        if exact.is_ok() {
            "paired"
        } else {
            "no pairing"
        }
    );
    match exact {
        Ok(o) => {
            let mut cert = o.certificate;
            cert.seconds = start.elapsed().as_secs_f64();
            Ok(finish(
                o.extended.as_ref().unwrap_or(spec),
                o.selection,
                cert,
            ))
        }
        Err(cause) => Err(Unsolved { cause, start, end }),
    }
}

/// The legal fallback pairing of a tier program the exact solve left unpaired, until the
/// end of [`Options::time_limit`] (from the exact solve's start), with a certificate that
/// claims no optimality and says why.
pub fn fallback(tiers: &Tiers, opts: &Options, unsolved: Unsolved) -> Pairing {
    let (spec, source) = parts(tiers);
    fallback_on(spec, source, opts, unsolved)
}

fn fallback_on(
    spec: &RoundSpec,
    source: Option<Source>,
    opts: &Options,
    unsolved: Unsolved,
) -> Pairing {
    let Unsolved { cause, start, end } = unsolved;
    let (fb, rows) = fallback_pairing(spec, source.as_deref(), opts, end);
    log::debug!("fallback done at {:.2} s", start.elapsed().as_secs_f64());
    let greedy::Fallback {
        selection,
        extended,
        pairs_seen,
        cut,
    } = fb;
    let values = selection.tier_values(extended.as_ref().unwrap_or(spec));
    let why = Fallback { cause, rows, cut };
    let mut cert = Certificate::fallback(spec, &values, why);
    // The pairs the fallback's matching looked at, listed or asked of the source.
    cert.model.candidates = pairs_seen;
    cert.seconds = start.elapsed().as_secs_f64();
    finish(extended.as_ref().unwrap_or(spec), selection, cert)
}

/// A sparse specification's pair source, shared with the pricing threads.
type Source = std::sync::Arc<dyn crate::spec::PairSource>;

/// The listed specification and the pair source, if any.
fn parts(tiers: &Tiers) -> (&RoundSpec, Option<Source>) {
    match tiers {
        Tiers::Listed(spec) => (spec, None),
        Tiers::Sparse(s) => (&s.spec, Some(s.source.clone())),
    }
}

/// `start + seconds`, or no deadline when that instant cannot be represented (a limit beyond
/// any run).
fn deadline_after(start: Instant, seconds: f64) -> Option<Instant> {
    let d = Duration::try_from_secs_f64(seconds.max(0.0)).ok()?;
    start.checked_add(d)
}

/// The share of [`Options::time_limit`] the exact solve may take unless
/// [`Options::fallback_seconds`] says otherwise: the legal fallback (its matching, then a
/// feasibility program for the system's rows) has the rest.
pub const EXACT_SHARE: f64 = 0.8;

/// Seconds the fallback's feasibility program for the specification's rows may take when
/// there is no time limit.
const ROWS_SECONDS: f64 = 10.0;

/// The fallback pairing: the maximum matching of [`greedy`], and when it breaks one of the
/// specification's rows (rules a matching cannot express), the rows solved as a feasibility
/// program (every tier but "players left unpaired" dropped) until `end` (without a limit, a
/// short one of its own); with what became of the rows.
fn fallback_pairing(
    spec: &RoundSpec,
    source: Option<&dyn crate::spec::PairSource>,
    opts: &Options,
    end: Option<Instant>,
) -> (greedy::Fallback, Option<RowsRepair>) {
    let mut fb = greedy::pair(spec, source, end, opts.fallback_exchanges);
    let on = fb.extended.as_ref().unwrap_or(spec);
    if fb.selection.satisfies_rows(on) {
        return (fb, None);
    }
    let mut plain = on.clone();
    plain.tiers.clear();
    for c in &mut plain.candidates {
        c.costs.clear();
    }
    for b in &mut plain.byes {
        b.costs.clear();
    }
    let short = Options {
        greedy_only: false,
        full_candidates: true,
        ..opts.clone()
    };
    let deadline = match end {
        Some(end) => end,
        None => match deadline_after(Instant::now(), ROWS_SECONDS) {
            Some(d) => d,
            None => Instant::now(),
        },
    };
    if Instant::now() >= deadline {
        return (fb, Some(RowsRepair::NotFound));
    }
    match ilp::solve(&plain, None, &short, Some(deadline)) {
        Ok(o) if o.selection.satisfies_rows(on) => {
            fb.selection = o.selection;
            (fb, Some(RowsRepair::Solved))
        }
        Ok(_) | Err(_) => (fb, Some(RowsRepair::NotFound)),
    }
}

/// Board order: higher pairing score first (the better score of the two, then the other),
/// then the higher-ranked player.
fn finish(spec: &RoundSpec, sel: Selection, certificate: Certificate) -> Pairing {
    let mut boards: Vec<(usize, usize)> = sel
        .pairs
        .iter()
        .map(|&c| {
            let cand = &spec.candidates[c];
            let black = if cand.white == cand.a { cand.b } else { cand.a };
            (cand.white, black)
        })
        .collect();
    let key = |&(w, b): &(usize, usize)| {
        let (hi, lo) = if spec.scores[w] >= spec.scores[b] {
            (spec.scores[w], spec.scores[b])
        } else {
            (spec.scores[b], spec.scores[w])
        };
        (
            -(hi * 1000.0).round() as i64,
            -(lo * 1000.0).round() as i64,
            w.min(b),
        )
    };
    boards.sort_by_key(key);
    let mut byes: Vec<usize> = sel.byes.clone();
    byes.sort();
    let mut unpaired = sel.unpaired.clone();
    unpaired.sort();
    Pairing {
        games: boards
            .into_iter()
            .map(|(w, b)| (spec.players[w], spec.players[b]))
            .collect(),
        byes: byes.into_iter().map(|i| spec.players[i]).collect(),
        unpaired: unpaired.into_iter().map(|i| spec.players[i]).collect(),
        certificate,
    }
}

/// A pairing scored on the tiers: the selection and its value per tier.
pub type Scored = (Selection, Vec<i64>);

/// Exact tier values of a pairing given from outside (e.g. a pairing under audit), if every
/// pair in it is a candidate of `spec`. Returns the pairs that are not candidates otherwise.
pub fn evaluate(
    spec: &RoundSpec,
    games: &[(u32, u32)],
    byes: &[u32],
) -> Result<Scored, Vec<(u32, u32)>> {
    let index = |id: u32| spec.players.iter().position(|&p| p == id);
    let mut sel = Selection::default();
    let mut illegal = Vec::new();
    let mut used = vec![false; spec.players.len()];
    for &(w, b) in games {
        let (Some(iw), Some(ib)) = (index(w), index(b)) else {
            illegal.push((w, b));
            continue;
        };
        let found = spec
            .candidates
            .iter()
            .position(|c| (c.a == iw && c.b == ib) || (c.a == ib && c.b == iw));
        match found {
            Some(c) => {
                sel.pairs.push(c);
                used[iw] = true;
                used[ib] = true;
            }
            None => illegal.push((w, b)),
        }
    }
    for &b in byes {
        if let Some(i) = index(b) {
            if spec.byes.iter().any(|o| o.player == i) {
                sel.byes.push(i);
                used[i] = true;
            } else {
                illegal.push((b, 0));
            }
        }
    }
    if !illegal.is_empty() {
        return Err(illegal);
    }
    sel.unpaired = (0..spec.players.len()).filter(|&i| !used[i]).collect();
    let v = sel.tier_values(spec);
    Ok((sel, v))
}
