//! The engine's one maximum-cardinality matcher: Edmonds' blossom algorithm on a general
//! graph, grown from a given partial matching ([`Graph`]; the legal fallback of
//! [`super::greedy`] widens its pairs from a pair source as it searches), and a pairing of
//! every player who must play ([`cover`]).
//!
//! The solver uses it on the optimal face of a tier group's LP: when the LP optimum is
//! fractional (odd cycles of halves) although integral pairings reach its bound, a pairing
//! made only of zero-reduced-cost columns is often one of them, and checking its value closes
//! the group without a branch-and-bound search.

use crate::spec::PairSource;
use std::collections::VecDeque;
use std::time::Instant;

/// A matching of the `n` vertices over `edges` that covers every vertex not `optional`, if
/// there is one; `start` (disjoint edges) is the matching it grows from. Returns each vertex's
/// partner (`None`: left out, only for optional vertices). `None` when no such matching exists
/// or more than `max_optional` vertices are optional (the construction below grows with their
/// square).
pub fn cover(
    n: usize,
    edges: &[(usize, usize)],
    optional: &[bool],
    start: &[(usize, usize)],
    max_optional: usize,
) -> Option<Vec<Option<usize>>> {
    // Each optional vertex gets a twin it may be matched to instead; the twins are joined to
    // each other (and to one more twin when the count is odd), so that a perfect matching of
    // this graph is a matching of the original covering every vertex that must be covered.
    let twins: Vec<usize> = (0..n).filter(|&v| optional[v]).collect();
    if twins.len() > max_optional {
        return None;
    }
    let extra = (n + twins.len()) % 2;
    let total = n + twins.len() + extra;
    let mut adj = vec![Vec::new(); total];
    for &(a, b) in edges {
        if a != b && a < n && b < n {
            adj[a].push(b);
            adj[b].push(a);
        }
    }
    for (k, &v) in twins.iter().enumerate() {
        adj[v].push(n + k);
        adj[n + k].push(v);
    }
    for a in n..total {
        for b in a + 1..total {
            adj[a].push(b);
            adj[b].push(a);
        }
    }
    let mut m = Graph::new(total, total);
    m.adj = adj;
    for &(a, b) in start {
        if a < n && b < n && m.mate[a].is_none() && m.mate[b].is_none() {
            m.mate[a] = Some(b);
            m.mate[b] = Some(a);
        }
    }
    // The twins pair off among themselves to begin with.
    let mut free_twin = None;
    for t in n..total {
        match free_twin.take() {
            None => free_twin = Some(t),
            Some(f) => {
                m.mate[t] = Some(f);
                m.mate[f] = Some(t);
            }
        }
    }
    for v in 0..total {
        if m.mate[v].is_none() {
            // No augmenting path from v now means none later either (Edmonds): v stays
            // exposed in every maximum matching, so no perfect matching exists.
            let end = m.search(v)?;
            m.flip(end);
        }
    }
    Some((0..n).map(|v| m.mate[v].filter(|&u| u < n)).collect())
}

/// A graph with a matching, and Edmonds' search for augmenting paths.
pub(super) struct Graph<'a> {
    /// Players are vertices `0..players`; bye slots follow.
    players: usize,
    pub(super) adj: Vec<Vec<usize>>,
    /// With a pair source: how many ranks either side of each vertex its allowed pairs are
    /// in `adj` already, how far they should be, and the pairs in `adj`.
    pub(super) source: Option<&'a dyn PairSource>,
    pub(super) reach: Vec<usize>,
    pub(super) window: usize,
    pub(super) known: std::collections::HashSet<(usize, usize)>,
    pub(super) mate: Vec<Option<usize>>,
    /// Scratch of one search: the tree parent of an inner vertex, and each vertex's blossom
    /// base.
    parent: Vec<Option<usize>>,
    base: Vec<usize>,
    /// A vertex searches must not touch (one being freed for the bye).
    blocked: Option<usize>,
    /// Past this instant a search over the widened pairs gives up (no path found).
    pub(super) end: Option<Instant>,
}

impl<'a> Graph<'a> {
    pub(super) fn new(players: usize, n: usize) -> Graph<'a> {
        Graph {
            players,
            adj: vec![Vec::new(); n],
            source: None,
            reach: Vec::new(),
            window: 0,
            known: Default::default(),
            mate: vec![None; n],
            parent: Vec::new(),
            base: Vec::new(),
            blocked: None,
            end: None,
        }
    }

    /// The time limit passed.
    pub(super) fn late(&self) -> bool {
        self.end.is_some_and(|e| Instant::now() >= e)
    }

    /// Augments from every free vertex of `roots`. A vertex with no augmenting path now has
    /// none after later augmentations either, so one search per root gives a maximum
    /// matching over the roots.
    pub(super) fn augment_all(&mut self, roots: std::ops::Range<usize>) {
        for r in roots {
            if self.mate[r].is_none() {
                if let Some(end) = self.search(r) {
                    self.flip(end);
                }
            }
        }
    }

    /// Leaves `v` free while keeping the matching's size: its partner looks for an augmenting
    /// path that avoids `v`. False (matching unchanged) if there is none.
    pub(super) fn release(&mut self, v: usize) -> bool {
        let Some(m) = self.mate[v] else {
            return true;
        };
        self.mate[v] = None;
        self.mate[m] = None;
        self.blocked = Some(v);
        let found = self.search(m);
        self.blocked = None;
        match found {
            Some(end) => {
                self.flip(end);
                true
            }
            None => {
                self.mate[v] = Some(m);
                self.mate[m] = Some(v);
                false
            }
        }
    }

    /// Breadth-first search for an augmenting path from `root`, contracting odd cycles
    /// (blossoms) as it meets them. Returns the free vertex it ends at, with `self.parent`
    /// describing the path.
    fn search(&mut self, root: usize) -> Option<usize> {
        let n = self.adj.len();
        self.parent = vec![None; n];
        self.base = (0..n).collect();
        let mut used = vec![false; n];
        used[root] = true;
        let mut queue = VecDeque::from([root]);
        let mut scanned = 0usize;
        while let Some(v) = queue.pop_front() {
            scanned += 1;
            if scanned.is_multiple_of(256) && self.late() {
                return None;
            }
            self.expand(v);
            for idx in 0..self.adj[v].len() {
                let to = self.adj[v][idx];
                if self.blocked == Some(to)
                    || self.base[v] == self.base[to]
                    || self.mate[v] == Some(to)
                {
                    continue;
                }
                let to_is_outer =
                    to == root || self.mate[to].is_some_and(|m| self.parent[m].is_some());
                if to_is_outer {
                    let cur = self.lca(v, to);
                    let mut blossom = vec![false; n];
                    self.mark_path(v, cur, to, &mut blossom);
                    self.mark_path(to, cur, v, &mut blossom);
                    for i in 0..n {
                        if blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to].is_none() {
                    self.parent[to] = Some(v);
                    match self.mate[to] {
                        None => return Some(to),
                        Some(m) => {
                            used[m] = true;
                            queue.push_back(m);
                        }
                    }
                }
            }
        }
        None
    }
}

