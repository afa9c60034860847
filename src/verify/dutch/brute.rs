//! THE Dutch pairing of a small round, by the text: brackets from the top; in each, every
//! candidate the text's procedure can generate (MDPs facing residents, the rest paired among
//! themselves, the others floating) is judged on C.1-C.4 and valued on C.5-C.21; the best
//! value wins and, among equals, the first in the order of article 4 (the sieve the text
//! allows in place of its step-by-step search: the result is the same candidate).

use super::eval::{self, for_each_subset, Bracket, Candidate, Ctx, FloatPart, PairPart};
use super::order;
use super::state::{allocate, RoundState};
use super::Pairing;
use crate::tournament::Tournament;

/// Largest field the brute force takes on.
pub const MAX_PLAYERS: usize = eval::EXACT_MAX;

/// Most candidates (complete pairings of one bracket's downfloater choice) it will walk.
const MAX_LEAVES: u64 = 20_000_000;

/// The Dutch pairing of round `round`, or `None` when the field is too large for brute force
/// (or no pairing meets the absolute criteria).
pub fn brute_force(t: &Tournament, round: u32) -> Option<Pairing> {
    let st = RoundState::new(t, round);
    if st.players.len() > MAX_PLAYERS {
        return None;
    }
    let ctx = Ctx::new(&st);
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut mdps: Vec<usize> = Vec::new();
    for g in 0..ctx.groups.len() {
        let b = ctx.bracket(g, mdps);
        let c = best(&ctx, &b)?;
        pairs.extend(c.pairs.iter().copied());
        mdps = c.floaters;
    }
    if mdps.len() > 1 {
        return None;
    }
    let games = pairs
        .iter()
        .map(|&(x, y)| {
            let (w, _) = allocate(&st, x, y);
            let b = if w == x { y } else { x };
            (st.players[w].id, st.players[b].id)
        })
        .collect();
    Some(Pairing {
        games,
        bye: mdps.first().map(|&x| st.players[x].id),
    })
}

/// The chosen candidate of bracket `b`.
pub fn best(ctx: &Ctx, b: &Bracket) -> Option<Candidate> {
    let players = b.players();
    let n = players.len();
    if n > 24 {
        return None;
    }
    // Downfloater sets: C.4 first, then C.5-C.7, then the look-ahead C.8 and C.9.
    let mut shallow: Vec<(Vec<Vec<i64>>, Vec<usize>)> = Vec::new();
    for k in 0..=n {
        if (n - k) % 2 == 1 {
            continue;
        }
        for_each_subset(n, k, &mut |pick: &[usize]| {
            let u: Vec<usize> = pick.iter().map(|&i| players[i]).collect();
            let inside: Vec<usize> = players.iter().copied().filter(|p| !u.contains(p)).collect();
            if !eval::bracket_perfect(ctx, b, &inside) {
                return;
            }
            let f = eval::float_part(ctx, b, &u, false);
            if !f.complete {
                return;
            }
            shallow.push((vec![f.c5.clone(), f.c6.clone(), f.c7.clone()], u));
        });
    }
    let top = shallow.iter().map(|(v, _)| v.clone()).min()?;
    let mut deep: Vec<(FloatPart, Vec<usize>)> = shallow
        .into_iter()
        .filter(|(v, _)| *v == top)
        .map(|(_, u)| (eval::float_part(ctx, b, &u, true), u))
        .collect();
    let best89 = deep
        .iter()
        .map(|(f, _)| (f.c8.clone(), f.c9.clone()))
        .min()?;
    deep.retain(|(f, _)| (f.c8.clone(), f.c9.clone()) == best89);
    let mut winner: Option<(Vec<Vec<i64>>, Vec<i64>, Candidate)> = None;
    let mut leaves = 0u64;
    for (f, u) in &deep {
        let inside: Vec<usize> = players.iter().copied().filter(|p| !u.contains(p)).collect();
        let mut cur: Vec<(usize, usize)> = Vec::new();
        let mut used = vec![false; inside.len()];
        let mut stop = false;
        walk(ctx, b, &inside, &mut used, &mut cur, &mut |pairs: &[(
            usize,
            usize,
        )]| {
            leaves += 1;
            if leaves > MAX_LEAVES {
                stop = true;
                return;
            }
            let mut pp = PairPart::default();
            for &(x, y) in pairs {
                pp.add(ctx.st, b, x, y);
            }
            let v = eval::values(&eval::vector(f, &pp));
            if let Some((bv, _, _)) = &winner {
                if v > *bv {
                    return;
                }
            }
            let c = Candidate {
                pairs: pairs.to_vec(),
                floaters: u.clone(),
            };
            let k = order::key(b, &c);
            let better = match &winner {
                None => true,
                Some((bv, bk, _)) => v < *bv || (v == *bv && k < *bk),
            };
            if better {
                winner = Some((v, k, c));
            }
        });
        if stop {
            return None;
        }
    }
    winner.map(|(_, _, c)| c)
}

/// Every complete pairing of `inside` (C.1, C.3, no two MDPs together).
fn walk(
    ctx: &Ctx,
    b: &Bracket,
    inside: &[usize],
    used: &mut [bool],
    cur: &mut Vec<(usize, usize)>,
    f: &mut dyn FnMut(&[(usize, usize)]),
) {
    let Some(i) = used.iter().position(|&u| !u) else {
        f(cur);
        return;
    };
    used[i] = true;
    for j in i + 1..inside.len() {
        let (x, y) = (inside[i], inside[j]);
        if !used[j] && ctx.allowed(x, y) && !(b.is_mdp(x) && b.is_mdp(y)) {
            used[j] = true;
            cur.push((x, y));
            walk(ctx, b, inside, used, cur, f);
            cur.pop();
            used[j] = false;
        }
    }
    used[i] = false;
}

/// The state the brute force works from (for callers that want both).
pub fn state(t: &Tournament, round: u32) -> RoundState {
    RoundState::new(t, round)
}
