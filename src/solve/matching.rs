//! A pairing of every player who must play, by Edmonds' blossom algorithm (maximum cardinality
//! matching in a general graph), grown from a given partial matching.
//!
//! The solver uses it on the optimal face of a tier group's LP: when the LP optimum is
//! fractional (odd cycles of halves) although integral pairings reach its bound, a pairing
//! made only of zero-reduced-cost columns is often one of them, and checking its value closes
//! the group without a branch-and-bound search.

const NONE: usize = usize::MAX;

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
    let mut m = Matcher::new(adj);
    for &(a, b) in start {
        if a < n && b < n && m.mate[a] == NONE && m.mate[b] == NONE {
            m.mate[a] = b;
            m.mate[b] = a;
        }
    }
    // The twins pair off among themselves to begin with.
    let mut free_twin = NONE;
    for t in n..total {
        if free_twin == NONE {
            free_twin = t;
        } else {
            m.mate[t] = free_twin;
            m.mate[free_twin] = t;
            free_twin = NONE;
        }
    }
    for v in 0..total {
        if m.mate[v] == NONE && !m.augment_from(v) {
            // No augmenting path from v now means none later either (Edmonds): v stays
            // exposed in every maximum matching, so no perfect matching exists.
            return None;
        }
    }
    Some(
        (0..n)
            .map(|v| (m.mate[v] < n).then_some(m.mate[v]))
            .collect(),
    )
}

struct Matcher {
    adj: Vec<Vec<usize>>,
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    seen: Vec<usize>,
    stamp: usize,
}

impl Matcher {
    fn new(adj: Vec<Vec<usize>>) -> Self {
        let n = adj.len();
        Matcher {
            adj,
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            used: vec![false; n],
            blossom: vec![false; n],
            seen: vec![0; n],
            stamp: 0,
        }
    }

    /// The lowest common ancestor of `a` and `b` in the alternating tree (by blossom bases).
    fn lca(&mut self, mut a: usize, mut b: usize) -> usize {
        self.stamp += 1;
        loop {
            a = self.base[a];
            self.seen[a] = self.stamp;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if self.seen[b] == self.stamp {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// Searches an augmenting path from the exposed vertex `root` and flips it.
    fn augment_from(&mut self, root: usize) -> bool {
        let n = self.adj.len();
        self.used.iter_mut().for_each(|u| *u = false);
        self.parent.iter_mut().for_each(|p| *p = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(v) = queue.pop_front() {
            for k in 0..self.adj[v].len() {
                let to = self.adj[v][k];
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    // An odd cycle: contract the blossom into its base.
                    let b = self.lca(v, to);
                    self.blossom.iter_mut().for_each(|x| *x = false);
                    self.mark_path(v, b, to);
                    self.mark_path(to, b, v);
                    for i in 0..n {
                        if self.blossom[self.base[i]] {
                            self.base[i] = b;
                            if !self.used[i] {
                                self.used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        // Flip the path root … v → to.
                        let mut u = to;
                        while u != NONE {
                            let pv = self.parent[u];
                            let next = self.mate[pv];
                            self.mate[u] = pv;
                            self.mate[pv] = u;
                            u = next;
                        }
                        return true;
                    }
                    let m = self.mate[to];
                    self.used[m] = true;
                    queue.push_back(m);
                }
            }
        }
        false
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
