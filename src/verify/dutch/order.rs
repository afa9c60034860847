//! The Dutch order of candidates (FIDE Dutch 2025 article 4): where a candidate first appears
//! in the sequence of MDP sets, transpositions and resident exchanges.
//!
//! A heterogeneous bracket takes, outermost first: the set of MDPs paired (S1), ordered by
//! their smallest differing in-bracket sequence number (BSN); the transposition of S2 (the
//! residents) that pairs them, lexicographic on the BSNs facing S1; then the remainder, a
//! homogeneous bracket with fresh BSNs, by resident exchange and then transposition. A
//! homogeneous bracket is a remainder without MDPs. For the remainder, S1 is the first
//! MaxPairs players; an exchange moves equally many players between the original S1 and S2,
//! ordered by (4.3) fewer players exchanged, then the smaller difference between the BSN sums
//! moved S2->S1 and S1->S2, then the exchange moving the highest differing BSN from S1, then
//! the one moving the lowest differing BSN from S2; after an exchange both subgroups are
//! sorted again and S2 is transposed.
//!
//! The key of a candidate is the key of the first (exchange, transposition) producing it:
//! every S1' holding one player of each remainder pair and none of its downfloaters produces
//! it, and among those the earliest moves, for a pair inside S1, its higher BSN and, for a
//! pair inside S2, its lower BSN (each choice lowers the BSN-sum difference, the second rule,
//! without changing the first).

use super::eval::{Bracket, Candidate};

/// The order key: lower comes first. Keys of two candidates with the same structure (MDPs
/// paired, remainder pairs) have the same length.
pub fn key(b: &Bracket, c: &Candidate) -> Vec<i64> {
    labelled(b, c).0
}

/// Which step of article 4 orders `x` before or after `y` (candidates of bracket `b` with
/// the same structure): the MDP set (4.4), the transposition of S2 facing the MDPs (4.2), a
/// resident exchange in the remainder (4.3) or a transposition in it (4.2).
pub fn step(b: &Bracket, x: &Candidate, y: &Candidate) -> &'static str {
    let (kx, lx) = labelled(b, x);
    let (ky, _) = labelled(b, y);
    kx.iter()
        .zip(&ky)
        .position(|(p, q)| p != q)
        .map_or("same place", |i| lx[i])
}

/// The step that orders by the set of MDPs paired.
pub const MDP_SET: &str = "MDP set (FIDE Dutch 2025 4.4)";
/// The step that orders by the transposition of S2 facing the MDPs.
pub const MDP_TRANSPOSITION: &str = "transposition of S2 facing the MDPs (FIDE Dutch 2025 4.2)";
/// The step that orders by a resident exchange in the remainder.
pub const EXCHANGE: &str = "resident exchange (FIDE Dutch 2025 4.3)";
/// The step that orders by a transposition in the remainder.
pub const TRANSPOSITION: &str = "transposition (FIDE Dutch 2025 4.2)";

fn labelled(b: &Bracket, c: &Candidate) -> (Vec<i64>, Vec<&'static str>) {
    let players = b.players();
    let bsn = |i: usize| {
        players
            .iter()
            .position(|&p| p == i)
            .map_or(0, |k| k as i64 + 1)
    };
    let partner = |i: usize| -> Option<usize> {
        c.pairs.iter().find_map(|&(x, y)| {
            if x == i {
                Some(y)
            } else if y == i {
                Some(x)
            } else {
                None
            }
        })
    };
    let mut key = Vec::new();
    // MDP set and the transposition of S2 facing it.
    let mut s1: Vec<usize> = b
        .mdps
        .iter()
        .copied()
        .filter(|&m| partner(m).is_some())
        .collect();
    s1.sort_unstable();
    key.push(s1.len() as i64);
    key.extend(s1.iter().map(|&m| bsn(m)));
    let mut labels = vec![MDP_SET; key.len()];
    let mut facing = Vec::new();
    for &m in &s1 {
        if let Some(r) = partner(m) {
            key.push(bsn(r));
            labels.push(MDP_TRANSPOSITION);
            facing.push(r);
        }
    }
    // The remainder: residents not facing an MDP.
    let mut rem: Vec<usize> = b
        .residents
        .iter()
        .copied()
        .filter(|r| !facing.contains(r))
        .collect();
    rem.sort_unstable();
    let rb = |i: usize| rem.iter().position(|&p| p == i).map_or(0, |k| k as i64 + 1);
    let pairs: Vec<(i64, i64)> = c
        .pairs
        .iter()
        .filter(|&&(x, y)| rem.contains(&x) && rem.contains(&y))
        .map(|&(x, y)| (rb(x).min(rb(y)), rb(x).max(rb(y))))
        .collect();
    let n1 = pairs.len() as i64;
    let mut moved_out = Vec::new(); // S1 -> S2
    let mut moved_in = Vec::new(); // S2 -> S1
    let mut s1r: Vec<(i64, i64)> = Vec::new(); // (S1' member, partner)
    for &(lo, hi) in &pairs {
        if hi <= n1 {
            moved_out.push(hi);
            s1r.push((lo, hi));
        } else if lo > n1 {
            moved_in.push(lo);
            s1r.push((lo, hi));
        } else {
            s1r.push((lo, hi));
        }
    }
    for &r in &rem {
        let k = rb(r);
        if k <= n1 && partner(r).is_none() {
            moved_out.push(k);
        }
    }
    moved_out.sort_unstable_by(|a, b| b.cmp(a));
    moved_in.sort_unstable();
    key.push(moved_out.len() as i64);
    key.push(moved_in.iter().sum::<i64>() - moved_out.iter().sum::<i64>());
    key.extend(moved_out.iter().map(|&x| -x));
    key.extend(moved_in.iter().copied());
    labels.resize(key.len(), EXCHANGE);
    s1r.sort_unstable();
    key.extend(s1r.iter().map(|&(_, p)| p));
    labels.resize(key.len(), TRANSPOSITION);
    (key, labels)
}
