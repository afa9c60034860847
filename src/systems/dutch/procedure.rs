//! The Dutch procedure: brackets from the top, each settled by exact maximum-weight matchings
//! over every player still unpaired ("FIDE Dutch 2025 C.4": the rest stays pairable).
//!
//! A bracket's criteria are packed into one integer weight per pair (see [`super::weight`]):
//! completion and bye eligibility, pairs in the bracket ("FIDE Dutch 2025 C.5"), scores paired
//! ("FIDE Dutch 2025 C.6"), the next bracket ("FIDE Dutch 2025 C.7"), the bye's unplayed games
//! ("FIDE Dutch 2025 C.9"), topscorers' colours ("FIDE Dutch 2025 C.10", "FIDE Dutch 2025
//! C.11"), colour preferences ("FIDE Dutch 2025 C.12", "FIDE Dutch 2025 C.13"), repeated floats
//! ("FIDE Dutch 2025 C.14"–"FIDE Dutch 2025 C.17") and their scores ("FIDE Dutch 2025 C.18"–
//! "FIDE Dutch 2025 C.21"). A maximum-weight matching is then the lexicographic optimum of the
//! bracket's criteria, with the rest of the field completable. Among the optimal candidates
//! the first in the Dutch order is found by further matchings with small preferences in the
//! lowest field, each decision fixed before the next: which moved-down players are paired,
//! their opponents, the exchanges between S1 and S2, then each S1 player's opponent
//! ("FIDE Dutch 2025 4.2", "FIDE Dutch 2025 4.3").

use super::criteria::{layout_for, Fields};
use super::graph::{field_bound, BracketSpec, Outer, State};
use super::state::DutchPlayer;
use super::weight::{bits_for, Layout, Weight};
// Pair keys are looked up millions of times a round: FxHash (fixed, fast; keys are ours).
use rustc_hash::FxHashMap as HashMap;

pub use super::colour::colour_of;

/// How many candidates below his current opponent an S1 player of a block ranks (see the
/// S1 step): enough that the cascades of a block (each player taking the next one's
/// opponent) seldom leave one without a ranked opponent.
const BELOW_MATE: usize = 7;

pub use crate::algo::Matcher;

/// What one bracket did, for the certificate (the spec's type: the certificate reads it as is).
pub use crate::spec::Bracket as BracketLog;

/// The round as the procedure leaves it: pairs of player indices (higher-ranked first), the
/// bye, anyone left over (only when no pairing satisfies the absolute criteria).
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// The pairs, as indices into [`Context::players`], higher-ranked first.
    pub pairs: Vec<(usize, usize)>,
    /// The player given the pairing-allocated bye (an index into [`Context::players`]).
    pub bye: Option<usize>,
    /// Players left over (indices into [`Context::players`]): only when no pairing satisfies the
    /// absolute criteria.
    pub unpaired: Vec<usize>,
    /// Each bracket in the order paired.
    pub brackets: Vec<BracketLog>,
    /// Bits of the widest packed weight.
    pub weight_bits: u32,
    /// Stopped by [`Context::should_cancel`] (asked before each matching) before every
    /// bracket was paired.
    pub cancelled: bool,
    /// Stopped because a bracket's criteria need more bits than `W` holds: pair again wider.
    pub needs_bits: Option<u32>,
    /// Stopped because a graph would have held this many pairs, more than
    /// [`Context::pair_budget`] (the memory the procedure may take).
    pub over_budget: Option<usize>,
}

/// Settings of the procedure that are readings of the text rather than the text itself.
#[derive(Debug, Clone, Copy)]
pub struct Readings {
    /// Whether "FIDE Dutch 2025 C.9" (the bye to the player with the fewest unplayed games)
    /// ranks candidates for the bye.
    pub bye_unplayed_games: bool,
}

/// What the procedure pairs a round from: the players, a deadline, the round's place in the event,
/// and its settings.
pub struct Context<'a> {
    /// The players to pair, in the round's rank order.
    pub players: &'a [DutchPlayer],
    /// Asked before each matching: true stops the procedure (a deadline passed).
    pub should_cancel: &'a dyn Fn() -> bool,
    /// The last round is being paired (topscorers' exemptions apply).
    pub last_round: bool,
    /// Rounds played before this one (`round − 1`): the repeated-float criteria look back one
    /// and two rounds only as far as these reach.
    pub played_rounds: u32,
    /// Readings of the text the procedure follows.
    pub readings: Readings,
    /// Most pairs a graph may hold (its memory): a bracket that would need more stops the
    /// procedure ([`Outcome::over_budget`]) rather than build it.
    pub pair_budget: usize,
    /// How the graphs start and are priced: [`Tuning::PRODUCTION`] but in tests that must
    /// reach the pricing of small brackets.
    pub tuning: Tuning,
}

