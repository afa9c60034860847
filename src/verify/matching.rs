//! Maximum cardinality matching in a general graph (Edmonds' blossom algorithm), written for
//! the verifier: "could the other players still have been paired if someone else had the
//! bye?" is a perfect-matching question on the graph of pairs the absolute criteria allow.
//!
//! Deliberately independent of the model-building code: the verifier must not trust the
//! machinery it checks.

use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Instant;

const NONE: usize = usize::MAX;

/// Whether two vertices are joined: the edges of a graph stated as a rule.
pub type EdgeRule = Rc<dyn Fn(usize, usize) -> bool>;

/// The edges of a graph: listed per vertex, or a rule asked for each pair as a search scans
/// it (memory linear in the vertices however dense the graph is: the graph of pairs the
/// absolute criteria allow has almost every pair of a large field).
#[derive(Clone)]
enum Edges {
    Listed(Vec<Vec<usize>>),
    Rule(EdgeRule),
}

/// An undirected graph on vertices `0..n` with a (partial) matching.
#[derive(Clone)]
pub struct Matching {
    n: usize,
    edges: Edges,
    mate: Vec<usize>,
}

impl std::fmt::Debug for Matching {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matching")
            .field("n", &self.n)
            .field("mate", &self.mate)
            .finish_non_exhaustive()
    }
}

impl Matching {
    /// A graph on `n` vertices, no edges, nothing matched.
    pub fn new(n: usize) -> Self {
        Matching {
            n,
            edges: Edges::Listed(vec![Vec::new(); n]),
            mate: vec![NONE; n],
        }
    }

    /// A graph on `n` vertices whose edges are the pairs `rule` accepts (asked with `a != b`,
    /// both orders alike), nothing matched.
    pub fn from_rule(n: usize, rule: EdgeRule) -> Self {
        Matching {
            n,
            edges: Edges::Rule(rule),
            mate: vec![NONE; n],
        }
    }

    /// Adds the edge `a`–`b` to a listed graph (a graph from a rule has the edges its rule
    /// accepts; the call does nothing there).
    pub fn add_edge(&mut self, a: usize, b: usize) {
        if let (true, Edges::Listed(adj)) = (a != b, &mut self.edges) {
            adj[a].push(b);
            adj[b].push(a);
        }
    }

    /// Whether `a` and `b` are joined.
    pub fn has_edge(&self, a: usize, b: usize) -> bool {
        match &self.edges {
            Edges::Listed(adj) => adj[a].contains(&b),
            Edges::Rule(rule) => a != b && rule(a, b),
        }
    }

    /// The neighbours of `v` in order, each once.
    fn neighbours(&self, v: usize) -> Box<dyn Iterator<Item = usize> + '_> {
        match &self.edges {
            Edges::Listed(adj) => Box::new(adj[v].iter().copied()),
            Edges::Rule(rule) => Box::new((0..self.n).filter(move |&u| u != v && rule(v, u))),
        }
    }

    /// Matches `a` with `b` as a starting point (both must be free and adjacent; otherwise
    /// the call does nothing and returns false).
    pub fn seed(&mut self, a: usize, b: usize) -> bool {
        if a == b || self.mate[a] != NONE || self.mate[b] != NONE || !self.has_edge(a, b) {
            return false;
        }
        self.mate[a] = b;
        self.mate[b] = a;
        true
    }

    /// Unmatches `v` (and its mate).
    pub fn unmatch(&mut self, v: usize) {
        let m = self.mate[v];
        if m != NONE {
            self.mate[m] = NONE;
        }
        self.mate[v] = NONE;
    }

    /// Whether every vertex except those in `skip` can be matched among themselves (vertices
    /// in `skip` must be unmatched and are treated as absent). Extends the current matching.
    pub fn covers_all_but(&mut self, skip: &[usize]) -> bool {
        self.covers_all_but_by(skip, None)
            .expect("no deadline, so the search finishes")
    }

    /// [`Self::covers_all_but`] unless `deadline` passes first (then `None`, the answer
    /// unknown; the deadline is looked at between the vertices a search scans).
    pub fn covers_all_but_by(&mut self, skip: &[usize], deadline: Option<Instant>) -> Option<bool> {
        let n = self.n;
        let mut absent = vec![false; n];
        for &s in skip {
            if self.mate[s] != NONE {
                self.unmatch(s);
            }
            absent[s] = true;
        }
        for v in 0..n {
            if absent[v] || self.mate[v] != NONE {
                continue;
            }
            match self.find_path(v, &absent, deadline)? {
                Some((end, parent)) => self.augment(end, &parent),
                // No augmenting path from a free vertex now means none ever (Edmonds).
                None => return Some(false),
            }
        }
        Some(true)
    }

    fn augment(&mut self, mut v: usize, parent: &[usize]) {
        // `v` is the free end; walk back along parents flipping the matching.
        while v != NONE {
            let pv = parent[v];
            let next = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = next;
        }
    }
}