impl Graph<'_> {
    /// Adds the allowed pairs of `v` from the source with the players within the current
    /// window of ranks, each once.
    fn expand(&mut self, v: usize) {
        let Some(src) = self.source else { return };
        let (had, want) = (self.reach[v], self.window);
        if had >= want {
            return;
        }
        self.reach[v] = want;
        let lo = v.saturating_sub(want);
        let hi = v.saturating_add(want).min(self.players - 1);
        for b in lo..=hi {
            if b == v || b.abs_diff(v) <= had {
                continue;
            }
            let key = (v.min(b), v.max(b));
            if !self.known.contains(&key) && src.pair(key.0, key.1).is_some() {
                self.known.insert(key);
                self.adj[v].push(b);
                self.adj[b].push(v);
            }
        }
    }

    fn lca(&self, a: usize, b: usize) -> usize {
        let n = self.adj.len();
        let mut seen = vec![false; n];
        let mut a = a;
        loop {
            a = self.base[a];
            seen[a] = true;
            match self.mate[a] {
                None => break,
                Some(m) => match self.parent[m] {
                    Some(p) => a = p,
                    None => break,
                },
            }
        }
        let mut b = b;
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            let m = self.mate[b].expect("an inner path vertex is matched");
            b = self.parent[m].expect("an outer path vertex has a parent");
        }
    }

    fn mark_path(&mut self, v: usize, b: usize, child: usize, blossom: &mut [bool]) {
        let (mut v, mut child) = (v, child);
        while self.base[v] != b {
            let m = self.mate[v].expect("a blossom vertex is matched");
            blossom[self.base[v]] = true;
            blossom[self.base[m]] = true;
            self.parent[v] = Some(child);
            child = m;
            v = self.parent[m].expect("a blossom path vertex has a parent");
        }
    }

    /// Flips the matching along the path found by [`Graph::search`], ending at `end`.
    fn flip(&mut self, end: usize) {
        let mut v = Some(end);
        while let Some(x) = v {
            let pv = self.parent[x].expect("the path runs back to the root");
            let next = self.mate[pv];
            self.mate[x] = Some(pv);
            self.mate[pv] = Some(x);
            v = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_cover(n: usize, edges: &[(usize, usize)], opt: &[bool], m: &[Option<usize>]) -> bool {
        (0..n).all(|v| match m[v] {
            Some(u) => m[u] == Some(v) && edges.iter().any(|&e| e == (u, v) || e == (v, u)),
            None => opt[v],
        })
    }

    /// Stem 0-1-2 into the 5-cycle 2-3-4-5-6, and 7 hanging off 3. From the start
    /// {1-2, 3-4, 5-6} the only augmenting path, 0-1-2-6-5-4-3-7, goes the long way round the
    /// odd cycle: the search must contract it.
    #[test]
    fn finds_a_perfect_matching_through_a_blossom() {
        let e = [
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 5),
            (5, 6),
            (6, 2),
            (3, 7),
        ];
        let opt = [false; 8];
        let m = cover(8, &e, &opt, &[(1, 2), (3, 4), (5, 6)], 0).unwrap();
        assert!(is_cover(8, &e, &opt, &m), "{m:?}");
        assert_eq!(m[7], Some(3));
    }

    /// A triangle cannot be covered; with one optional vertex it can.
    #[test]
    fn optional_vertices_may_stay_out() {
        let e = [(0, 1), (1, 2), (0, 2)];
        assert!(cover(3, &e, &[false; 3], &[], 8).is_none());
        let opt = [false, false, true];
        let m = cover(3, &e, &opt, &[], 8).unwrap();
        assert!(is_cover(3, &e, &opt, &m), "{m:?}");
        assert_eq!(m[2], None);
    }

    /// A must-vertex whose only neighbour is optional takes it, even from a start that left
    /// the optional one matched elsewhere.
    #[test]
    fn must_vertices_are_covered_before_optional_ones() {
        let e = [(0, 1), (1, 2)];
        let opt = [false, true, true];
        let m = cover(3, &e, &opt, &[(1, 2)], 8).unwrap();
        assert_eq!(m[0], Some(1));
        assert_eq!(m[2], None);
    }
}