/// The exact procedure's tuning: how many pairs its reduced graphs start with, how pricing
/// adds the rest, and its limits. None of it changes a pairing, only how fast it is found
/// (EXPERIMENTS.md measured the production values); tests pass narrower windows so that the
/// small brackets of their rounds are priced and bounded too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tuning {
    /// The first matching's candidates per player (the next ones in rank order), tried
    /// before every allowed pair.
    pub field_degrees: [usize; 2],
    /// Pairs per player in a bracket's first reduced graph (the heaviest), before pricing.
    pub inside_degree: usize,
    /// How far from the natural hint's target (in places) every allowed pair of two residents
    /// joins the first reduced graph as well.
    pub start_window: i64,
    /// Uncovered pairs added per player in one pricing round (the most violated).
    pub price_degree: usize,
    /// Rows priced by one thread at a time.
    pub price_block: usize,
    /// Most threads pricing uses (measured on two cores only: EXPERIMENTS.md).
    pub price_threads: usize,
    /// Completion candidates per player (the next ones in rank order), tried before more.
    pub completion_degrees: [usize; 2],
    /// Most classes a bracket's table holds (their square, with one weight each): a bracket
    /// of more distinct players stops the procedure as over the budget.
    pub max_classes: usize,
    /// How far from a resident's hint target (in places) the floors read the players of each
    /// class one by one; beyond it, a class's pairs are bounded at once.
    pub floor_window: i64,
    /// The narrowest weights the procedure may use, in bits (0: as narrow as it needs); bits
    /// to spare go to the S1 players' blocks, which must not change the pairing.
    pub min_bits: u32,
}

impl Tuning {
    /// The values the engine pairs with.
    pub const PRODUCTION: Tuning = Tuning {
        field_degrees: [8, 48],
        inside_degree: 12,
        start_window: 48,
        price_degree: 4,
        price_block: 32,
        price_threads: 4,
        completion_degrees: [8, 48],
        max_classes: 2048,
        floor_window: 96,
        min_bits: 0,
    };
}

/// May `a` and `b` meet? ("C.04.1 b" no rematch, TRF-2026 260 forbidden pairs, and
/// "FIDE Dutch 2025 C.3": two players with the same absolute colour preference do not meet,
/// unless one is a topscorer in the last round.)
pub fn compatible(ctx: &Context, a: usize, b: usize) -> bool {
    let (p, q) = (&ctx.players[a], &ctx.players[b]);
    if p.barred.contains(&q.id) || q.barred.contains(&p.id) {
        return false;
    }
    colour_allowed(ctx, a, b)
}

/// The colour part of [`compatible`] ("FIDE Dutch 2025 C.3"), alike for players alike.
pub fn colour_allowed(ctx: &Context, a: usize, b: usize) -> bool {
    let (p, q) = (&ctx.players[a], &ctx.players[b]);
    !(p.absolute && q.absolute && p.preference == q.preference)
        || (ctx.last_round && (p.topscorer || q.topscorer))
}

/// Pairs the field (players in rank order). `Err` only from the matcher's side; a field no
/// pairing can complete comes back with `unpaired`.
pub fn run<W: Weight>(ctx: &Context, matcher: &mut dyn Matcher<W>) -> Outcome {
    let players = ctx.players;
    let n = players.len();
    let mut out = Outcome::default();
    if n == 0 {
        return out;
    }
    let groups = score_groups(players);
    let Some(FieldStart {
        mut st,
        bye_score,
        single_bye_bracket,
    }) = first_matching(ctx, matcher, &groups, &mut out)
    else {
        return out;
    };
    let odd = n % 2 == 1;
    let unplayed_ranks = unplayed_ranks(players, bye_score);
    let unplayed_rank = |i: usize| -> i64 { unplayed_ranks[i] };
    let mut d = Descent {
        mdps: Vec::new(),
        apart: Vec::new(),
        single_bye_bracket,
        bye_score,
        unplayed_rank: &unplayed_rank,
    };
    let group = |g: usize| -> Vec<usize> {
        groups
            .get(g)
            .cloned()
            .map(|r| r.collect())
            .unwrap_or_default()
    };
    let mut gi = 0usize;
    loop {
        let residents = group(gi);
        let cur: Vec<usize> = d
            .mdps
            .iter()
            .copied()
            .chain(residents.iter().copied())
            .collect();
        if cur.len() <= 1 && gi >= groups.len() {
            break;
        }
        if past_deadline(ctx, &mut out) {
            return out;
        }
        st.matcher
            .bracket_begun(gi.min(groups.len() - 1), groups.len());
        gi += 1;
        let nxt = group(gi);
        let curnext: Vec<usize> = cur.iter().chain(nxt.iter()).copied().collect();
        let m = Members {
            residents,
            cur,
            nxt,
            curnext,
        };
        let (solves_before, dense_before) = (st.solves, st.dense_brackets);
        let Some(done) = pair_bracket(ctx, &mut st, &m, &d, &mut out) else {
            return out;
        };
        let score = m
            .residents
            .first()
            .map(|&i| players[i].score)
            .unwrap_or(players[m.cur[0]].score);
        trace_bracket(score, &m, &d, &done, st.solves - solves_before);
        // Who goes down: everyone of the bracket not paired in it.
        let down: Vec<usize> = m.cur.iter().copied().filter(|&i| st.alive[i]).collect();
        d.single_bye_bracket =
            odd && single_bye_next(players, bye_score, &down, &m.nxt, &done.mate);
        out.brackets.push(BracketLog {
            score,
            residents: m.residents.len(),
            moved_down: d.mdps.len(),
            pairs: done.finalized.len(),
            floaters: down.len(),
            matchings: st.solves - solves_before,
            dense: st.dense_brackets > dense_before,
        });
        if let Some(pairs) = st.over_budget {
            out.over_budget = Some(pairs);
            return out;
        }
        if st.cancelled {
            out.cancelled = true;
            return out;
        }
        out.pairs.extend(done.finalized);
        d.apart = st.kept_apart(ctx, &down);
        d.mdps = down;
        if gi >= groups.len() && d.mdps.len() <= 1 {
            break;
        }
    }
    match d.mdps.as_slice() {
        [] => {}
        [b] => out.bye = Some(*b),
        rest => out.unpaired = rest.to_vec(),
    }
    out
}

