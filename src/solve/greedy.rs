//! The fallback pass: used when HiGHS fails, passes the time limit, or `--greedy` asks for it.
//!
//! It must be legal whenever a legal pairing exists, so it is built on an exact maximum
//! matching rather than on luck:
//! 1. the exact solve's quick first pass ([`super::warm`]: the bye, then players in rank order
//!    with their cheapest free partner), which is the answer whenever it pairs everyone;
//! 2. otherwise Edmonds' augmenting paths (with blossoms) from every player still free, first over the
//!    listed candidates, then — with a pair source — over every pair the rules allow: the
//!    players left unpaired are then as few as any pairing can leave (Berge's theorem);
//! 3. the pairing-allocated bye: to the cheapest option that some maximum pairing leaves over
//!    (its partner re-pairs along an augmenting path that avoids it), so that every paired
//!    player stays paired and the bye follows the system's costs (C.04.3's lowest score and
//!    rank).
//!
//! Rows of the round specification (system rules a plain matching cannot express) are checked
//! by the caller, which solves them as a feasibility program when the matching breaks one.

use super::Selection;
use crate::spec::{PairSource, RoundSpec};
use std::collections::VecDeque;
use std::time::Instant;

/// A fallback pairing: the selection, and the specification its pair indices refer to (the
/// given one with the pairs taken from the source appended, if any were).
pub struct Fallback {
    pub selection: Selection,
    pub extended: Option<RoundSpec>,
    /// Pairs the matching looked at: the listed candidates and those asked of the source.
    pub pairs_seen: usize,
    /// The time limit passed while players were still free: fewer may be left unpaired by
    /// some pairing.
    pub cut: bool,
}

/// Ranks either side of a player whose pairs the first widening asks of the source (then
/// four times as many each time players are still left over).
const FIRST_WINDOW: usize = 16;

/// The fallback pairing of `spec`; with a pair source, its pairs are asked for a window of
/// ranks at a time while players are left over, until `end` (past it the players still
/// free stay unpaired, and [`Fallback::cut`] says so).
pub fn pair(spec: &RoundSpec, source: Option<&dyn PairSource>, end: Option<Instant>) -> Fallback {
    // The quick pass first: when it pairs everyone, it is the answer (and the fallback pairs
    // exactly as it always has).
    let start = super::warm::pair(spec);
    if start.unpaired.is_empty() {
        return Fallback {
            selection: start,
            extended: None,
            pairs_seen: spec.candidates.len(),
            cut: false,
        };
    }
    let n = spec.players.len();
    let slots = if spec.byes.is_empty() {
        0
    } else {
        spec.max_byes.min(n)
    };
    // Vertices: players 0..n, then one per bye slot (matched to its taker, no edges: a dead
    // end no augmenting path can use).
    let mut g = Graph::new(n, n + slots);
    g.end = end;
    let mut by_player: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, c) in spec.candidates.iter().enumerate() {
        if c.a != c.b {
            by_player[c.a].push(k);
            by_player[c.b].push(k);
        }
    }
    let other = |k: usize, i: usize| {
        let c = &spec.candidates[k];
        if c.a == i {
            c.b
        } else {
            c.a
        }
    };
    for (i, list) in by_player.iter().enumerate() {
        g.adj[i] = list.iter().map(|&k| other(k, i)).collect();
    }
    for &k in &start.pairs {
        let c = &spec.candidates[k];
        g.mate[c.a] = Some(c.b);
        g.mate[c.b] = Some(c.a);
    }
    // The pass's bye is not kept: with players left over, a maximum pairing of the others
    // comes first, then the bye to whoever it can leave out.
    // The byes go last, each to the cheapest option that some maximum pairing leaves free: a
    // free option takes it at once; a paired one is freed when its partner finds an
    // augmenting path that avoids it (every other paired player stays paired).
    let mut bye_order: Vec<usize> = (0..spec.byes.len()).collect();
    bye_order.sort_by(|&x, &y| {
        spec.byes[x]
            .costs
            .cmp(&spec.byes[y].costs)
            .then(spec.byes[y].player.cmp(&spec.byes[x].player))
    });
    let assign_byes = |g: &mut Graph| {
        for &o in &bye_order {
            let Some(slot) = (n..n + slots).find(|&v| g.mate[v].is_none()) else {
                break;
            };
            let p = spec.byes[o].player;
            if g.mate[p].is_some_and(|m| m >= n) || !g.release(p) {
                continue;
            }
            g.mate[p] = Some(slot);
            g.mate[slot] = Some(p);
        }
    };
    g.augment_all(0..n);
    assign_byes(&mut g);
    if let Some(src) = source {
        g.source = Some(src);
        g.known = spec
            .candidates
            .iter()
            .map(|c| (c.a.min(c.b), c.a.max(c.b)))
            .collect();
        g.reach = vec![0; n + slots];
        for r in &mut g.reach[n..] {
            *r = usize::MAX;
        }
        // More allowed pairs, a window of ranks at a time: the players' pairs with the ranks
        // nearest theirs first (where a complete pairing almost always is), widened only while
        // players are left over, up to every allowed pair. A player's pairs are asked of the
        // source when a search first scans him, so only the players a search reaches are
        // widened; the last window is every pair, so the players left unpaired are as few as
        // any pairing can leave.
        let mut window = FIRST_WINDOW;
        while (0..n).any(|i| g.mate[i].is_none()) && g.window < n && !g.late() {
            for s in n..n + slots {
                if let Some(p) = g.mate[s].take() {
                    g.mate[p] = None;
                }
            }
            g.window = window.min(n);
            g.augment_all(0..n);
            assign_byes(&mut g);
            window = window.saturating_mul(4);
        }
    }
    let cut = g.late() && (0..n).any(|i| g.mate[i].is_none());
    let pairs_seen = if g.source.is_some() {
        g.known.len()
    } else {
        spec.candidates.len()
    };

    let mut extended: Option<RoundSpec> = None;
    let mut sel = Selection::default();
    for (i, listed) in by_player.iter().enumerate() {
        match g.mate[i] {
            Some(j) if j >= n => sel.byes.push(i),
            Some(j) if i < j => {
                let k = match listed.iter().find(|&&k| other(k, i) == j) {
                    Some(&k) => k,
                    None => {
                        let src = source.expect("unlisted pairs come from the source");
                        let ext = extended.get_or_insert_with(|| spec.clone());
                        ext.candidates
                            .push(src.pair(i, j).expect("an allowed pair stays allowed"));
                        ext.candidates.len() - 1
                    }
                };
                sel.pairs.push(k);
            }
            Some(_) => {}
            None => sel.unpaired.push(i),
        }
    }
    sel.pairs.sort();
    Fallback {
        selection: sel,
        extended,
        pairs_seen,
        cut,
    }
}

