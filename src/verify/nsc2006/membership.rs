//! NSC06 quad membership, recomputed for the verifier ("the computer program will adjust the
//! quad pairings accordingly, with minimum adjustments"): whether some membership of the
//! formula's pod sizes plays fewer barred games in the session's three quad rounds than the
//! pairing did. A quad plays all six of its pairs; a bottom pod of 5–7 plays only some of its
//! pairs in three rounds, so for it the count is the fewest barred games of any way it can play
//! them (rounds of a round robin whose games keep the pod one group and leave the session's
//! remaining rounds possible). Exhaustive search under a clique bound; no solver.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

/// One session's question: the barred graph (`adj[x][y]`: x and y may not meet again) and the
/// number of rounds the session's pods play (the quad rounds, then any more of their own).
pub(super) struct Membership<'a> {
    adj: &'a [Vec<bool>],
    rounds: usize,
    /// Every set of pairs (bit x·8 + y) a pod of the given size can play in its quad rounds.
    unions: RefCell<HashMap<usize, Vec<u64>>>,
    /// The fewest barred games of a pod (its players, in increasing order).
    memo: RefCell<HashMap<Vec<usize>, usize>>,
}

impl<'a> Membership<'a> {
    pub(super) fn new(adj: &'a [Vec<bool>], rounds: usize) -> Self {
        Membership {
            adj,
            rounds,
            unions: RefCell::new(HashMap::new()),
            memo: RefCell::new(HashMap::new()),
        }
    }

    /// Whether some membership of `players` in pods of `sizes` plays fewer than `target`
    /// barred games in the quad rounds: `Some(true)` with one found, `Some(false)` when none
    /// exists, `None` when `budget` (search nodes) runs out.
    pub(super) fn fewer_exists(
        &self,
        players: &[usize],
        sizes: &[usize],
        target: usize,
        budget: &mut usize,
    ) -> Option<bool> {
        self.search(players, sizes, target, 0, budget)
    }