/// What the brackets hand down: the players going down into the next bracket, the pairs
/// among them their bracket kept apart (kept apart below), whether the bye comes from the
/// next bracket alone; and the bye's score and C.9 ranks, fixed by the first matching.
struct Descent<'a> {
    mdps: Vec<usize>,
    apart: Vec<(usize, usize)>,
    single_bye_bracket: bool,
    bye_score: i64,
    unplayed_rank: &'a dyn Fn(usize) -> i64,
}

/// One bracket's players: its residents (its score group), with the moved-down players the
/// bracket (`cur`), the next score group (its look-ahead), and both.
struct Members {
    residents: Vec<usize>,
    cur: Vec<usize>,
    nxt: Vec<usize>,
    curnext: Vec<usize>,
}

/// A bracket settled: the matching its phases left, its pairs in the order decided, and for
/// the trace where its time went.
struct Settled {
    mate: Vec<Option<usize>>,
    finalized: Vec<(usize, usize)>,
    /// Seconds building the graph, then in the first matching, the moved-down players, the
    /// exchanges and the S1 players' decisions.
    graph_time: f64,
    phases: [f64; 4],
    pruned: usize,
    s1_solves: usize,
}

/// Pairs one bracket: its criteria's layout, its graph, then its phases. None when `out` is
/// the outcome already (too narrow weights, over the budget, past the deadline).
fn pair_bracket<W: Weight>(
    ctx: &Context,
    st: &mut State<'_, W>,
    m: &Members,
    d: &Descent,
    out: &mut Outcome,
) -> Option<Settled> {
    let n = ctx.players.len();
    // The bits the weights have to spare go to the S1 players' block (fewer matchings).
    let (layout, f) = layout_for(
        ctx,
        n,
        &m.cur,
        &m.curnext,
        d.single_bye_bracket,
        W::SAFE_BITS,
    );
    out.weight_bits = out.weight_bits.max(f.needed);
    if f.needed > W::SAFE_BITS {
        out.needs_bits = Some(f.needed);
        return None;
    }
    let mut in_cur = vec![false; n];
    let mut in_next = vec![false; n];
    for &i in &m.cur {
        in_cur[i] = true;
    }
    for &i in &m.nxt {
        in_next[i] = true;
    }
    // The bracket and its look-ahead are solved with every pair among them (weighed as
    // asked); the players below only through their completion (reduced mode).
    let spec = BracketSpec {
        layout: &layout,
        fields: &f,
        in_cur: &in_cur,
        in_next: &in_next,
        residents: &m.residents,
        apart: &d.apart,
        single_bye_bracket: d.single_bye_bracket,
        bye_score: d.bye_score,
        unplayed_rank: d.unplayed_rank,
    };
    let t_begin = std::time::Instant::now();
    if !st.begin_bracket(ctx, &spec) {
        out.over_budget = st.over_budget;
        return None;
    }
    let graph_time = t_begin.elapsed().as_secs_f64();
    let mut settled = settle_bracket(ctx, st, m, &d.mdps, &layout, &f, &in_cur, out)?;
    settled.graph_time = graph_time;
    Some(settled)
}

