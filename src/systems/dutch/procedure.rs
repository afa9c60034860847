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

use super::criteria::layout_for;
use super::graph::{field_bound, BracketSpec, Outer, State, FIELD_DEGREES};
use super::state::DutchPlayer;
use super::weight::{bits_for, Layout, Packed};
// Pair keys are looked up millions of times a round: FxHash (fixed, fast; keys are ours).
use rustc_hash::FxHashMap as HashMap;

pub use super::colour::colour_of;

/// How many candidates below his current opponent an S1 player of a block ranks (see the
/// S1 step): enough that the cascades of a block (each player taking the next one's
/// opponent) seldom leave one without a ranked opponent.
const BELOW_MATE: usize = 7;

/// An exact maximum-weight matching kept between solves, supplied by the solver: the
/// procedure changes a few weights or removes paired players, then asks again. Read from
/// several threads at once after a solve (pricing), hence `Sync`.
pub trait Matcher<W>: Sync {
    /// A graph on vertices `0..n`; edge ids are positions in `edges`.
    fn start(&mut self, n: usize, edges: &[(usize, usize, W)]);
    fn set_weight(&mut self, edge: usize, w: W);
    /// Adds an edge after a solve (the next solve repairs what it breaks); its id.
    fn add_edge(&mut self, a: usize, b: usize, w: W) -> usize;
    /// After a solve: the reduced cost a pair of weight `w` between `a` and `b` would have,
    /// in the graph or not (as [`Matcher::reduced_cost`]).
    fn pair_reduced_cost(&self, a: usize, b: usize, w: W) -> Option<W>;
    /// After a solve: [`Matcher::pair_reduced_cost`] when it is negative (the pair is not
    /// covered by the duals), else `None`.
    fn pair_violation(&self, a: usize, b: usize, w: W) -> Option<W>;
    /// After a solve: whether pairs at `v` may have lost reduced cost since the solve before
    /// (true after the first).
    fn lowered(&self, v: usize) -> bool;
    /// After a solve: vertex `v`'s dual, in the units of [`Matcher::pair_reduced_cost`]: a pair
    /// of weight `w` at `a` and `b` has a reduced cost of at least `dual(a) + dual(b) − 2·w`
    /// (the duals of blossoms holding both only add).
    fn vertex_dual(&self, v: usize) -> Option<W>;
    /// After a solve: two blossoms holding `v`, each with the sum Z of its dual and those
    /// above it (same units); `None` when v is in none. A pair of v and another player in one
    /// of them has a reduced cost of at least `dual(a) + dual(b) + Z − 2·w`. The first is the
    /// one where that bound is exact, the second the top blossom.
    fn blossoms_of(&self, v: usize) -> Option<[(usize, W); 2]>;
    /// After a solve: the duals of the blossoms holding both `a` and `b`, summed (same
    /// units; zero when none does).
    fn shared_dual(&self, a: usize, b: usize) -> Option<W>;
    /// After `start`: the first solve keeps the vertex's dual at `y` or above (same units).
    fn set_floor(&mut self, v: usize, y: W);
    /// Drops the current matching and duals: the next solve starts afresh on the weights
    /// then set (when nearly every weight is about to change).
    fn forget(&mut self);
    /// The vertex and its edges leave the graph (a player paired for good).
    fn remove_vertex(&mut self, v: usize);
    /// After a solve: the edges leave the graph (pairs in no optimum left to find).
    fn remove_edges(&mut self, edges: &[usize]);
    /// An optimal matching of the current graph: `mate[v]`.
    fn solve(&mut self) -> Vec<Option<usize>>;
    /// A maximum-weight matching of a separate graph, solved on its own (the completion of
    /// the players below a bracket).
    fn side(&mut self, n: usize, edges: &[(usize, usize, i64)]) -> Vec<Option<usize>>;
    /// After a solve: the edge's reduced cost under the optimal duals, in units of twice its
    /// weight (vertex duals plus the duals of the blossoms holding both ends, minus 2·w).
    fn reduced_cost(&self, edge: usize) -> Option<W>;
}