    /// Pods are filled in turn, each starting with the first player left, so every membership
    /// is met once.
    fn search(
        &self,
        players: &[usize],
        sizes: &[usize],
        target: usize,
        cost: usize,
        budget: &mut usize,
    ) -> Option<bool> {
        if players.is_empty() {
            return Some(cost < target);
        }
        if cost + self.bound(players, sizes) >= target {
            return Some(false);
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let (u, rest) = (players[0], &players[1..]);
        let mut tried = BTreeSet::new();
        for (i, &size) in sizes.iter().enumerate() {
            if !tried.insert(size) || size == 0 || size - 1 > rest.len() {
                continue;
            }
            let mut others: Vec<usize> = sizes.to_vec();
            others.remove(i);
            let mut pick = vec![u];
            if let Some(found) = choose(rest, 0, size - 1, &mut pick, &mut |pod| {
                let left: Vec<usize> = rest.iter().copied().filter(|p| !pod.contains(p)).collect();
                self.search(&left, &others, target, cost + self.games(pod), budget)
            }) {
                return found;
            }
        }
        Some(false)
    }

    /// A lower bound on the barred games of `players` in pods of `sizes`: the clique bound on
    /// the pairs they hold, less the pairs a pod of 5–7 leaves unplayed; or the pairs held by
    /// the quads alone (the pod's players placed free); the larger.
    fn bound(&self, players: &[usize], sizes: &[usize]) -> usize {
        let unplayed: usize = sizes.iter().map(|&s| pairs(s) - played(s)).sum();
        let free: Vec<bool> = sizes.iter().map(|&s| s > 4).collect();
        let mut best = 0;
        for largest in [true, false] {
            let cliques = clique_split(players, self.adj, largest);
            let held = flow_bound(&cliques, sizes, &vec![false; sizes.len()]);
            best = best.max(held.saturating_sub(unplayed));
            if free.contains(&true) {
                best = best.max(flow_bound(&cliques, sizes, &free));
            }
        }
        best
    }

    /// The barred games `pod` plays in the quad rounds: all its barred pairs for a quad, the
    /// fewest of any way it can play them for a pod of 5–7.
    fn games(&self, pod: &[usize]) -> usize {
        let adj = self.adj;
        if pod.len() <= 4 {
            return (0..pod.len())
                .map(|x| (x + 1..pod.len()).filter(|&y| adj[pod[x]][pod[y]]).count())
                .sum();
        }
        if let Some(&g) = self.memo.borrow().get(pod) {
            return g;
        }
        let mut barred = 0u64;
        for x in 0..pod.len() {
            for y in x + 1..pod.len() {
                if adj[pod[x]][pod[y]] {
                    barred |= 1 << (x * 8 + y);
                }
            }
        }
        let mut unions = self.unions.borrow_mut();
        let ways = unions
            .entry(pod.len())
            .or_insert_with(|| pod_unions(pod.len(), self.rounds));
        let g = ways
            .iter()
            .map(|u| (u & barred).count_ones() as usize)
            .min()
            .unwrap_or(0);
        self.memo.borrow_mut().insert(pod.to_vec(), g);
        g
    }
}

fn pairs(s: usize) -> usize {
    s * s.saturating_sub(1) / 2
}

/// Games a pod of `s` plays in three rounds (a quad: all six).
fn played(s: usize) -> usize {
    if s <= 4 {
        pairs(s)
    } else {
        3 * (s / 2)
    }
}

/// The pair sets a pod of `n` (5–7) can play in its three quad rounds: three rounds of a round
/// robin (maximum matchings, no pair twice, a different player sitting out each round when n
/// is odd) whose games join the pod into one group, and that leave `rounds` − 3 more such
/// rounds (the session's fourth).
pub(super) fn pod_unions(n: usize, rounds: usize) -> Vec<u64> {
    let ms = rr_rounds(n);
    let fits = |used: u64, sat: u32, m: &(u64, usize)| {
        m.0 & used == 0 && (m.1 >= n || sat >> m.1 & 1 == 0)
    };
    let sit = |m: &(u64, usize)| if m.1 >= n { 0 } else { 1u32 << m.1 };
    let mut out = Vec::new();
    for (i, a) in ms.iter().enumerate() {
        for (j, b) in ms.iter().enumerate().skip(i + 1) {
            if !fits(a.0, sit(a), b) {
                continue;
            }
            for c in &ms[j + 1..] {
                let (used, sat) = (a.0 | b.0, sit(a) | sit(b));
                if !fits(used, sat, c) {
                    continue;
                }
                let (used, sat) = (used | c.0, sat | sit(c));
                if joined(n, used) && extends(&ms, n, used, sat, rounds.saturating_sub(3)) {
                    out.push(used);
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether `more` further rounds fit after the pairs `used` and the sitters `sat`.
fn extends(ms: &[(u64, usize)], n: usize, used: u64, sat: u32, more: usize) -> bool {
    more == 0
        || ms.iter().any(|m| {
            let s = if m.1 >= n { 0 } else { 1u32 << m.1 };
            m.0 & used == 0 && s & sat == 0 && extends(ms, n, used | m.0, sat | s, more - 1)
        })
}

/// Whether the pairs `bits` join players 0..n into one group.
fn joined(n: usize, bits: u64) -> bool {
    let mut seen = 1u32;
    loop {
        let before = seen;
        for x in 0..n {
            for y in x + 1..n {
                if bits >> (x * 8 + y) & 1 == 1 && (seen >> x & 1 == 1 || seen >> y & 1 == 1) {
                    seen |= 1 << x | 1 << y;
                }
            }
        }
        if seen == before {
            return seen == (1 << n) - 1;
        }
    }
}

/// The fewest pairs inside pods of `sizes` for disjoint cliques of `cliques` players, a pod
/// marked `free` costing nothing.
fn flow_bound(cliques: &[usize], sizes: &[usize], free: &[bool]) -> usize {
    // Units of the cliques go into the pods one at a time by the cheapest augmenting path
    // (successive shortest paths; convex costs make it exact). Cells: flow[c][q].
    let nq = sizes.len();
    let mut flow = vec![vec![0usize; nq]; cliques.len()];
    let mut room: Vec<usize> = sizes.to_vec();
    let mut total = 0;
    // Players outside every clique only fill room left over: they cost nothing.
    for (c, &k) in cliques.iter().enumerate() {
        for _ in 0..k {
            total += augment(c, &mut flow, &mut room, free);
        }
    }
    total
}

/// One unit of clique `c` routed by a shortest path over the pods (Bellman-Ford on the
/// residual graph: enter pod q at cost flow[c][q], 0 in a free pod; from pod q, move a unit of
/// clique d to pod r at the cost of entering r less that of its place in q); ends at a pod with
/// room. Returns the path's cost.
fn augment(c: usize, flow: &mut [Vec<usize>], room: &mut [usize], free: &[bool]) -> usize {
    let nq = room.len();
    let enter = |row: &[usize], q: usize| if free[q] { 0 } else { row[q] as i64 };
    let mut dist: Vec<i64> = (0..nq).map(|q| enter(&flow[c], q)).collect();
    let mut prev: Vec<Option<(usize, usize)>> = vec![None; nq];
    for _ in 0..nq {
        let mut changed = false;
        for q in 0..nq {
            for (d, row) in flow.iter().enumerate() {
                if row[q] == 0 {
                    continue;
                }
                let leave = if free[q] { 0 } else { row[q] as i64 - 1 };
                for r in 0..nq {
                    let w = enter(row, r) - leave;
                    if r != q && dist[q] + w < dist[r] {
                        dist[r] = dist[q] + w;
                        prev[r] = Some((q, d));
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let end = (0..nq)
        .filter(|&q| room[q] > 0)
        .min_by_key(|&q| (dist[q], q))
        .expect("the pods hold every player");
    let cost = dist[end];
    room[end] -= 1;
    let mut at = end;
    while let Some((q, d)) = prev[at] {
        flow[d][at] += 1;
        flow[d][q] -= 1;
        at = q;
    }
    flow[c][at] += 1;
    cost.max(0) as usize
}

/// Sizes (2 or more) of disjoint cliques covering `players`: each grown from a start player by
/// adding the candidate adjacent to most other candidates; with `largest`, the largest such
/// clique over all start players is taken first, else the first player left starts.
fn clique_split(players: &[usize], adj: &[Vec<bool>], largest: bool) -> Vec<usize> {
    let grow = |left: &[usize], a: usize| {
        let mut k = vec![a];
        let mut cand: Vec<usize> = left.iter().copied().filter(|&c| adj[a][c]).collect();
        while !cand.is_empty() {
            let &best = cand
                .iter()
                .max_by_key(|&&c| (cand.iter().filter(|&&d| adj[c][d]).count(), usize::MAX - c))
                .unwrap();
            k.push(best);
            cand.retain(|&d| d != best && adj[best][d]);
        }
        k
    };
    let mut left: Vec<usize> = players.to_vec();
    let mut sizes = Vec::new();
    while let Some(&first) = left.first() {
        let k = if largest {
            left.iter()
                .map(|&a| grow(&left, a))
                .max_by_key(|k| k.len())
                .unwrap()
        } else {
            grow(&left, first)
        };
        left.retain(|x| !k.contains(x));
        if k.len() >= 2 {
            sizes.push(k.len());
        }
    }
    sizes
}

/// Each way of adding `k` of `from[start..]` to `pick`, until `f` answers `Some(true)` or
/// `None` (returned); `None` when every way answered `Some(false)`.
fn choose(
    from: &[usize],
    start: usize,
    k: usize,
    pick: &mut Vec<usize>,
    f: &mut dyn FnMut(&[usize]) -> Option<bool>,
) -> Option<Option<bool>> {
    if k == 0 {
        return match f(pick) {
            Some(false) => None,
            other => Some(other),
        };
    }
    for i in start..from.len() + 1 - k {
        pick.push(from[i]);
        let r = choose(from, i + 1, k - 1, pick, f);
        pick.pop();
        if r.is_some() {
            return r;
        }
    }
    None
}

/// The rounds of a round robin of `n` players (n ≤ 7) as bit sets of pairs (bit x·8 + y for
/// x < y) with the player sitting out (`n` when n is even): every maximum matching.
pub(super) fn rr_rounds(n: usize) -> Vec<(u64, usize)> {
    fn fill(left: u32, bits: u64, out: &mut Vec<u64>) {
        if left == 0 {
            out.push(bits);
            return;
        }
        let x = left.trailing_zeros() as usize;
        let rest = left & !(1 << x);
        let mut r = rest;
        while r != 0 {
            let y = r.trailing_zeros() as usize;
            r &= r - 1;
            fill(rest & !(1 << y), bits | 1 << (x * 8 + y), out);
        }
    }
    let all = (1u32 << n) - 1;
    let sitters: Vec<usize> = if n % 2 == 1 {
        (0..n).collect()
    } else {
        vec![n]
    };
    let mut out = Vec::new();
    for sit in sitters {
        let mut ms = Vec::new();
        fill(all & !(1 << sit), 0, &mut ms);
        out.extend(ms.into_iter().map(|m| (m, sit)));
    }
    out
}