/// A bracket's phases on its graph: the first matching, the moved-down players, the exchanges
/// between S1 and S2, the S1 players' decisions; the deadline asked between them (a phase of
/// a large bracket takes seconds: its matchings stop at the deadline, their completion and
/// pruning do not). None when past the deadline.
#[allow(clippy::too_many_arguments)]
fn settle_bracket<W: Weight>(
    ctx: &Context,
    st: &mut State<'_, W>,
    m: &Members,
    mdps: &[usize],
    layout: &Layout,
    f: &Fields,
    in_cur: &[bool],
    out: &mut Outcome,
) -> Option<Settled> {
    let mut clock = std::time::Instant::now();
    let mut phases = [0f64; 4];
    let mut lap = |k: usize| {
        phases[k] = clock.elapsed().as_secs_f64();
        clock = std::time::Instant::now();
    };
    let mate = st.solve(ctx);
    // The unit of the lowest criterion: the order and hint fields add up to less.
    let above = layout.above::<W>(f.order);
    // Every step below weighs in the order and hint fields only: a pair in no optimum of
    // the criteria now is in none of theirs.
    let mut pruned = st.prune(above);
    let mut b = Bracket {
        residents: &m.residents,
        mdps,
        curnext: &m.curnext,
        nxt: &m.nxt,
        layout,
        f,
        above,
        mate,
        matched: vec![false; ctx.players.len()],
        finalized: Vec::new(),
    };
    lap(0);
    if past_deadline(ctx, out) {
        return None;
    }
    b.pair_moved_down(ctx, st, in_cur);
    lap(1);
    if past_deadline(ctx, out) {
        return None;
    }
    let split = b.choose_exchanges(ctx, st);
    lap(2);
    if past_deadline(ctx, out) {
        return None;
    }
    let (more_pruned, s1_solves) = b.decide_s1(ctx, st, &split);
    pruned += more_pruned;
    lap(3);
    let Bracket {
        mate, finalized, ..
    } = b;
    Some(Settled {
        mate,
        finalized,
        graph_time: 0.0,
        phases,
        pruned,
        s1_solves,
    })
}

/// One trace line per bracket (`log` level debug): its players, its matchings, where its
/// time went.
fn trace_bracket(score: i64, m: &Members, d: &Descent, done: &Settled, matchings: usize) {
    let Settled {
        graph_time,
        phases,
        pruned,
        s1_solves,
        ..
    } = done;
    log::debug!(
        "dutch: bracket {score}: {} residents, {} moved down, {} next; {matchings} matchings; \
         graph {graph_time:.2} s, first {:.2} s, moved down {:.2} s, exchanges {:.2} s, \
         S1 {:.2} s ({s1_solves} matchings); {pruned} pairs pruned",
        m.residents.len(),
        d.mdps.len(),
        m.nxt.len(),
        phases[0],
        phases[1],
        phases[2],
        phases[3],
    );
}

/// Whether the deadline has passed ([`Context::should_cancel`]); if so the outcome says so.
fn past_deadline(ctx: &Context, out: &mut Outcome) -> bool {
    let late = (ctx.should_cancel)();
    out.cancelled |= late;
    late
}

/// Score groups as index ranges (rank order).
fn score_groups(players: &[DutchPlayer]) -> Vec<std::ops::Range<usize>> {
    let n = players.len();
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for i in 1..=n {
        if i == n || players[i].score != players[start].score {
            groups.push(start..i);
            start = i;
        }
    }
    groups
}

/// C.9 ranks: among players at the bye's score, more games played ranks lower.
fn unplayed_ranks(players: &[DutchPlayer], bye_score: i64) -> Vec<i64> {
    let at_bye_score: Vec<u32> = players
        .iter()
        .filter(|p| p.score == bye_score)
        .map(|p| p.played_games)
        .collect();
    players
        .iter()
        .map(|p| {
            let g = p.played_games;
            let more = at_bye_score.iter().filter(|&&x| x > g).count();
            let same = at_bye_score.iter().filter(|&&x| x == g).count();
            (more + same) as i64 - 1
        })
        .collect()
}

/// Whether the bye comes from the next bracket alone (in an odd field): the bye's score is
/// at least the next bracket's, and nobody going down or of the next bracket is paired below
/// it in the current matching.
fn single_bye_next(
    players: &[DutchPlayer],
    bye_score: i64,
    down: &[usize],
    nxt: &[usize],
    mate: &[Option<usize>],
) -> bool {
    let nxt_score = nxt.first().map(|&i| players[i].score);
    let mut single = nxt_score.is_some_and(|s| bye_score >= s);
    if single {
        for &i in down.iter().chain(nxt.iter()) {
            if mate[i].is_some_and(|m| Some(players[m].score) < nxt_score) {
                single = false;
            }
        }
    }
    single
}

/// The state the brackets start from: the field's first matching settled completion and
/// the bye's score group.
struct FieldStart<'m, W: Weight> {
    st: State<'m, W>,
    bye_score: i64,
    /// The bye comes from the top bracket.
    single_bye_bracket: bool,
}

