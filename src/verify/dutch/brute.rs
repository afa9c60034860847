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

/// Called with each complete pairing of a bracket.
type Visit<'a> = dyn FnMut(&[(usize, usize)]) + 'a;
/// Called with a remainder's pairs and the players it leaves over; true stops the walk.
type VisitRemainder<'a> = dyn FnMut(&[(usize, usize)], &[usize]) -> bool + 'a;

/// Largest field the brute force takes on (completion by table up to `eval::EXACT_MAX`
/// players, by maximum matchings above).
pub const MAX_PLAYERS: usize = 30;

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
    if n > MAX_PLAYERS {
        return None;
    }
    // Downfloater sets: C.4 first, then C.5-C.7, then the look-ahead C.8 and C.9.
    // C.5 can do no better than the lowest score of an eligible player not yet paired: once
    // a downfloater count reaches it, more downfloaters (C.6) cannot win.
    let mut pool: Vec<usize> = players.iter().chain(&b.lower).copied().collect();
    pool.sort_unstable();
    let c5_floor: Vec<i64> = if pool.len().is_multiple_of(2) {
        Vec::new()
    } else {
        pool.iter()
            .filter(|&&x| ctx.st.players[x].pab_eligible())
            .map(|&x| ctx.st.players[x].score)
            .min()
            .map_or_else(Vec::new, |s| vec![s])
    };
    let mut shallow: Vec<(Vec<Vec<i64>>, Vec<usize>)> = Vec::new();
    for k in 0..=n {
        if (n - k) % 2 == 1 {
            continue;
        }
        if shallow.iter().any(|(v, _)| v[0] == c5_floor) {
            break;
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
    // No candidate values below the best downfloaters' part with faultless pairs: the first
    // candidate in the order of article 4 reaching it is the one (3.4: a perfect candidate).
    let floor = deep
        .iter()
        .map(|(f, _)| eval::values(&eval::vector(f, &PairPart::default())))
        .min()?;
    if let Some(c) = first_in_order(ctx, b, &deep, &floor) {
        return Some(c);
    }
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
    f: &mut Visit,
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

/// Steps the walk in the order of article 4 may take before the sieve takes over.
const MAX_STEPS: u64 = 5_000_000;

/// The first candidate in the order of article 4 whose downfloaters are among `deep` and whose
/// criteria equal `floor`; `None` if there is none (or the walk is too long).
fn first_in_order(
    ctx: &Ctx,
    b: &Bracket,
    deep: &[(FloatPart, Vec<usize>)],
    floor: &[Vec<i64>],
) -> Option<Candidate> {
    let u0 = &deep.first()?.1;
    let floating_mdps = u0.iter().filter(|&&x| b.is_mdp(x)).count();
    let floating_res = u0.len() - floating_mdps;
    let mut mdps = b.mdps.clone();
    mdps.sort_unstable();
    let mut res = b.residents.clone();
    res.sort_unstable();
    let m1 = mdps.len() - floating_mdps;
    let n1r = (res.len() - m1 - floating_res) / 2;
    let mut steps = 0u64;
    let mut found: Option<Candidate> = None;
    for_each_subset(mdps.len(), m1, &mut |pick: &[usize]| {
        if found.is_some() || steps > MAX_STEPS {
            return;
        }
        let s1: Vec<usize> = pick.iter().map(|&i| mdps[i]).collect();
        let limbo: Vec<usize> = mdps.iter().copied().filter(|m| !s1.contains(m)).collect();
        // Transpositions of S2 facing S1: ordered choices of residents, lexicographic.
        let mut facing: Vec<usize> = Vec::new();
        tuples(
            ctx,
            &s1,
            &res,
            &mut facing,
            &mut steps,
            &mut |facing: &[usize], steps: &mut u64| {
                let rem: Vec<usize> = res
                    .iter()
                    .copied()
                    .filter(|r| !facing.contains(r))
                    .collect();
                let mut pairs: Vec<(usize, usize)> =
                    s1.iter().copied().zip(facing.iter().copied()).collect();
                remainder(
                    ctx,
                    &rem,
                    n1r,
                    steps,
                    &mut |rp: &[(usize, usize)], left: &[usize]| {
                        let mut u: Vec<usize> = limbo.iter().chain(left).copied().collect();
                        u.sort_unstable();
                        let Some((f, _)) = deep.iter().find(|(_, du)| {
                            let mut d = du.clone();
                            d.sort_unstable();
                            d == u
                        }) else {
                            return false;
                        };
                        let base = pairs.len();
                        pairs.extend_from_slice(rp);
                        let mut pp = PairPart::default();
                        for &(x, y) in &pairs {
                            pp.add(ctx.st, b, x, y);
                        }
                        let hit = eval::values(&eval::vector(f, &pp)) == floor;
                        if hit {
                            found = Some(Candidate {
                                pairs: pairs.iter().map(|&(x, y)| (x.min(y), x.max(y))).collect(),
                                floaters: u,
                            });
                        }
                        pairs.truncate(base);
                        hit
                    },
                )
            },
        );
    });
    found
}

/// Ordered choices of distinct players of `pool` facing `s1` in turn (allowed pairs only), in
/// lexicographic order; `f` returns true to stop.
fn tuples(
    ctx: &Ctx,
    s1: &[usize],
    pool: &[usize],
    cur: &mut Vec<usize>,
    steps: &mut u64,
    f: &mut dyn FnMut(&[usize], &mut u64) -> bool,
) -> bool {
    *steps += 1;
    if *steps > MAX_STEPS {
        return true;
    }
    if cur.len() == s1.len() {
        return f(cur, steps);
    }
    let a = s1[cur.len()];
    for &r in pool {
        if cur.contains(&r) || !ctx.allowed(a, r) {
            continue;
        }
        cur.push(r);
        let stop = tuples(ctx, s1, pool, cur, steps, f);
        cur.pop();
        if stop {
            return true;
        }
    }
    false
}

/// A homogeneous bracket (or remainder) `rem` with `n1` pairs, walked in the order of 4.2-4.3:
/// exchanges, each followed by its transpositions; `f` gets the pairs and the players left
/// over and returns true to stop.
fn remainder(ctx: &Ctx, rem: &[usize], n1: usize, steps: &mut u64, f: &mut VisitRemainder) -> bool {
    let r = rem.len();
    if 2 * n1 > r {
        return false;
    }
    // Exchanges: X from S1 (BSNs 1..n1), Y from S2, |X| = |Y|, in the order of 4.3; fewer
    // players exchanged first, so each size is built and sorted only when reached.
    for k in 0..=n1.min(r - n1) {
        let mut xs = Vec::new();
        for_each_subset(n1, k, &mut |x: &[usize]| xs.push(x.to_vec()));
        let mut ys = Vec::new();
        for_each_subset(r - n1, k, &mut |y: &[usize]| {
            ys.push(y.iter().map(|&i| i + n1).collect::<Vec<_>>())
        });
        *steps += (xs.len() * ys.len()) as u64;
        if *steps > MAX_STEPS {
            return true;
        }
        let mut exchanges: Vec<(Vec<i64>, &Vec<usize>, &Vec<usize>)> = Vec::new();
        for x in &xs {
            for y in &ys {
                let xb: Vec<i64> = x.iter().rev().map(|&i| i as i64 + 1).collect();
                let yb: Vec<i64> = y.iter().map(|&i| i as i64 + 1).collect();
                let mut key = vec![yb.iter().sum::<i64>() - xb.iter().sum::<i64>()];
                key.extend(xb.iter().map(|v| -v));
                key.extend(yb.iter().copied());
                exchanges.push((key, x, y));
            }
        }
        exchanges.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, x, y) in exchanges {
            let mut s1: Vec<usize> = (0..n1)
                .filter(|i| !x.contains(i))
                .chain(y.iter().copied())
                .collect();
            s1.sort_unstable();
            let mut s2: Vec<usize> = (n1..r)
                .filter(|i| !y.contains(i))
                .chain(x.iter().copied())
                .collect();
            s2.sort_unstable();
            let a: Vec<usize> = s1.iter().map(|&i| rem[i]).collect();
            let pool: Vec<usize> = s2.iter().map(|&i| rem[i]).collect();
            let mut cur = Vec::new();
            let stop = tuples(ctx, &a, &pool, &mut cur, steps, &mut |t: &[usize], _| {
                let pairs: Vec<(usize, usize)> = a.iter().copied().zip(t.iter().copied()).collect();
                let left: Vec<usize> = pool.iter().copied().filter(|p| !t.contains(p)).collect();
                f(&pairs, &left)
            });
            if stop || *steps > MAX_STEPS {
                return true;
            }
        }
    }
    false
}