impl Matching {
    /// Breadth-first search for an augmenting path from the free vertex `root`; returns its
    /// free far end and the parent links to walk back along (`None` when `deadline` passed
    /// during the search).
    fn find_path(
        &self,
        root: usize,
        absent: &[bool],
        deadline: Option<Instant>,
    ) -> Option<Option<(usize, Vec<usize>)>> {
        let n = self.n;
        let mut st = Search {
            parent: vec![NONE; n],
            base: (0..n).collect(),
            outer: vec![false; n],
        };
        let mut queue = VecDeque::new();
        st.outer[root] = true;
        queue.push_back(root);
        let mut scanned = 0usize;
        while let Some(v) = queue.pop_front() {
            scanned += 1;
            if scanned % 64 == 1 && deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            for to in self.neighbours(v) {
                if absent[to] || st.base[v] == st.base[to] || self.mate[v] == to {
                    continue;
                }
                let to_is_outer =
                    to == root || (self.mate[to] != NONE && st.parent[self.mate[to]] != NONE);
                if to_is_outer {
                    // An odd cycle: contract the blossom onto its base.
                    let cur = self.lca(&st, v, to);
                    let mut in_blossom = vec![false; n];
                    self.mark_path(&mut st, &mut in_blossom, v, cur, to);
                    self.mark_path(&mut st, &mut in_blossom, to, cur, v);
                    for u in 0..n {
                        if in_blossom[st.base[u]] {
                            st.base[u] = cur;
                            if !st.outer[u] {
                                st.outer[u] = true;
                                queue.push_back(u);
                            }
                        }
                    }
                } else if st.parent[to] == NONE {
                    st.parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some(Some((to, st.parent)));
                    }
                    let m = self.mate[to];
                    st.outer[m] = true;
                    queue.push_back(m);
                }
            }
        }
        Some(None)
    }

    fn lca(&self, st: &Search, mut a: usize, mut b: usize) -> usize {
        let n = self.n;
        let mut seen = vec![false; n];
        loop {
            a = st.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = st.parent[self.mate[a]];
        }
        loop {
            b = st.base[b];
            if seen[b] {
                return b;
            }
            b = st.parent[self.mate[b]];
        }
    }

    fn mark_path(
        &self,
        st: &mut Search,
        in_blossom: &mut [bool],
        mut v: usize,
        b: usize,
        mut child: usize,
    ) {
        while st.base[v] != b {
            in_blossom[st.base[v]] = true;
            in_blossom[st.base[self.mate[v]]] = true;
            st.parent[v] = child;
            child = self.mate[v];
            v = st.parent[self.mate[v]];
        }
    }
}