/// Completion and the bye's score group: one matching over the whole field, pairs first,
/// every ineligible player paired, then the bye as low as it can go ("C.04.1 c",
/// "FIDE Dutch 2025 C.2", "FIDE Dutch 2025 C.4"). None when `out` is the outcome already
/// (too narrow weights, over the budget, cancelled, or a field no pairing completes).
fn first_matching<'m, W: Weight>(
    ctx: &Context,
    matcher: &'m mut dyn Matcher<W>,
    groups: &[std::ops::Range<usize>],
    out: &mut Outcome,
) -> Option<FieldStart<'m, W>> {
    let players = ctx.players;
    let n = players.len();
    let mut bye_score = 0i64;
    let distinct: Vec<i64> = groups.iter().map(|g| players[g.start].score).collect();
    let rank_from_bottom =
        |s: i64| (distinct.len() - 1 - distinct.iter().position(|&x| x == s).unwrap()) as i64;
    let mut st: State<W> = {
        let mut l = Layout::default();
        let t = l.push(bits_for(3 * n as u64) + 1);
        let s = l.push(bits_for(2 * distinct.len() as u64 * n as u64) + 1);
        let top = l.push(bits_for(n as u64) + 1);
        l.finish();
        out.weight_bits = l.total_bits();
        if l.total_bits() > W::SAFE_BITS {
            out.needs_bits = Some(l.total_bits());
            return None;
        }
        State::new(
            ctx,
            matcher,
            Outer::Field {
                layout: l,
                t,
                s,
                top,
                odd: n % 2 == 1,
                rank: players.iter().map(|p| rank_from_bottom(p.score)).collect(),
            },
        )
    };
    let odd = n % 2 == 1;
    // Sparse first (each player with the next few he may meet in rank order), then
    // wider, then every allowed pair: a matching reaching the bound below is optimal.
    let bound = field_bound(ctx, &st);
    let mut mate = Vec::new();
    for k in ctx.tuning.field_degrees.into_iter().chain([n]) {
        if !st.start_field(ctx, k) {
            out.over_budget = st.over_budget;
            return None;
        }
        mate = st.solve(ctx);
        if st.cancelled {
            out.cancelled = true;
            return None;
        }
        let mut got = W::zero();
        for (a, m) in mate.iter().enumerate() {
            if let Some(b) = m.filter(|&b| a < b) {
                let w = st.outer_weight(ctx, a, b);
                got = got.add(&w.add(&w));
            }
        }
        if got == bound || k == n {
            break;
        }
    }
    let left: Vec<usize> = (0..n).filter(|&i| mate[i].is_none()).collect();
    if left.len() > 1 || left.iter().any(|&i| !players[i].bye_eligible) {
        out.unpaired = left;
        return None;
    }
    if odd {
        bye_score = players[left[0]].score;
    }
    for (c, p) in st.bye_candidate.iter_mut().zip(players) {
        *c = p.bye_eligible && p.score <= bye_score;
    }
    // The bye comes from the top bracket when nobody of it must be paired below it.
    let top = players[0].score;
    let single_bye_bracket = odd
        && bye_score >= top
        && groups[0]
            .clone()
            .all(|i| mate[i].is_none_or(|m| players[m].score >= top));
    Some(FieldStart {
        st,
        bye_score,
        single_bye_bracket,
    })
}

/// One bracket being settled: its players, its weights' layout, and the matching its phases
/// refine (moved-down players, exchanges, S1 players), each phase a method.
struct Bracket<'b, W: Weight> {
    residents: &'b [usize],
    mdps: &'b [usize],
    curnext: &'b [usize],
    nxt: &'b [usize],
    layout: &'b Layout,
    f: &'b Fields,
    /// The unit of the lowest criterion: the order and hint fields add up to less.
    above: W,
    mate: Vec<Option<usize>>,
    matched: Vec<bool>,
    /// The pairs decided, in the order decided.
    finalized: Vec<(usize, usize)>,
}

/// The exchange preference of the remainder's player at place `ia`, `pairs_in` pairs in it
/// ("FIDE Dutch 2025 4.3.3"): its place in S1 first, then the lower place.
fn exchange_add<'a, W: Weight>(
    layout: &'a Layout,
    f: &'a Fields,
    pairs_in: usize,
) -> impl Fn(usize) -> W + 'a {
    let (order, ob) = (f.order, f.ob);
    move |ia: usize| -> W {
        let ia = ia as i64;
        layout.unit::<W>(
            order,
            (i64::from(ia < pairs_in as i64) << (2 * ob + 1)) - (ia << 1),
        )
    }
}

/// The remainder after the moved-down players' pairs, and how its S1 and S2 were chosen.
struct Split {
    remainder: Vec<usize>,
    /// Each player's place in the remainder.
    rpos: HashMap<usize, usize>,
    /// The first optimum showed no exchange.
    no_exchange: bool,
    /// The natural split was as good and is fixed already.
    split_fixed: bool,
}