/// A graph with a matching, and Edmonds' search for augmenting paths.
struct Graph<'a> {
    /// Players are vertices `0..players`; bye slots follow.
    players: usize,
    adj: Vec<Vec<usize>>,
    /// With a pair source: how many ranks either side of each vertex its allowed pairs are
    /// in `adj` already, how far they should be, and the pairs in `adj`.
    source: Option<&'a dyn PairSource>,
    reach: Vec<usize>,
    window: usize,
    known: std::collections::HashSet<(usize, usize)>,
    mate: Vec<Option<usize>>,
    /// Scratch of one search: the tree parent of an inner vertex, and each vertex's blossom
    /// base.
    parent: Vec<Option<usize>>,
    base: Vec<usize>,
    /// A vertex searches must not touch (one being freed for the bye).
    blocked: Option<usize>,
    /// Past this instant a search over the widened pairs gives up (no path found).
    end: Option<Instant>,
}

impl<'a> Graph<'a> {
    fn new(players: usize, n: usize) -> Graph<'a> {
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
    fn late(&self) -> bool {
        self.end.is_some_and(|e| Instant::now() >= e)
    }

    /// Augments from every free vertex of `roots`. A vertex with no augmenting path now has
    /// none after later augmentations either, so one search per root gives a maximum
    /// matching over the roots.
    fn augment_all(&mut self, roots: std::ops::Range<usize>) {
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
    fn release(&mut self, v: usize) -> bool {
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
    use crate::spec::Candidate;

    /// A field of `n` players with no listed pairs, every pair the rule allows coming from the
    /// source.
    struct Rule(fn(usize, usize) -> bool);

    impl PairSource for Rule {
        fn pair(&self, a: usize, b: usize) -> Option<Candidate> {
            (self.0)(a, b).then(|| Candidate {
                a,
                b,
                white: a,
                costs: Vec::new(),
            })
        }
        fn class(&self, _: usize) -> usize {
            0
        }
        fn lower(&self, _: usize, _: usize) -> Vec<i64> {
            Vec::new()
        }
        fn upper(&self) -> Vec<i64> {
            Vec::new()
        }
    }

    fn field(n: usize) -> RoundSpec {
        RoundSpec {
            system: "test".into(),
            round: 1,
            players: (1..=n as u32).collect(),
            scores: vec![0.0; n],
            tiers: Vec::new(),
            candidates: Vec::new(),
            byes: Vec::new(),
            max_byes: 0,
            odd_sets: Vec::new(),
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn a_large_field_pairs_from_nearby_ranks_not_every_pair() {
        let n = 4000;
        let fb = pair(&field(n), Some(&Rule(|a, b| (a + b) % 3 != 0)), None);
        assert!(fb.selection.unpaired.is_empty());
        assert_eq!(fb.selection.pairs.len(), n / 2);
        // Every pair would be n(n-1)/2 = 8 million; the nearby ranks are a few per player.
        assert!(fb.pairs_seen < n * 20, "{} pairs looked at", fb.pairs_seen);
    }

    #[test]
    fn pairs_only_far_apart_are_still_found() {
        let n = 200;
        let fb = pair(&field(n), Some(&Rule(|a, b| b == a + 100)), None);
        assert!(fb.selection.unpaired.is_empty());
        assert_eq!(fb.selection.pairs.len(), 100);
    }

    #[test]
    fn past_the_time_limit_the_players_still_free_are_left_and_the_cut_is_said() {
        let n = 200;
        let end = Some(Instant::now());
        let fb = pair(&field(n), Some(&Rule(|a, b| b == a + 100)), end);
        assert!(fb.cut);
        assert!(!fb.selection.unpaired.is_empty());
    }

    #[test]
    fn a_player_no_one_may_meet_is_the_only_one_left() {
        let n = 201;
        let fb = pair(&field(n), Some(&Rule(|a, _| a != 0)), None);
        assert_eq!(fb.selection.unpaired, vec![0]);
    }
}
