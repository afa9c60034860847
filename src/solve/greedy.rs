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
//! 4. partner exchanges on that pairing, tier by tier in priority order, each lowering its tier
//!    and keeping every tier above (or every other, [`Exchanges`]; [`super::exchange`]): two
//!    games floating between the same two score groups, say, become two games inside them.
//!    Counted passes; once the time limit has passed, no further tier is tried.
//!
//! Rows of the round specification (system rules a plain matching cannot express) are checked
//! by the caller, which solves them as a feasibility program when the matching breaks one.

use super::matching::Graph;
use super::{Exchanges, Selection};
use crate::spec::{PairSource, RoundSpec};
use std::collections::HashMap;
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
pub fn pair(
    spec: &RoundSpec,
    source: Option<&dyn PairSource>,
    end: Option<Instant>,
    how: Exchanges,
) -> Fallback {
    let fb = matched(spec, source, end);
    if how == Exchanges::Off {
        return fb;
    }
    exchanged(spec, source, end, how, fb)
}

/// [`pair`] before the exchanges: the quick pass, then the maximum matching and the bye.
fn matched(spec: &RoundSpec, source: Option<&dyn PairSource>, end: Option<Instant>) -> Fallback {
    // The quick pass first: when it pairs everyone, it is the answer (and the fallback pairs
    // exactly as it always has).
    let start = match source.map(|s| s.fallback_start()) {
        Some(kept) if !kept.is_empty() => seeded(spec, &kept),
        _ => super::warm::pair(spec),
    };
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

/// The fallback's pairing after partner exchanges for each tier in turn (a lower value on it,
/// none higher on the tiers above, or with [`Exchanges::Pareto`] on any other), the pairs the
/// specification does not list taken from the source and appended; tiers are skipped once
/// `end` has passed. A pairing that met the
/// specification's rows and would not after the exchanges is kept as it was.
fn exchanged(
    spec: &RoundSpec,
    source: Option<&dyn PairSource>,
    end: Option<Instant>,
    how: Exchanges,
    mut fb: Fallback,
) -> Fallback {
    let past = |end: Option<Instant>| end.is_some_and(|e| Instant::now() >= e);
    let rows_met = fb
        .selection
        .satisfies_rows(fb.extended.as_ref().unwrap_or(spec));
    let mut ext = fb.extended.take();
    let mut pairs = fb.selection.pairs.clone();
    let tiers = spec.tiers.len();
    for k in 0..tiers {
        let on = ext.as_ref().unwrap_or(spec);
        // Nothing to lower on a tier the pairing has at zero; none after the limit.
        if pairs.iter().all(|&i| on.candidates[i].costs[k] == 0) || past(end) {
            continue;
        }
        let dead = vec![false; on.candidates.len()];
        // Tier `k` is group entry `k + 1` (entry 0 counts players left unpaired).
        let held = match how {
            Exchanges::Pareto => tiers,
            _ => k,
        };
        let fixed: Vec<(Vec<(usize, i128)>, i128)> = (0..held)
            .filter(|&j| j != k)
            .map(|j| (vec![(j + 1, 1)], 0))
            .collect();
        let Some(x) = super::exchange::exchange(on, &dead, source, &[(k + 1, 1)], &fixed, &pairs)
        else {
            continue;
        };
        let index: HashMap<(usize, usize), usize> = on
            .candidates
            .iter()
            .enumerate()
            .map(|(i, c)| ((c.a.min(c.b), c.a.max(c.b)), i))
            .collect();
        pairs.clear();
        for c in x.pairs {
            match index.get(&(c.a.min(c.b), c.a.max(c.b))) {
                Some(&i) => pairs.push(i),
                None => {
                    let e = ext.get_or_insert_with(|| spec.clone());
                    e.candidates.push(c);
                    pairs.push(e.candidates.len() - 1);
                }
            }
        }
    }
    pairs.sort();
    let mut sel = fb.selection.clone();
    sel.pairs = pairs;
    // Appending candidates keeps the earlier indices, so either selection refers to `ext`.
    if !rows_met || sel.satisfies_rows(ext.as_ref().unwrap_or(spec)) {
        fb.selection = sel;
    }
    fb.extended = ext;
    fb
}

/// The system's kept pairs ([`PairSource::fallback_start`]) that are listed candidates, then
/// the cheapest bye option among the players left, then those players in rank order each with
/// his cheapest free listed partner: the quick pass around the kept pairs.
fn seeded(spec: &RoundSpec, kept: &[(usize, usize)]) -> Selection {
    let n = spec.players.len();
    let index: std::collections::HashMap<(usize, usize), usize> = spec
        .candidates
        .iter()
        .enumerate()
        .map(|(k, c)| ((c.a.min(c.b), c.a.max(c.b)), k))
        .collect();
    let mut taken = vec![false; n];
    let mut sel = Selection::default();
    for &(a, b) in kept {
        if let Some(&k) = index.get(&(a.min(b), a.max(b))) {
            if a < n && b < n && !taken[a] && !taken[b] {
                taken[a] = true;
                taken[b] = true;
                sel.pairs.push(k);
            }
        }
    }
    if spec.max_byes > 0 {
        let bye = spec
            .byes
            .iter()
            .filter(|o| !taken[o.player])
            .min_by(|x, y| x.costs.cmp(&y.costs).then(y.player.cmp(&x.player)));
        if let Some(o) = bye {
            taken[o.player] = true;
            sel.byes.push(o.player);
        }
    }
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, c) in spec.candidates.iter().enumerate() {
        if !taken[c.a] && !taken[c.b] && c.a != c.b {
            adj[c.a].push(k);
            adj[c.b].push(k);
        }
    }
    for i in 0..n {
        if taken[i] {
            continue;
        }
        let c = |k: &usize| &spec.candidates[*k];
        let other = |k: &usize| if c(k).a == i { c(k).b } else { c(k).a };
        let best = adj[i]
            .iter()
            .filter(|k| !taken[other(k)])
            .min_by(|x, y| c(x).costs.cmp(&c(y).costs).then(other(x).cmp(&other(y))));
        match best {
            Some(&k) => {
                taken[i] = true;
                taken[other(&k)] = true;
                sel.pairs.push(k);
            }
            None => sel.unpaired.push(i),
        }
    }
    sel.pairs.sort();
    sel
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
        let fb = pair(
            &field(n),
            Some(&Rule(|a, b| (a + b) % 3 != 0)),
            None,
            Exchanges::Lexicographic,
        );
        assert!(fb.selection.unpaired.is_empty());
        assert_eq!(fb.selection.pairs.len(), n / 2);
        // Every pair would be n(n-1)/2 = 8 million; the nearby ranks are a few per player.
        assert!(fb.pairs_seen < n * 20, "{} pairs looked at", fb.pairs_seen);
    }

    #[test]
    fn pairs_only_far_apart_are_still_found() {
        let n = 200;
        let fb = pair(
            &field(n),
            Some(&Rule(|a, b| b == a + 100)),
            None,
            Exchanges::Lexicographic,
        );
        assert!(fb.selection.unpaired.is_empty());
        assert_eq!(fb.selection.pairs.len(), 100);
    }

    #[test]
    fn past_the_time_limit_the_players_still_free_are_left_and_the_cut_is_said() {
        let n = 200;
        let end = Some(Instant::now());
        let fb = pair(
            &field(n),
            Some(&Rule(|a, b| b == a + 100)),
            end,
            Exchanges::Lexicographic,
        );
        assert!(fb.cut);
        assert!(!fb.selection.unpaired.is_empty());
    }

    #[test]
    fn a_player_no_one_may_meet_is_the_only_one_left() {
        let n = 201;
        let fb = pair(
            &field(n),
            Some(&Rule(|a, _| a != 0)),
            None,
            Exchanges::Lexicographic,
        );
        assert_eq!(fb.selection.unpaired, vec![0]);
    }
}