/// State of one augmenting-path search.
struct Search {
    parent: Vec<usize>,
    base: Vec<usize>,
    outer: Vec<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_cycle_with_tail() {
        // Triangle 0-1-2 with a tail 2-3: perfect matching 0-1, 2-3.
        let mut m = Matching::new(4);
        m.add_edge(0, 1);
        m.add_edge(1, 2);
        m.add_edge(0, 2);
        m.add_edge(2, 3);
        m.seed(0, 2);
        assert!(m.covers_all_but(&[]));
    }

    #[test]
    fn blossom_needed() {
        // A 5-cycle 0..4 with a pendant 5 on 0: the augmenting path runs through a blossom.
        let mut m = Matching::new(6);
        for (a, b) in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5)] {
            m.add_edge(a, b);
        }
        m.seed(1, 2);
        m.seed(3, 4);
        assert!(m.covers_all_but(&[]));
        let mut m2 = Matching::new(6);
        for (a, b) in [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5)] {
            m2.add_edge(a, b);
        }
        // Without vertex 5 the 5-cycle alone cannot be perfectly matched.
        assert!(!m2.covers_all_but(&[5]));
    }

    #[test]
    fn a_passed_deadline_leaves_the_answer_unknown() {
        // A large complete graph by rule, one vertex skipped among an odd number: covered,
        // but not decided when the deadline has passed already.
        let mut m = Matching::from_rule(1001, Rc::new(|_, _| true));
        let past = Instant::now();
        assert_eq!(m.clone().covers_all_but_by(&[0], Some(past)), None);
        assert_eq!(m.covers_all_but_by(&[0], None), Some(true));
    }

    #[test]
    fn star_is_not_perfect() {
        let mut m = Matching::new(4);
        m.add_edge(0, 1);
        m.add_edge(0, 2);
        m.add_edge(0, 3);
        assert!(!m.covers_all_but(&[]));
        let mut m = Matching::new(3);
        m.add_edge(0, 1);
        m.add_edge(0, 2);
        assert!(m.covers_all_but(&[2]));
    }

    /// Brute force: can the vertices not in `skip` be perfectly matched?
    #[allow(clippy::only_used_in_recursion)]
    fn brute(n: usize, edges: &[(usize, usize)], free: u32) -> bool {
        if free == 0 {
            return true;
        }
        let v = free.trailing_zeros() as usize;
        edges.iter().any(|&(a, b)| {
            let other = if a == v {
                b
            } else if b == v {
                a
            } else {
                return false;
            };
            free & (1 << other) != 0 && brute(n, edges, free & !(1 << v) & !(1 << other))
        })
    }

    #[test]
    fn agrees_with_brute_force() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..3000 {
            let n = 2 + (case % 11);
            let density = 20 + next() % 60;
            let mut edges = Vec::new();
            let mut m = Matching::new(n);
            for a in 0..n {
                for b in a + 1..n {
                    if next() % 100 < density {
                        edges.push((a, b));
                        m.add_edge(a, b);
                    }
                }
            }
            // Seed part of a matching, skip one vertex when n is odd.
            for &(a, b) in &edges {
                if next() % 3 == 0 {
                    m.seed(a, b);
                }
            }
            let skip: Vec<usize> = if n % 2 == 1 {
                vec![(next() % n as u64) as usize]
            } else {
                vec![]
            };
            let mut free: u32 = (1 << n) - 1;
            for &s in &skip {
                free &= !(1 << s);
            }
            let expected = brute(n, &edges, free);
            // The same graph stated as a rule gives the same answer.
            let listed = edges.clone();
            let rule: EdgeRule = Rc::new(move |a, b| listed.contains(&(a.min(b), a.max(b))));
            let mut r = Matching::from_rule(n, rule);
            assert_eq!(
                r.covers_all_but(&skip),
                expected,
                "rule graph, case {case}: n {n} edges {edges:?} skip {skip:?}"
            );
            assert_eq!(
                m.covers_all_but(&skip),
                expected,
                "case {case}: n {n} edges {edges:?} skip {skip:?}"
            );
        }
    }
}