impl<W: Weight> Bracket<'_, W> {
    /// `v` in the order field.
    fn ord(&self, v: i64) -> W {
        self.layout.unit::<W>(self.f.order, v)
    }

    /// `x` and `m` paired for good.
    fn settle(&mut self, st: &mut State<'_, W>, x: usize, m: usize) {
        self.matched[x] = true;
        self.matched[m] = true;
        self.finalized.push((x, m));
        st.kill(x);
        st.kill(m);
    }

    /// Which moved-down players are paired, the highest ranked of each score first, then
    /// their opponents ("FIDE Dutch 2025 4.2").
    fn pair_moved_down(&mut self, ctx: &Context, st: &mut State<'_, W>, in_cur: &[bool]) {
        let players = ctx.players;
        let n = players.len();
        let mdps = self.mdps;
        let residents = self.residents;
        let res_set: Vec<bool> = (0..n).map(|i| in_cur[i] && !mdps.contains(&i)).collect();
        let mate_is_resident =
            |mate: &[Option<usize>], i: usize| mate[i].is_some_and(|m| res_set[m]);
        let mut k = 0;
        while k < mdps.len() {
            let s = players[mdps[k]].score;
            let same: Vec<usize> = mdps[k..]
                .iter()
                .copied()
                .take_while(|&x| players[x].score == s)
                .collect();
            k += same.len();
            let mut remaining = same.len();
            let mut can = same
                .iter()
                .filter(|&&x| mate_is_resident(&self.mate, x))
                .count();
            for &x in &same {
                if can == 0 {
                    continue;
                }
                if remaining <= can {
                    self.matched[x] = true;
                    continue;
                }
                remaining -= 1;
                if !mate_is_resident(&self.mate, x) {
                    for &r in residents.iter() {
                        if let Some(w) = st.base_of(x, r) {
                            let w = w.add(&self.ord(1));
                            st.set(ctx, x, r, w);
                        }
                    }
                    self.mate = st.solve(ctx);
                }
                if mate_is_resident(&self.mate, x) {
                    self.matched[x] = true;
                    can -= 1;
                    for &r in residents.iter() {
                        if let Some(w) = st.base_of(x, r) {
                            let w = w.add(&self.ord(residents.len() as i64 + 1));
                            st.set(ctx, x, r, w);
                        }
                    }
                }
            }
        }
        self.moved_down_opponents(ctx, st);
    }

    /// The moved-down players' opponents: each, in order, the highest resident the optimum
    /// allows.
    fn moved_down_opponents(&mut self, ctx: &Context, st: &mut State<'_, W>) {
        let residents = self.residents;
        let above = self.above;
        for &x in self.mdps {
            if !self.matched[x] {
                continue;
            }
            // The current optimum already gives x the highest resident it may have: the
            // preference below could not change it (a matching optimal without it and best
            // on it stays optimal with it).
            // Also when every higher resident's pair is in no optimum of the criteria
            // (see `State::excluded`).
            let candidates: Vec<usize> = residents
                .iter()
                .copied()
                .filter(|&r| !self.matched[r] && st.base_of(x, r).is_some_and(|w| w > W::zero()))
                .collect();
            let best = self.mate[x]
                .and_then(|m| candidates.iter().position(|&r| r == m))
                .filter(|&k| {
                    st.clean
                        && candidates[..k]
                            .iter()
                            .all(|&r| st.excluded(ctx, x, r, above))
                })
                .map(|k| candidates[k]);
            if let Some(m) = best {
                self.settle(st, x, m);
                continue;
            }
            let mut bonus = self.curnext.len() as i64;
            for &r in residents.iter().rev() {
                if self.matched[r] {
                    continue;
                }
                if let Some(w) = st.base_of(x, r) {
                    let w = w.add(&self.ord(bonus));
                    st.set(ctx, x, r, w);
                    bonus += 1;
                }
            }
            self.mate = st.solve(ctx);
            if let Some(m) = self.mate[x] {
                self.settle(st, x, m);
            }
        }
    }

    /// The remainder: residents paired among themselves or floating ("FIDE Dutch 2025
    /// 4.3"). Chooses S1 and S2: fewest players moved between them, then the smallest
    /// difference of their numbers in the bracket ("FIDE Dutch 2025 4.3.3").
    fn choose_exchanges(&mut self, ctx: &Context, st: &mut State<'_, W>) -> Split {
        let n = ctx.players.len();
        let remainder: Vec<usize> = self
            .residents
            .iter()
            .copied()
            .filter(|&i| st.alive[i])
            .collect();
        let rpos: HashMap<usize, usize> =
            remainder.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        let pairs_in = remainder
            .iter()
            .filter(|&&i| self.mate[i].is_some_and(|m| m < i && rpos.contains_key(&m)))
            .count();
        let exchange_add = exchange_add::<W>(self.layout, self.f, pairs_in);
        let is_top = |mate: &[Option<usize>], i: usize| {
            mate[i].is_some_and(|m| m > i && rpos.contains_key(&m))
        };
        let mut mate = std::mem::take(&mut self.mate);
        // No exchange (S1 the first `pairs_in` players of the remainder, each paired below
        // him in it) is the most the exchange preference of "FIDE Dutch 2025 4.3.3" can
        // give: an optimum of the criteria at hand that shows none stays optimal with the
        // preference, and S1 and S2 are chosen without the exchanges' matching.
        let no_exchange = st.clean && remainder[..pairs_in].iter().all(|&i| is_top(&mate, i));
        // Otherwise the natural split (S1 the first `pairs_in`) is tried first: when its
        // optimum is as good on every criterion as the optimum without a split, no exchange
        // is needed (the exchange preference's most), and the exchanges' matching, which
        // re-weighs every pair of the remainder, is saved.
        let mut split_fixed = false;
        if !no_exchange && st.clean {
            let before = st.criteria_value(ctx, &mate);
            let top: Vec<bool> = (0..n)
                .map(|i| rpos.get(&i).is_some_and(|&k| k < pairs_in))
                .collect();
            st.fix_split(ctx, &remainder, &top, true);
            let tried = st.solve(ctx);
            if st.clean
                && remainder[..pairs_in].iter().all(|&i| is_top(&tried, i))
                && st.criteria_value(ctx, &tried) == before
            {
                mate = tried;
                split_fixed = true;
            } else {
                st.unfix_split(ctx, &remainder);
            }
        }
        if !no_exchange && !split_fixed {
            st.start_exchanges(ctx, &remainder, exchange_add);
            mate = st.solve(ctx);
        }
        let exchanges = remainder[..pairs_in]
            .iter()
            .filter(|&&i| !is_top(&mate, i))
            .count();
        log::debug!(
            "dutch: remainder of {} players, {pairs_in} pairs: {exchanges} exchanges ({})",
            remainder.len(),
            if no_exchange {
                "none in the first optimum"
            } else if split_fixed {
                "the natural split as good"
            } else {
                "by the exchanges' matching"
            }
        );
        let split = Split {
            remainder,
            rpos,
            no_exchange,
            split_fixed,
        };
        self.mate = mate;
        self.move_exchanged(ctx, st, &split, pairs_in, exchanges);
        split
    }

    /// The `exchanges` players moved between S1 and S2: S1's lowest first, then S2's
    /// highest.
    fn move_exchanged(
        &mut self,
        ctx: &Context,
        st: &mut State<'_, W>,
        split: &Split,
        pairs_in: usize,
        exchanges: usize,
    ) {
        let remainder = &split.remainder;
        let rpos = &split.rpos;
        let exchange_add = exchange_add::<W>(self.layout, self.f, pairs_in);
        let exchange_weight = |st: &State<'_, W>, a: usize, b: usize| -> Option<W> {
            Some(st.base_of(a, b)?.add(&exchange_add(rpos[&a])))
        };
        let is_top = |mate: &[Option<usize>], i: usize| {
            mate[i].is_some_and(|m| m > i && rpos.contains_key(&m))
        };
        let one = self.ord(1);
        let mut mate = std::mem::take(&mut self.mate);
        // S1 players to move: the lowest first.
        let mut left = exchanges;
        let mut p = pairs_in;
        while p > 0 && left > 0 {
            p -= 1;
            let a = remainder[p];
            if is_top(&mate, a) {
                for &b in &remainder[p + 1..] {
                    if let Some(w) = exchange_weight(st, a, b) {
                        st.set(ctx, a, b, w.sub(&one));
                    }
                }
                mate = st.solve(ctx);
            }
            let exchange = !is_top(&mate, a);
            if exchange {
                left -= 1;
            }
            for &b in &remainder[p + 1..] {
                if exchange {
                    st.drop_pair(ctx, a, b);
                } else {
                    st.restore(ctx, a, b);
                }
            }
        }
        // S2 players to move up: the highest first.
        let mut left = exchanges;
        let mut q = pairs_in;
        while q < remainder.len() && left > 1 {
            let a = remainder[q];
            let already = is_top(&mate, a);
            if !already {
                for &b in &remainder[q + 1..] {
                    if let Some(w) = exchange_weight(st, a, b) {
                        st.set(ctx, a, b, w.add(&one));
                    }
                }
                mate = st.solve(ctx);
            }
            if is_top(&mate, a) {
                left -= 1;
                for &b in &remainder[..q] {
                    st.drop_pair(ctx, b, a);
                }
                for &j in self.nxt {
                    st.drop_pair(ctx, a, j);
                }
            }
            if !already {
                for &b in &remainder[q + 1..] {
                    st.restore(ctx, a, b);
                }
            }
            q += 1;
        }
        self.mate = mate;
    }

    /// S1 and S2 fixed as chosen, then each S1 player, in order, meets the highest S2 player
    /// the optimum allows. Returns the pairs pruned and the matchings it took.
    fn decide_s1(&mut self, ctx: &Context, st: &mut State<'_, W>, split: &Split) -> (usize, usize) {
        let n = ctx.players.len();
        let remainder = &split.remainder;
        let above = self.above;
        // Fix S1 and S2 as chosen: a top meets only a non-top below it. The hint now points
        // each S1 player at the S2 player of his own place.
        let top: Vec<bool> = (0..n)
            .map(|i| {
                split.rpos.contains_key(&i)
                    && self.mate[i].is_some_and(|m| m > i && split.rpos.contains_key(&m))
            })
            .collect();
        if !split.split_fixed {
            // With no exchange the natural hint already points each S1 player at the S2
            // player of his place (but for players paired with the moved-down ones): kept,
            // the matcher goes on from its optimum instead of solving again from scratch.
            st.fix_split(ctx, remainder, &top, split.no_exchange);
            self.mate = st.solve(ctx);
        }
        // The split's optimum is one of the criteria's: its duals may show more pairs out.
        let pruned = st.prune(above);
        let s1: Vec<usize> = remainder.iter().copied().filter(|&a| top[a]).collect();
        let mut decided = vec![false; n];
        let s1_solves_before = st.solves;
        for (k, &a) in s1.iter().enumerate() {
            if decided[a] {
                continue;
            }
            // As for the moved-down players: no solve when the optimum already agrees.
            let candidates = self.candidates_of(st, remainder, a);
            let best = self.mate[a]
                .and_then(|m| candidates.iter().position(|&b| b == m))
                .filter(|&k| {
                    st.clean
                        && candidates[..k]
                            .iter()
                            .all(|&b| st.excluded(ctx, a, b, above))
                })
                .map(|k| candidates[k]);
            if let Some(m) = best {
                decided[a] = true;
                self.settle(st, a, m);
                continue;
            }
            self.decide_block(ctx, st, remainder, &s1[k..], &mut decided);
        }
        (pruned, st.solves - s1_solves_before)
    }

    /// The players S1 player `x` may still meet, highest first.
    fn candidates_of(&self, st: &State<'_, W>, remainder: &[usize], x: usize) -> Vec<usize> {
        remainder
            .iter()
            .copied()
            .filter(|&b| {
                b > x && !self.matched[b] && st.base_of(x, b).is_some_and(|w| w > W::zero())
            })
            .collect()
    }

    /// One matching decides a block of the next S1 players (`rest`, from the first
    /// undecided) at once: each one's preference for the higher S2 players weighs more than
    /// all of the later ones' together, so the optimum gives each, in order, the highest the
    /// ones before him leave (the same as one matching each).
    ///
    /// A player's preference ranks his current opponent, the candidates above him that may
    /// still be in an optimum of the criteria, and the next `BELOW_MATE` below him (the
    /// optimum gives him a lower one only when a player before him takes that opponent): a
    /// few bits each, so a block fills the order field with some twenty players. One left
    /// with an opponent he does not rank is not decided, nor is anyone after him in the
    /// block.
    fn decide_block(
        &mut self,
        ctx: &Context,
        st: &mut State<'_, W>,
        remainder: &[usize],
        rest: &[usize],
        decided: &mut [bool],
    ) {
        let above = self.above;
        let room = self.f.block as u32 * self.f.ob;
        let mut block: Vec<(usize, Vec<usize>, bool)> = Vec::new();
        let mut used = 0;
        for &x in rest.iter().filter(|&&x| !decided[x]) {
            let mut ranked = self.candidates_of(st, remainder, x);
            let upto = self.mate[x]
                .and_then(|m| ranked.iter().position(|&b| b == m))
                .map_or(ranked.len(), |p| (p + 1 + BELOW_MATE).min(ranked.len()));
            let whole = upto == ranked.len();
            ranked.truncate(upto);
            // A pair in no optimum of the criteria now is in none later either (the
            // current opponent's, matched in an optimum, never is).
            ranked.retain(|&b| !st.excluded(ctx, x, b, above));
            let width = bits_for(ranked.len() as u64);
            if used + width > room {
                break;
            }
            used += width;
            block.push((x, ranked, whole));
        }
        let mut shift = used;
        for (x, ranked, _) in &block {
            shift -= bits_for(ranked.len() as u64);
            // The current opponent's pair first: it is matched, and raising it alone
            // leaves the matching optimal and the other pairs at x with more slack (see
            // the matcher's repair), so a player whose preference changes nothing is
            // not searched for again.
            let at = self.mate[*x].and_then(|m| ranked.iter().position(|&b| b == m));
            let order = at
                .into_iter()
                .chain((0..ranked.len()).filter(|&j| Some(j) != at));
            for j in order {
                let b = ranked[j];
                if let Some(w) = st.base_of(*x, b) {
                    let w = w.add(&self.ord((ranked.len() - j) as i64).shl(shift));
                    st.set(ctx, *x, b, w);
                }
            }
        }
        self.mate = st.solve(ctx);
        let mut stop = false;
        for (x, ranked, whole) in &block {
            let x = *x;
            stop = stop || !(*whole || self.mate[x].is_some_and(|m| ranked.contains(&m)));
            if stop {
                // Undecided: his preference goes (the next block weighs it again).
                for &b in ranked {
                    if st.alive[b] {
                        st.restore(ctx, x, b);
                    }
                }
                continue;
            }
            decided[x] = true;
            if let Some(m) = self.mate[x] {
                self.settle(st, x, m);
            }
        }
    }
}
