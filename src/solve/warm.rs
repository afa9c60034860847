//! The exact solve's first incumbent: a quick pass close to the optimum, with no guarantee
//! (the legal fallback is [`super::greedy`], whose maximum matching is a poorer start: more
//! pricing rounds on the 1,000–3,000-player rounds of tests/solver.rs).
//!
//! The bye goes to the option with the lexicographically smallest cost; then players are taken
//! in rank order, each paired with the free candidate partner of lexicographically smallest
//! cost. Players left over are rescued by augmenting along alternating paths (depth-limited).
//! Every pair it uses is a candidate, so the hard rules the system encoded as candidates hold.

use super::Selection;
use crate::spec::RoundSpec;

pub fn pair(spec: &RoundSpec) -> Selection {
    let n = spec.players.len();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, c) in spec.candidates.iter().enumerate() {
        adj[c.a].push(k);
        adj[c.b].push(k);
    }
    for list in adj.iter_mut() {
        list.sort_by(|&x, &y| {
            let (cx, cy) = (&spec.candidates[x], &spec.candidates[y]);
            cx.costs
                .cmp(&cy.costs)
                .then(cx.a.max(cx.b).cmp(&cy.a.max(cy.b)))
        });
    }
    let mut byes: Vec<usize> = (0..spec.byes.len()).collect();
    byes.sort_by(|&x, &y| spec.byes[x].costs.cmp(&spec.byes[y].costs));

    let mut best: Option<Selection> = None;
    // Try bye takers in order of cost until everyone else pairs (a few tries at most).
    let tries: Vec<Option<usize>> = if spec.max_byes > 0 && !byes.is_empty() {
        byes.iter().take(8).map(|&b| Some(b)).collect()
    } else {
        vec![None]
    };
    for bye in tries {
        let mut mate: Vec<Option<usize>> = vec![None; n];
        let mut taken = vec![false; n];
        if let Some(b) = bye {
            taken[spec.byes[b].player] = true;
        }
        for i in 0..n {
            if taken[i] {
                continue;
            }
            for &k in &adj[i] {
                let c = &spec.candidates[k];
                let j = if c.a == i { c.b } else { c.a };
                if !taken[j] {
                    taken[i] = true;
                    taken[j] = true;
                    mate[i] = Some(k);
                    mate[j] = Some(k);
                    break;
                }
            }
        }
        // Rescue: augmenting paths from each free player.
        for i in 0..n {
            if taken[i] {
                continue;
            }
            let mut visited = vec![false; n];
            if augment(spec, &adj, &mut mate, &mut taken, i, &mut visited, 0) {
                taken[i] = true;
            }
        }
        let mut sel = Selection::default();
        for (i, m) in mate.iter().enumerate() {
            match m {
                Some(k) if spec.candidates[*k].a == i => sel.pairs.push(*k),
                Some(_) => {}
                None => {
                    if bye.is_some_and(|b| spec.byes[b].player == i) {
                        sel.byes.push(i);
                    } else {
                        sel.unpaired.push(i);
                    }
                }
            }
        }
        sel.pairs.sort();
        let done = sel.unpaired.is_empty();
        if best
            .as_ref()
            .is_none_or(|b| sel.unpaired.len() < b.unpaired.len())
        {
            best = Some(sel);
        }
        if done {
            break;
        }
    }
    best.unwrap_or_default()
}

/// Depth-limited search for an alternating path from free player `i` to another free player.
fn augment(
    spec: &RoundSpec,
    adj: &[Vec<usize>],
    mate: &mut [Option<usize>],
    taken: &mut [bool],
    i: usize,
    visited: &mut [bool],
    depth: usize,
) -> bool {
    if depth > 12 {
        return false;
    }
    visited[i] = true;
    for &k in &adj[i] {
        let c = &spec.candidates[k];
        let j = if c.a == i { c.b } else { c.a };
        if visited[j] {
            continue;
        }
        if !taken[j] {
            mate[i] = Some(k);
            mate[j] = Some(k);
            taken[j] = true;
            return true;
        }
        // j is matched to some partner p; try to re-pair p elsewhere.
        let Some(kj) = mate[j] else { continue };
        let cj = &spec.candidates[kj];
        let p = if cj.a == j { cj.b } else { cj.a };
        if visited[p] {
            continue;
        }
        visited[j] = true;
        mate[p] = None;
        if augment(spec, adj, mate, taken, p, visited, depth + 1) {
            mate[i] = Some(k);
            mate[j] = Some(k);
            return true;
        }
        mate[p] = Some(kj);
    }
    false
}