/// What one bracket did, for the certificate.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BracketLog {
    /// Resident score in thousandths (the score group that opened the bracket).
    pub score: i64,
    pub residents: usize,
    pub moved_down: usize,
    pub pairs: usize,
    pub floaters: usize,
    /// Exact matchings solved for this bracket (criteria, then the Dutch order).
    pub matchings: usize,
    /// Solved over every pair of the unpaired players, rather than over the bracket and its
    /// look-ahead with the players below completed apart (see `models/dutch.md`).
    pub dense: bool,
}

/// The round as the procedure leaves it: pairs of player indices (higher-ranked first), the
/// bye, anyone left over (only when no pairing satisfies the absolute criteria).
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
    pub unpaired: Vec<usize>,
    pub brackets: Vec<BracketLog>,
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

pub struct Context<'a> {
    pub players: &'a [DutchPlayer],
    /// Asked before each matching: true stops the procedure (a deadline passed).
    pub should_cancel: &'a dyn Fn() -> bool,
    /// The last round is being paired (topscorers' exemptions apply).
    pub last_round: bool,
    pub played_rounds: u32,
    pub readings: Readings,
    /// Most pairs a graph may hold (its memory): a bracket that would need more stops the
    /// procedure ([`Outcome::over_budget`]) rather than build it.
    pub pair_budget: usize,
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
pub fn run<W: Packed>(ctx: &Context, matcher: &mut dyn Matcher<W>) -> Outcome {
    let players = ctx.players;
    let n = players.len();
    let mut out = Outcome::default();
    if n == 0 {
        return out;
    }
    // Score groups as index ranges (rank order).
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for i in 1..=n {
        if i == n || players[i].score != players[start].score {
            groups.push(start..i);
            start = i;
        }
    }
    // Completion and the bye's score group: one matching over the whole field, pairs first,
    // every ineligible player paired, then the bye as low as it can go ("C.04.1 c",
    // "FIDE Dutch 2025 C.2", "FIDE Dutch 2025 C.4").
    let mut bye_score = 0i64;
    let mut single_bye_bracket;
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
        if l.total_bits() > W::BITS {
            out.needs_bits = Some(l.total_bits());
            return out;
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
    {
        let odd = n % 2 == 1;
        // Sparse first (each player with the next few he may meet in rank order), then
        // wider, then every allowed pair: a matching reaching the bound below is optimal.
        let bound = field_bound(ctx, &st);
        let mut mate = Vec::new();
        for k in FIELD_DEGREES.into_iter().chain([n]) {
            if !st.start_field(ctx, k) {
                out.over_budget = st.over_budget;
                return out;
            }
            mate = st.solve(ctx);
            if st.cancelled {
                out.cancelled = true;
                return out;
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
            return out;
        }
        if odd {
            bye_score = players[left[0]].score;
        }
        for (c, p) in st.bye_candidate.iter_mut().zip(players) {
            *c = p.bye_eligible && p.score <= bye_score;
        }
        // The bye comes from the top bracket when nobody of it must be paired below it.
        let top = players[0].score;
        single_bye_bracket = odd
            && bye_score >= top
            && groups[0]
                .clone()
                .all(|i| mate[i].is_none_or(|m| players[m].score >= top));
    }
    let odd = n % 2 == 1;
    // C.9 ranks: among players at the bye's score, more games played ranks lower.
    let at_bye_score: Vec<u32> = players
        .iter()
        .filter(|p| p.score == bye_score)
        .map(|p| p.played_games)
        .collect();
    let unplayed_ranks: Vec<i64> = players
        .iter()
        .map(|p| {
            let g = p.played_games;
            let more = at_bye_score.iter().filter(|&&x| x > g).count();
            let same = at_bye_score.iter().filter(|&&x| x == g).count();
            (more + same) as i64 - 1
        })
        .collect();
    let unplayed_rank = |i: usize| -> i64 { unplayed_ranks[i] };

    let mut mdps: Vec<usize> = Vec::new();
    // Pairs of the players going down that their bracket kept apart: kept apart below.
    let mut apart: Vec<(usize, usize)> = Vec::new();
    let mut gi = 0usize;
    loop {
        let residents: Vec<usize> = groups
            .get(gi)
            .cloned()
            .map(|r| r.collect())
            .unwrap_or_default();
        let cur: Vec<usize> = mdps
            .iter()
            .copied()
            .chain(residents.iter().copied())
            .collect();
        if cur.len() <= 1 && gi >= groups.len() {
            break;
        }
        if (ctx.should_cancel)() {
            out.cancelled = true;
            return out;
        }
        gi += 1;
        let nxt: Vec<usize> = groups
            .get(gi)
            .cloned()
            .map(|r| r.collect())
            .unwrap_or_default();
        let curnext: Vec<usize> = cur.iter().chain(nxt.iter()).copied().collect();
        let solves_before = st.solves;
        let dense_before = st.dense_brackets;
        // The bits the weights have to spare go to the S1 players' block (fewer matchings).
        let (layout, f) = layout_for(ctx, n, &cur, &curnext, single_bye_bracket, W::BITS);
        out.weight_bits = out.weight_bits.max(f.needed);
        if f.needed > W::BITS {
            out.needs_bits = Some(f.needed);
            return out;
        }
        let mut in_cur = vec![false; n];
        let mut in_next = vec![false; n];
        for &i in &cur {
            in_cur[i] = true;
        }
        for &i in &nxt {
            in_next[i] = true;
        }
        let is_resident = |i: usize, in_cur: &[bool]| in_cur[i] && !mdps.contains(&i);
        // The bracket and its look-ahead are solved with every pair among them (weighed as
        // asked); the players below only through their completion (reduced mode).
        let spec = BracketSpec {
            layout: &layout,
            fields: &f,
            in_cur: &in_cur,
            in_next: &in_next,
            residents: &residents,
            apart: &apart,
            single_bye_bracket,
            bye_score,
            unplayed_rank: &unplayed_rank,
        };
        let t_begin = std::time::Instant::now();
        if !st.begin_bracket(ctx, &spec) {
            out.over_budget = st.over_budget;
            return out;
        }
        let graph_time = t_begin.elapsed().as_secs_f64();
        let ord = |v: i64| layout.unit::<W>(f.order, v);
        // The unit of the lowest criterion: the order and hint fields add up to less.
        let above = layout.above::<W>(f.order);
        // Where a bracket's time goes, for the trace: the first matching, the moved-down
        // players, the exchanges, the S1 players' decisions.
        let mut clock = std::time::Instant::now();
        let mut phases = [0f64; 4];
        let mut lap = |k: usize| {
            phases[k] = clock.elapsed().as_secs_f64();
            clock = std::time::Instant::now();
        };
        let mut mate = st.solve(ctx);
        // Every step below weighs in the order and hint fields only: a pair in no optimum of
        // the criteria now is in none of theirs.
        let mut pruned = st.prune(above);
        lap(0);
        let mut finalized: Vec<(usize, usize)> = Vec::new();
        let mut matched = vec![false; n];
        let res_set: Vec<bool> = (0..n).map(|i| is_resident(i, &in_cur)).collect();
        let mate_is_resident =
            |mate: &[Option<usize>], i: usize| mate[i].is_some_and(|m| res_set[m]);

        // Which moved-down players are paired: the highest ranked of each score first
        // ("FIDE Dutch 2025 4.2").
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
            let mut can = same.iter().filter(|&&x| mate_is_resident(&mate, x)).count();
            for &x in &same {
                if can == 0 {
                    continue;
                }
                if remaining <= can {
                    matched[x] = true;
                    continue;
                }
                remaining -= 1;
                if !mate_is_resident(&mate, x) {
                    for &r in residents.iter() {
                        if let Some(w) = st.base_of(x, r) {
                            let w = w.add(&ord(1));
                            st.set(ctx, x, r, w);
                        }
                    }
                    mate = st.solve(ctx);
                }
                if mate_is_resident(&mate, x) {
                    matched[x] = true;
                    can -= 1;
                    for &r in residents.iter() {
                        if let Some(w) = st.base_of(x, r) {
                            let w = w.add(&ord(residents.len() as i64 + 1));
                            st.set(ctx, x, r, w);
                        }
                    }
                }
            }
        }
        // Their opponents: each, in order, the highest resident the optimum allows.
        for &x in &mdps {
            if !matched[x] {
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
                .filter(|&r| !matched[r] && st.base_of(x, r).is_some_and(|w| w > W::zero()))
                .collect();
            let best = mate[x]
                .and_then(|m| candidates.iter().position(|&r| r == m))
                .filter(|&k| {
                    st.clean
                        && candidates[..k]
                            .iter()
                            .all(|&r| st.excluded(ctx, x, r, above))
                })
                .map(|k| candidates[k]);
            if let Some(m) = best {
                matched[m] = true;
                finalized.push((x, m));
                st.kill(x);
                st.kill(m);
                continue;
            }
            let mut bonus = curnext.len() as i64;
            for &r in residents.iter().rev() {
                if matched[r] {
                    continue;
                }
                if let Some(w) = st.base_of(x, r) {
                    let w = w.add(&ord(bonus));
                    st.set(ctx, x, r, w);
                    bonus += 1;
                }
            }
            mate = st.solve(ctx);
            if let Some(m) = mate[x] {
                matched[m] = true;
                finalized.push((x, m));
                st.kill(x);
                st.kill(m);
            }
        }

        lap(1);
        // The remainder: residents paired among themselves or floating ("FIDE Dutch 2025 4.3").
        let remainder: Vec<usize> = residents.iter().copied().filter(|&i| st.alive[i]).collect();
        let rpos: HashMap<usize, usize> =
            remainder.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        let pairs_in = remainder
            .iter()
            .filter(|&&i| mate[i].is_some_and(|m| m < i && rpos.contains_key(&m)))
            .count();
        let ob = f.ob;
        // Exchanges: fewest players moved between S1 and S2, then the smallest difference of
        // their numbers in the bracket ("FIDE Dutch 2025 4.3.3").
        let exchange_add = |ia: usize| -> W {
            let ia = ia as i64;
            ord((i64::from(ia < pairs_in as i64) << (2 * ob + 1)) - (ia << 1))
        };
        let exchange_weight = |st: &State<'_, W>, a: usize, b: usize| -> Option<W> {
            Some(st.base_of(a, b)?.add(&exchange_add(rpos[&a])))
        };
        let is_top = |mate: &[Option<usize>], i: usize| {
            mate[i].is_some_and(|m| m > i && rpos.contains_key(&m))
        };
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
        // S1 players to move: the lowest first.
        let mut left = exchanges;
        let mut p = pairs_in;
        while p > 0 && left > 0 {
            p -= 1;
            let a = remainder[p];
            if is_top(&mate, a) {
                for &b in &remainder[p + 1..] {
                    if let Some(w) = exchange_weight(&st, a, b) {
                        st.set(ctx, a, b, w.sub(&ord(1)));
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
                    if let Some(w) = exchange_weight(&st, a, b) {
                        st.set(ctx, a, b, w.add(&ord(1)));
                    }
                }
                mate = st.solve(ctx);
            }
            if is_top(&mate, a) {
                left -= 1;
                for &b in &remainder[..q] {
                    st.drop_pair(ctx, b, a);
                }
                for &j in &nxt {
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
        lap(2);
        // Fix S1 and S2 as chosen: a top meets only a non-top below it. The hint now points
        // each S1 player at the S2 player of his own place.
        let top: Vec<bool> = (0..n)
            .map(|i| rpos.contains_key(&i) && is_top(&mate, i))
            .collect();
        if !split_fixed {
            // With no exchange the natural hint already points each S1 player at the S2
            // player of his place (but for players paired with the moved-down ones): kept,
            // the matcher goes on from its optimum instead of solving again from scratch.
            st.fix_split(ctx, &remainder, &top, no_exchange);
            mate = st.solve(ctx);
        }
        // The split's optimum is one of the criteria's: its duals may show more pairs out.
        pruned += st.prune(above);
        // Each S1 player, in order, meets the highest S2 player the optimum allows.
        let s1: Vec<usize> = remainder.iter().copied().filter(|&a| top[a]).collect();
        let mut decided = vec![false; n];
        let s1_solves_before = st.solves;
        // The players an S1 player may still meet, highest first.
        let candidates_of = |st: &State<'_, W>, matched: &[bool], x: usize| -> Vec<usize> {
            remainder
                .iter()
                .copied()
                .filter(|&b| {
                    b > x && !matched[b] && st.base_of(x, b).is_some_and(|w| w > W::zero())
                })
                .collect()
        };
        for (k, &a) in s1.iter().enumerate() {
            if decided[a] {
                continue;
            }
            // As for the moved-down players: no solve when the optimum already agrees.
            let candidates = candidates_of(&st, &matched, a);
            let best = mate[a]
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
                matched[a] = true;
                matched[m] = true;
                finalized.push((a, m));
                st.kill(a);
                st.kill(m);
                continue;
            }
            // One matching decides a block of the next players at once: each one's
            // preference for the higher S2 players weighs more than all of the later ones'
            // together, so the optimum gives each, in order, the highest the ones before him
            // leave (the same as one matching each).
            //
            // A player's preference ranks his current opponent, the candidates above him
            // that may still be in an optimum of the criteria, and the next `BELOW_MATE`
            // below him (the optimum gives him a lower one only when a player before him
            // takes that opponent): a few bits each, so a block fills the order field with
            // some twenty players. One left with an opponent he does not rank is not decided,
            // nor is anyone after him in the block.
            let room = f.block as u32 * f.ob;
            let mut block: Vec<(usize, Vec<usize>, bool)> = Vec::new();
            let mut used = 0;
            for &x in s1[k..].iter().filter(|&&x| !decided[x]) {
                let mut ranked = candidates_of(&st, &matched, x);
                let upto = mate[x]
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
                let at = mate[*x].and_then(|m| ranked.iter().position(|&b| b == m));
                let order = at
                    .into_iter()
                    .chain((0..ranked.len()).filter(|&j| Some(j) != at));
                for j in order {
                    let b = ranked[j];
                    if let Some(w) = st.base_of(*x, b) {
                        let w = w.add(&ord((ranked.len() - j) as i64).shl(shift));
                        st.set(ctx, *x, b, w);
                    }
                }
            }
            mate = st.solve(ctx);
            let mut stop = false;
            for (x, ranked, whole) in &block {
                let x = *x;
                stop = stop || !(*whole || mate[x].is_some_and(|m| ranked.contains(&m)));
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
                if let Some(m) = mate[x] {
                    matched[x] = true;
                    matched[m] = true;
                    finalized.push((x, m));
                    st.kill(x);
                    st.kill(m);
                }
            }
        }

        lap(3);
        let score = residents
            .first()
            .map(|&i| players[i].score)
            .unwrap_or(players[cur[0]].score);
        log::debug!(
            "dutch: bracket {score}: {} residents, {} moved down, {} next; {} matchings; \
             graph {graph_time:.2} s, first {:.2} s, moved down {:.2} s, exchanges {:.2} s, \
             S1 {:.2} s ({} matchings); {pruned} pairs pruned",
            residents.len(),
            mdps.len(),
            nxt.len(),
            st.solves - solves_before,
            phases[0],
            phases[1],
            phases[2],
            phases[3],
            st.solves - s1_solves_before,
        );
        // Who goes down: everyone of the bracket not paired in it.
        let down: Vec<usize> = cur.iter().copied().filter(|&i| st.alive[i]).collect();
        let nxt_score = nxt.first().map(|&i| players[i].score);
        single_bye_bracket = odd && nxt_score.is_some_and(|s| bye_score >= s);
        if single_bye_bracket {
            for &i in down.iter().chain(nxt.iter()) {
                if mate[i].is_some_and(|m| Some(players[m].score) < nxt_score) {
                    single_bye_bracket = false;
                }
            }
        }
        out.brackets.push(BracketLog {
            score,
            residents: residents.len(),
            moved_down: mdps.len(),
            pairs: finalized.len(),
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
        out.pairs.extend(finalized);
        apart = st.kept_apart(ctx, &down);
        mdps = down;
        if gi >= groups.len() && mdps.len() <= 1 {
            break;
        }
    }
    match mdps.as_slice() {
        [] => {}
        [b] => out.bye = Some(*b),
        rest => out.unpaired = rest.to_vec(),
    }
    out
}
