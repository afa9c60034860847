//! The US Chess Swiss (`uscf`, US Chess Official Rules of Chess rules 27–29): pairings from
//! the rules' worked cases, the verifier's verdicts on wrong pairings, and a brute force over
//! every pairing of small random rounds agreeing with the engine's exact optimum.

use crate::common::{add, add_pab, g, pab, pair, pairs};
use optipair::systems::uscf_swiss::{Field, UscfSwiss, TIERS};
use optipair::systems::System;
use optipair::tournament::{Game, Player, Tournament};
use optipair::verify::{check_round, Violation};
use optipair::SystemKind;
use std::collections::BTreeSet;

fn field(ratings: &[u32]) -> Tournament {
    let players = ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| Player::new(i as u32 + 1, format!("P{}", i + 1), r))
        .collect();
    Tournament::new("uscf", players)
}

fn set(list: &[(u32, u32)]) -> BTreeSet<(u32, u32)> {
    list.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect()
}

fn whites(games: &[Game]) -> BTreeSet<u32> {
    games.iter().map(|g| g.white).collect()
}

fn rules(v: &[Violation]) -> Vec<String> {
    v.iter().map(|x| x.rule.clone()).collect()
}

/// Checks a hand-made round 'r' under `uscf`.
fn verdict(t: &Tournament, r: u32, games: Vec<Game>, byes: Vec<u32>) -> Vec<Violation> {
    let mut t = t.clone();
    add_pab(&mut t, r, games, byes);
    check_round(&t, r, SystemKind::Uscf).unwrap()
}

/// US Chess 29C and 29E2: round 1 pairs the upper half against the lower half in rating
/// order, the higher-rated player on board 1 with white and colours alternating down.
#[test]
fn us_chess_29c_round_one_upper_half_v_lower_half() {
    let t = field(&[2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300]);
    let p = pair(&t, 1, "uscf");
    assert_eq!(pairs(&p), set(&[(1, 5), (2, 6), (3, 7), (4, 8)]));
    assert_eq!(whites(&p.round.games), BTreeSet::from([1, 6, 3, 8]));
    let mut t = t;
    t.settings
        .insert("uscf.first_board_colour".into(), serde_json::json!("black"));
    let p = pair(&t, 1, "uscf");
    assert_eq!(whites(&p.round.games), BTreeSet::from([5, 2, 7, 4]));
}

/// US Chess 28L2: the full-point bye to the lowest-rated player of the lowest score group,
/// but not to an unrated player.
#[test]
fn us_chess_28l2_bye_to_lowest_rated_not_unrated() {
    let t = field(&[2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200]);
    let p = pair(&t, 1, "uscf");
    assert_eq!(
        p.round.byes.iter().map(|b| b.player).collect::<Vec<_>>(),
        [9]
    );
    let t = field(&[2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 0]);
    let p = pair(&t, 1, "uscf");
    assert_eq!(
        p.round.byes.iter().map(|b| b.player).collect::<Vec<_>>(),
        [8]
    );
    assert!(pairs(&p).iter().any(|&(a, b)| a == 9 || b == 9));
}

/// US Chess 28L3: no second full-point bye; the bye stays in the lowest score group.
#[test]
fn us_chess_28l3_no_second_bye() {
    let mut t = field(&[2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200]);
    add_pab(
        &mut t,
        1,
        vec![
            g(1, 5, "1/2"),
            g(6, 2, "1/2"),
            g(3, 7, "1/2"),
            g(8, 4, "1/2"),
        ],
        vec![9],
    );
    let p = pair(&t, 2, "uscf");
    let bye: Vec<u32> = p.round.byes.iter().map(|b| b.player).collect();
    assert_eq!(
        bye,
        [8],
        "the lowest-rated of the ½ group, 9 having had the bye"
    );
    // A bye given to 9 again is flagged.
    let games = vec![
        g(1, 2, "1-0"),
        g(3, 4, "1-0"),
        g(5, 6, "1-0"),
        g(7, 8, "1-0"),
    ];
    let v = verdict(&t, 2, games, vec![9]);
    assert!(rules(&v).contains(&"US Chess 28L3".to_string()), "{v:?}");
}

/// The case of the rulebook's 29E5e (four players on 1-0 after round 1, two due each
/// colour, the natural pairings giving both the same colour): an interchange within 80
/// points is preferred to a transposition beyond it, and a transposition within 80 points to
/// any interchange.
#[test]
fn us_chess_29e5e_interchange_or_transposition() {
    let round_one = |t: &mut Tournament| {
        add(
            t,
            1,
            vec![
                g(5, 1, "0-1"),
                g(2, 6, "1-0"),
                g(7, 3, "0-1"),
                g(4, 8, "1-0"),
            ],
            vec![],
        )
    };
    // 2279 (due W), 2062 (due B), 2003 (due W), 1846 (due B): the transposition 2003 ↔
    // 1846 is 157 points, the interchange 2062 ↔ 2003 is 59.
    let mut t = field(&[2279, 2062, 2003, 1846, 1800, 1750, 1700, 1650]);
    round_one(&mut t);
    let p = pair(&t, 2, "uscf");
    let top: BTreeSet<_> = pairs(&p).into_iter().filter(|&(a, _)| a <= 4).collect();
    assert_eq!(
        top,
        set(&[(1, 2), (3, 4)]),
        "US Chess 29E5e: the 59-point interchange"
    );
    // The losers: 1800 (due B), 1750 (due W), 1700 (due B), 1650 (due W): the 50-point
    // transposition, not the 50-point interchange.
    let low: BTreeSet<_> = pairs(&p).into_iter().filter(|&(a, _)| a > 4).collect();
    assert_eq!(
        low,
        set(&[(5, 8), (6, 7)]),
        "US Chess 29E5e: a transposition within 80"
    );
    // 1990 in place of 1846: the transposition is 13 points and is preferred.
    let mut t = field(&[2279, 2062, 2003, 1990, 1800, 1750, 1700, 1650]);
    round_one(&mut t);
    let p = pair(&t, 2, "uscf");
    let top: BTreeSet<_> = pairs(&p).into_iter().filter(|&(a, _)| a <= 4).collect();
    assert_eq!(
        top,
        set(&[(1, 4), (2, 3)]),
        "US Chess 29E5a: 13-point transposition"
    );
    for gm in &p.round.games {
        assert!(
            [1, 3, 6, 8].contains(&gm.white),
            "each player his due colour: {:?}",
            p.round.games
        );
    }
}

/// US Chess 29E5b: beyond 200 points no switch is made for colours; the natural pairing
/// stands with its colour clash.
#[test]
fn us_chess_29e5b_no_switch_beyond_200() {
    let mut t = field(&[2400, 2100, 1800, 1500, 1400, 1300, 1200, 1100]);
    add(
        &mut t,
        1,
        vec![
            g(5, 1, "0-1"),
            g(2, 6, "1-0"),
            g(7, 3, "0-1"),
            g(4, 8, "1-0"),
        ],
        vec![],
    );
    let p = pair(&t, 2, "uscf");
    let top: BTreeSet<_> = pairs(&p).into_iter().filter(|&(a, _)| a <= 4).collect();
    // Transposition 1800 ↔ 1500 (or 2400 ↔ 2100): 300 points; interchange 2100 ↔ 1800: 300.
    assert_eq!(top, set(&[(1, 3), (2, 4)]));
    // A hand-made 300-point transposition is flagged.
    let games = vec![
        g(1, 4, "1-0"),
        g(3, 2, "1-0"),
        g(8, 5, "1-0"),
        g(6, 7, "1-0"),
    ];
    let v = verdict(&t, 2, games, vec![]);
    assert!(rules(&v).contains(&"US Chess 29E5b".to_string()), "{v:?}");
}

/// US Chess 27A1: players do not meet twice, whatever the score groups and colours ask.
#[test]
fn us_chess_27a1_no_second_meeting() {
    let mut t = field(&[2000, 1900, 1800, 1700]);
    add(&mut t, 1, vec![g(1, 3, "1-0"), g(4, 2, "0-1")], vec![]);
    add(&mut t, 2, vec![g(2, 1, "1/2"), g(3, 4, "1/2")], vec![]);
    let p = pair(&t, 3, "uscf");
    assert_eq!(pairs(&p), set(&[(1, 4), (2, 3)]));
    let v = verdict(&t, 3, vec![g(1, 2, "1-0"), g(3, 4, "1-0")], vec![]);
    assert_eq!(
        rules(&v).iter().filter(|r| *r == "US Chess 27A1").count(),
        2,
        "{v:?}"
    );
}

/// US Chess 29D1a and 29D2: in a group of five the lowest-rated player is the odd player,
/// paired with the highest-rated player he has not met in the next group; the four left are
/// paired with the 100-point transposition (29E5b, colours equalized) rather than the
/// 100-point interchange (29E5e).
#[test]
fn us_chess_29d1a_odd_player() {
    let mut t = field(&[2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100]);
    add(
        &mut t,
        1,
        vec![
            g(1, 6, "1-0"),
            g(7, 2, "0-1"),
            g(3, 8, "1-0"),
            g(9, 4, "0-1"),
            g(5, 10, "1-0"),
        ],
        vec![],
    );
    let p = pair(&t, 2, "uscf");
    let got = pairs(&p);
    assert!(got.contains(&(5, 6)), "29D1a: 1600 v 1500; {got:?}");
    assert!(got.contains(&(1, 4)) && got.contains(&(2, 3)), "{got:?}");
}

/// US Chess 29E4: players due the same colour — the one due it for equalization, else the
/// higher-ranked; a hand-made swap of colours is flagged.
#[test]
fn us_chess_29e4_colour_claims() {
    let mut t = field(&[2000, 1900, 1800, 1700]);
    add(&mut t, 1, vec![g(1, 3, "1-0"), g(4, 2, "0-1")], vec![]);
    // After round 1: 1 (W, due B), 2 (B, due W), 3 (B, due W), 4 (W, due B).
    let v = verdict(&t, 2, vec![g(1, 2, "1-0"), g(3, 4, "1-0")], vec![]);
    assert!(rules(&v).contains(&"US Chess 29E4".to_string()), "{v:?}");
    let v = verdict(&t, 2, vec![g(2, 1, "1-0"), g(3, 4, "1-0")], vec![]);
    assert!(!rules(&v).contains(&"US Chess 29E4".to_string()), "{v:?}");
}

/// US Chess 28L2: a hand-made bye to a higher-rated player is flagged.
#[test]
fn us_chess_28l2_wrong_bye_flagged() {
    let t = field(&[2000, 1900, 1800, 1700, 1600]);
    let v = verdict(&t, 1, vec![g(1, 3, "1-0"), g(4, 5, "1-0")], vec![2]);
    assert!(rules(&v).contains(&"US Chess 28L2".to_string()), "{v:?}");
    let mut t = t;
    add(
        &mut t,
        1,
        vec![g(1, 3, "1-0"), g(4, 2, "1-0")],
        vec![pab(5)],
    );
    assert!(check_round(&t, 1, SystemKind::Uscf).unwrap().is_empty());
}

/// US Chess 29E5a: a hand-made 100-point transposition that gains no equalization is flagged.
#[test]
fn us_chess_29e5a_switch_for_alternation_beyond_80() {
    let mut t = field(&[2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300]);
    add(
        &mut t,
        1,
        vec![
            g(1, 5, "1-0"),
            g(6, 2, "0-1"),
            g(3, 7, "1-0"),
            g(8, 4, "0-1"),
        ],
        vec![],
    );
    // Natural 1-3 (1 W, 3 W: a clash) and 2-4 — choose colours the plan allows with no gain:
    // after round 1: 1 W, 2 B, 3 W, 4 B; 1-4 / 2-3 settle every colour, so a transposition
    // is fine; the reverse case: swap 1-2 / 3-4 would be an interchange.
    let p = pair(&t, 2, "uscf");
    assert!(pairs(&p).contains(&(1, 4)), "{:?}", pairs(&p));
    // The losers 5 (B), 6 (W), 7 (B), 8 (W): natural 5-7, 6-8 clash, 5-8 / 6-7 settle
    // (100 points, for equalization). Hand-made: winners natural but losers 5-6 / 7-8 (an
    // interchange) is not a two-board transposition; 1-3 / 2-4 with a clash is legal.
    let games = vec![
        g(4, 1, "1-0"),
        g(2, 3, "1-0"),
        g(5, 8, "1-0"),
        g(7, 6, "1-0"),
    ];
    assert!(verdict(&t, 2, games, vec![]).is_empty());
    let mut t2 = field(&[2000, 1900, 1800, 1700]);
    add(&mut t2, 1, vec![g(1, 2, "1/2"), g(4, 3, "1/2")], vec![]);
    // 1 W, 2 B, 3 B, 4 W, all ½: natural 1-3 (1 due B, 3 due W) and 2-4 — settled.
    let v = verdict(&t2, 2, vec![g(4, 1, "1/2"), g(2, 3, "1/2")], vec![]);
    assert!(rules(&v).contains(&"US Chess 29E5a".to_string()), "{v:?}");
}

/// The test's own reading of the rules above every colour tier, for one pairing: 28L3 (no
/// second full-point bye, none after a forfeit win), 28L2 (the lowest score group, not an
/// unrated player, the lowest-rated), 27A2 (Σ score groups crossed, squared).
fn own_reading(t: &Tournament, r: u32, games: &[(u32, u32)], bye: Option<u32>) -> [i64; 5] {
    use optipair::tournament::{ByeKind, Standings};
    let st = Standings::before(t, r);
    let mut scores: Vec<i64> = t
        .players
        .iter()
        .map(|p| (st.get(p.id).unwrap().score * 2.0).round() as i64)
        .collect();
    scores.sort_unstable();
    scores.dedup();
    let level = |id: u32| {
        let s = (st.get(id).unwrap().score * 2.0).round() as i64;
        scores.iter().position(|&x| x == s).unwrap() as i64
    };
    let mut out = [0i64; 5];
    if let Some(b) = bye {
        let had = t.rounds.iter().filter(|rd| rd.number < r).any(|rd| {
            rd.byes
                .iter()
                .any(|x| x.player == b && x.kind == ByeKind::PairingAllocated)
                || rd.games.iter().any(|g| {
                    (g.white == b && g.result == optipair::tournament::GameResult::WhiteForfeitWin)
                        || (g.black == b
                            && g.result == optipair::tournament::GameResult::BlackForfeitWin)
                })
        });
        let me = t.player(b).unwrap();
        let same: Vec<&Player> = t
            .players
            .iter()
            .filter(|p| level(p.id) == level(b) && p.rating > 0)
            .collect();
        out[0] = had as i64;
        out[1] = level(b);
        out[2] = (me.rating == 0) as i64;
        out[3] = same
            .iter()
            .filter(|p| (p.rating, std::cmp::Reverse(p.id)) < (me.rating, std::cmp::Reverse(b)))
            .count() as i64;
        if me.rating == 0 {
            out[3] = 0;
        }
    }
    out[4] = games
        .iter()
        .map(|&(a, b)| (level(a) - level(b)).pow(2))
        .sum();
    out
}

/// A small random event (fixed seed): players, results of the rounds so far.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What a brute force does with each pairing: its games and its bye.
type Visit<'a> = dyn FnMut(&[(usize, usize)], Option<usize>) + 'a;

/// Every way to pair `left` (indices) with at most one bye, calling `visit` with the games and
/// the bye.
fn matchings(
    left: &mut Vec<usize>,
    games: &mut Vec<(usize, usize)>,
    bye: Option<usize>,
    visit: &mut Visit,
) {
    let Some(&a) = left.first() else {
        visit(games, bye);
        return;
    };
    left.remove(0);
    if left.len().is_multiple_of(2) && bye.is_none() {
        matchings(left, games, Some(a), visit);
    }
    for k in 0..left.len() {
        let b = left.remove(k);
        games.push((a, b));
        matchings(left, games, bye, visit);
        games.pop();
        left.insert(k, b);
    }
    left.insert(0, a);
}

/// The brute force: the lexicographically least cost over every pairing of the round that
/// gives each player a game or the bye, by the tiers' costs, compared with the engine's
/// pairing (which the verifier also passes, through `pair`).
#[test]
fn brute_force_agrees_on_random_small_rounds() {
    let mut rng = Lcg(20260046);
    let mut rounds_checked = 0;
    for event in 0..24 {
        let n = 4 + rng.below(5) as usize;
        let ratings: Vec<u32> = (0..n)
            .map(|_| {
                if rng.below(8) == 0 {
                    0
                } else {
                    1200 + rng.below(900) as u32
                }
            })
            .collect();
        let mut t = field(&ratings);
        for r in 1..=4u32 {
            let spec = UscfSwiss.spec(&t, r).unwrap();
            let f = Field::new(&t, r).unwrap();
            assert_eq!(f.len(), n);
            let cost = |a: usize, b: usize| -> Option<Vec<i64>> {
                let (a, b) = (a.min(b), a.max(b));
                spec.candidates
                    .iter()
                    .find(|c| c.a == a && c.b == b)
                    .map(|c| c.costs.clone())
            };
            let mut best: Option<Vec<i64>> = None;
            let mut own_best: Option<[i64; 5]> = None;
            let st = optipair::tournament::Standings::before(&t, r);
            let id = |i: usize| spec.players[i];
            let mut left: Vec<usize> = (0..n).collect();
            matchings(&mut left, &mut Vec::new(), None, &mut |games, bye| {
                // 27A1 by the test's own reading: no pair that met over the board.
                if games
                    .iter()
                    .any(|&(a, b)| st.get(id(a)).unwrap().played.contains(&id(b)))
                {
                    return;
                }
                let ids: Vec<(u32, u32)> = games.iter().map(|&(a, b)| (id(a), id(b))).collect();
                let own = own_reading(&t, r, &ids, bye.map(id));
                if own_best.is_none_or(|b| own < b) {
                    own_best = Some(own);
                }
                let mut total = vec![0i64; TIERS.len()];
                for &(a, b) in games {
                    let Some(c) = cost(a, b) else { return };
                    total.iter_mut().zip(c).for_each(|(t, x)| *t += x);
                }
                if let Some(i) = bye {
                    let o = spec.byes.iter().find(|o| o.player == i).unwrap();
                    total.iter_mut().zip(&o.costs).for_each(|(t, x)| *t += x);
                }
                if best.as_ref().is_none_or(|b| total < *b) {
                    best = Some(total);
                }
            });
            let Some(best) = best else { break };
            // Every player the bye could go to has had one (28L3 cannot hold): a verdict the
            // verifier gives whatever the pairing, so the event stops here.
            if best[0] > 0 {
                break;
            }
            let p = pair(&t, r, "uscf");
            assert_eq!(
                p.pairing.certificate.status,
                optipair::solve::Status::Optimal,
                "event {event} round {r}"
            );
            let at = |id: u32| spec.players.iter().position(|&x| x == id).unwrap();
            let mut got = vec![0i64; TIERS.len()];
            for gm in &p.round.games {
                let c = cost(at(gm.white), at(gm.black)).expect("a candidate pair");
                got.iter_mut().zip(c).for_each(|(t, x)| *t += x);
            }
            for b in &p.round.byes {
                let o = spec.byes.iter().find(|o| o.player == at(b.player)).unwrap();
                got.iter_mut().zip(&o.costs).for_each(|(t, x)| *t += x);
            }
            assert_eq!(got, best, "event {event} round {r}: engine v brute force");
            let ids: Vec<(u32, u32)> = p.round.games.iter().map(|g| (g.white, g.black)).collect();
            let bye = p.round.byes.first().map(|b| b.player);
            assert_eq!(
                Some(own_reading(&t, r, &ids, bye)),
                own_best,
                "event {event} round {r}: 28L and 27A2 by the test's own reading"
            );
            rounds_checked += 1;
            // Results: random, stored on the engine's pairing.
            let games = p
                .round
                .games
                .iter()
                .map(|gm| {
                    let res = ["1-0", "0-1", "1/2"][rng.below(3) as usize];
                    g(gm.white, gm.black, res)
                })
                .collect();
            let byes = p.round.byes.iter().map(|b| b.player).collect();
            add_pab(&mut t, r, games, byes);
        }
    }
    assert!(rounds_checked >= 60, "{rounds_checked} rounds checked");
}

/// The sparse specification (a few pairs listed, the rest priced in by the solver) proves the
/// same optimum as the one listing every pair, and every pair's costs are within the bounds
/// the pair source gives the solver.
#[test]
fn sparse_and_listed_agree_on_generated_fields() {
    use optipair::solve::{solve, solve_sparse, Options};
    use optipair::systems::uscf_swiss::sparse_spec_of;
    for (players, seed) in [(41, 3), (80, 8)] {
        let spec = optipair::generate::Spec {
            players,
            rounds: 7,
            played: 4,
            seed,
            draw_rate: 0.3,
            system: SystemKind::Uscf,
        };
        let t = optipair::generate::field(&spec, &Options::default()).unwrap();
        for round in 2..=5 {
            let listed = UscfSwiss.spec(&t, round).unwrap();
            let sparse = sparse_spec_of(Field::new(&t, round).unwrap());
            sparse.validate().unwrap();
            let bounds = sparse.source.upper();
            crate::common::costs_within_bounds("uscf", &listed, &bounds);
            let a = solve(&listed, &Options::default()).certificate;
            let b = solve_sparse(&sparse, &Options::default()).certificate;
            let values = |c: &optipair::solve::Certificate| -> Vec<i64> {
                c.tiers.iter().map(|x| x.value).collect()
            };
            assert_eq!(values(&a), values(&b), "{players} players, round {round}");
            assert_eq!(b.status, optipair::solve::Status::Optimal);
        }
    }
}

/// US Chess 29E5b and 29E5a on a compound transposition: three boards of one score group
/// rotated (1 v 5, 2 v 6, 3 v 4 for the plan's 1 v 4, 2 v 5, 3 v 6) is a switch as large as
/// its largest board's change of planned opponent, flagged past 200 points, and past 80
/// points when it gains no colour.
#[test]
fn us_chess_29e5b_compound_transposition_flagged() {
    let rotated = || vec![g(1, 5, "1-0"), g(6, 2, "0-1"), g(3, 4, "1-0")];
    // Board 3 v 4: 4's planned opponent 1 and 3 differ by 300 points (and 6, 4 likewise).
    let t = field(&[2600, 2500, 2300, 1800, 1700, 1500]);
    let v = verdict(&t, 1, rotated(), vec![]);
    assert_eq!(rules(&v), ["US Chess 29E5b"], "{v:?}");
    assert_eq!(v[0].players.len(), 6);
    // 200 points at most: within 29E5b, but no colour is gained, so past 29E5a's 80.
    let t = field(&[2600, 2500, 2400, 1800, 1700, 1600]);
    let v = verdict(&t, 1, rotated(), vec![]);
    assert_eq!(rules(&v), ["US Chess 29E5a"], "{v:?}");
    // The plan itself breaks nothing.
    let plan = vec![g(1, 4, "1-0"), g(5, 2, "0-1"), g(3, 6, "1-0")];
    assert!(verdict(&t, 1, plan, vec![]).is_empty());
}

/// The bound the pair source gives the solver for a player and a run of partners of one score
/// group (it skips the run when the bound prices out) is below every pair's costs, tier by
/// tier: were it above, a pair of the optimum could be left out and the proof be wrong.
#[test]
fn run_bounds_hold_for_every_pair_of_generated_fields() {
    use optipair::solve::Options;
    use optipair::systems::uscf_swiss::sparse_spec_of;
    let mut raised = 0;
    for (players, seed, played) in [(41, 5, 3), (80, 2, 5), (60, 9, 1)] {
        let spec = optipair::generate::Spec {
            players,
            rounds: 7,
            played,
            seed,
            draw_rate: 0.3,
            system: SystemKind::Uscf,
        };
        let t = optipair::generate::field(&spec, &Options::default()).unwrap();
        let round = played + 1;
        let f = Field::new(&t, round).unwrap();
        let src = sparse_spec_of(f.clone()).source;
        for a in 0..f.len() {
            for g in &f.groups {
                for lo in g.clone() {
                    for hi in lo..g.end.min(lo + 9) {
                        let mut low = src.lower(src.class(a), src.class(lo));
                        let before = low.clone();
                        src.refine_lower(a, lo, hi, &mut low);
                        raised += (low != before) as usize;
                        for b in (lo..=hi).filter(|&b| b != a) {
                            let Some(c) = src.pair(a.min(b), a.max(b)) else {
                                continue;
                            };
                            for (k, (&cost, &bound)) in c.costs.iter().zip(&low).enumerate() {
                                assert!(
                                    cost >= bound,
                                    "{players} players round {round}: {a} v {b} in {lo}..={hi}: tier {} costs {cost} < bound {bound}",
                                    TIERS[k].0
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(raised > 1000, "the bounds raise only {raised} times");
}

/// Both ways, round after round: each round of a generated event is paired from the sparse
/// specification (pairs priced in by LP duals) and from the one listing every pair, with the
/// same games, both proved optimal and accepted by the verifier; then every two boards of a
/// score group that are planned games (29C) are transposed, and the verifier rejects each
/// transposition past a limit, naming the four players: over 200 points "US Chess 29E5b", over
/// 80 points when the planned games broke 27A4 for nobody "US Chess 29E5a".
#[test]
fn replay_both_ways_and_switches_past_the_limits_rejected() {
    use optipair::engine::{pair_round, store};
    use optipair::solve::{Options, Status};
    let spec = optipair::generate::Spec {
        players: 70,
        rounds: 6,
        played: 0,
        seed: 4,
        draw_rate: 0.3,
        system: SystemKind::Uscf,
    };
    let mut t = optipair::generate::field(&spec, &Options::default()).unwrap();
    let mut rng = optipair::generate::Rng::new(4);
    let priced = Options {
        sparse_from: 0,
        ..Options::default()
    };
    let mut rejected = [0usize; 2];
    for r in 1..=6 {
        let listed = pair_round(&t, r, SystemKind::Uscf, &Options::default()).unwrap();
        let sparse = pair_round(&t, r, SystemKind::Uscf, &priced).unwrap();
        for (how, p) in [("listed", &listed), ("sparse", &sparse)] {
            assert!(
                p.violations.is_empty(),
                "round {r} {how}: {:?}",
                p.violations
            );
            assert_eq!(
                p.pairing.certificate.status,
                Status::Optimal,
                "round {r} {how}"
            );
        }
        assert_eq!(listed.pairing.games, sparse.pairing.games, "round {r}");
        let f = Field::new(&t, r).unwrap();
        t = store(&t, &listed);
        let n = transpositions_rejected(&t, r, &f);
        rejected[0] += n[0];
        rejected[1] += n[1];
        optipair::generate::play(&mut t, r, 0.3, &mut rng);
    }
    assert!(
        rejected[0] >= 10 && rejected[1] >= 10,
        "transpositions rejected past 200 / 80 points: {rejected:?}"
    );
}

/// Transposes every two boards of round `r` that are planned games of one score group of `f`
/// (upper `i` v lower `i`, upper `j` v lower `j` → upper `i` v lower `j`, upper `j` v lower
/// `i`, each upper player keeping his colour) and asserts the verifier's verdict on each
/// transposition past a limit; returns how many past 200 and past 80 points were rejected.
fn transpositions_rejected(t: &Tournament, r: u32, f: &Field) -> [usize; 2] {
    use optipair::systems::uscf_swiss::breaks_equalization;
    use optipair::tournament::Colour;
    let games = &t.round(r).unwrap().games;
    let board = |a: u32, b: u32| {
        games
            .iter()
            .position(|x| (x.white, x.black) == (a, b) || (x.white, x.black) == (b, a))
    };
    let p = |i: usize| &f.players[i];
    let number = |i: usize| t.player(p(i).id).unwrap().number();
    let mut out = [0; 2];
    for (up, low) in f.upper.iter().zip(&f.lower) {
        let planned: Vec<(usize, usize, usize)> = up
            .iter()
            .zip(low)
            .filter_map(|(&u, &l)| board(p(u).id, p(l).id).map(|b| (u, l, b)))
            .collect();
        for (x, &(u1, l1, b1)) in planned.iter().enumerate() {
            for &(u2, l2, b2) in &planned[x + 1..] {
                let rated = [u1, l1, u2, l2].iter().all(|&i| p(i).rating > 0);
                let met = p(u1).standing.has_met(p(l2).id) || p(u2).standing.has_met(p(l1).id);
                if !rated || met {
                    continue;
                }
                let size = p(l1)
                    .rating
                    .abs_diff(p(l2).rating)
                    .min(p(u1).rating.abs_diff(p(u2).rating));
                // The planned games' colours, as played: did they break 27A4 for anyone?
                let colour = |i: usize, b: usize| {
                    if games[b].white == p(i).id {
                        Colour::White
                    } else {
                        Colour::Black
                    }
                };
                let unequal = [(u1, b1), (l1, b1), (u2, b2), (l2, b2)]
                    .iter()
                    .any(|&(i, b)| breaks_equalization(&p(i).standing, colour(i, b)));
                let (rule, k) = match size {
                    s if s > 200 => ("US Chess 29E5b", 0),
                    s if s > 80 && !unequal => ("US Chess 29E5a", 1),
                    _ => continue,
                };
                let mut m = t.clone();
                let g = &mut m.round_mut(r).games;
                for (b, u, l) in [(b1, u1, l2), (b2, u2, l1)] {
                    let (w, bl) = if colour(u, b) == Colour::White {
                        (p(u).id, p(l).id)
                    } else {
                        (p(l).id, p(u).id)
                    };
                    g[b].white = w;
                    g[b].black = bl;
                }
                let v = check_round(&m, r, SystemKind::Uscf).unwrap();
                let four = [u1, l1, u2, l2].map(number);
                assert!(
                    v.iter()
                        .any(|x| x.rule == rule && four.iter().all(|n| x.players.contains(n))),
                    "round {r}: {} v {} and {} v {} transposed ({size} points): want {rule}, got {v:?}",
                    four[0],
                    four[1],
                    four[2],
                    four[3]
                );
                out[k] += 1;
            }
        }
    }
    out
}

/// The legal fallback (here the exact solve skipped, as when it runs out of time) keeps the
/// plan's games (US Chess 29C, 29D: no switch at all) and pairs only the players a rematch
/// (27A1) leaves over: every round of generated events it pairs is accepted by the verifier,
/// in particular no transposition past the 80- or 200-point rule (US Chess 29E5a, 29E5b), and
/// it is never called optimal. Under the accelerations built on the Swiss (batches, thirds,
/// added score), whose pair source hands the fallback the same planned games, the switch
/// limits hold too.
#[test]
fn fallback_keeps_the_switch_limits_and_is_never_called_optimal() {
    use optipair::engine::{pair_round, store};
    use optipair::solve::{Options, Status};
    let fallback = Options {
        greedy_only: true,
        sparse_from: 0,
        ..Options::default()
    };
    let systems = [
        SystemKind::Uscf,
        SystemKind::UscfBatches,
        SystemKind::UscfThirds,
        SystemKind::UscfAddedScore,
    ];
    for (system, seed) in systems.into_iter().flat_map(|s| [(s, 2), (s, 7)]) {
        let spec = optipair::generate::Spec {
            players: 91,
            rounds: 7,
            played: 0,
            seed,
            draw_rate: 0.3,
            system,
        };
        let mut t = optipair::generate::field(&spec, &Options::default()).unwrap();
        let mut rng = optipair::generate::Rng::new(seed);
        for r in 1..=7 {
            let p = pair_round(&t, r, system, &fallback).unwrap();
            let what = format!("{} seed {seed} round {r}", system.name());
            // The accelerations' own rules (their round-2 batches, the added score's groups)
            // are tiers the fallback does not optimise; the rulebook's switch limits hold.
            let limits: Vec<_> = (p.violations.iter())
                .filter(|v| system == SystemKind::Uscf || v.rule.starts_with("US Chess 29E5"))
                .collect();
            assert!(limits.is_empty(), "{what}: {limits:?}");
            assert_ne!(p.pairing.certificate.status, Status::Optimal, "{what}");
            if system == SystemKind::Uscf {
                assert_eq!(p.pairing.certificate.status, Status::Fallback, "{what}");
            }
            assert!(p.pairing.unpaired.is_empty(), "{what}");
            assert_eq!(p.round.byes.len(), 1, "{what}: the odd field's bye");
            t = store(&t, &p);
            optipair::generate::play(&mut t, r, 0.3, &mut rng);
        }
    }
}

/// The legal fallback improves its matching by partner exchanges, tier by tier: on fields of
/// 150 players whose history the fallback paired, its rounds 2 and 4 keep rules 27–29 (no
/// switch past the 80- or 200-point rules) and the accelerations' own rules (the added score's
/// groups, the round-2 batches). Before the exchanges the verifier rejected each of these
/// rounds.
#[test]
fn fallback_exchanges_keep_the_switch_limits_and_the_accelerations_rules() {
    use optipair::engine::pair_round;
    use optipair::solve::{Options, Status};
    let greedy = Options {
        greedy_only: true,
        ..Options::default()
    };
    let cases = [
        (SystemKind::Uscf, 1, 1),
        (SystemKind::Uscf, 2, 3),
        (SystemKind::Uscf, 7, 1),
        (SystemKind::UscfAddedScore, 3, 1),
        (SystemKind::UscfAddedScore, 4, 3),
        (SystemKind::UscfAddedScore, 8, 1),
        (SystemKind::UscfBatches, 2, 1),
        (SystemKind::UscfBatches, 5, 3),
        (SystemKind::UscfThirds, 1, 1),
        (SystemKind::UscfThirds, 7, 1),
    ];
    for (system, seed, played) in cases {
        let spec = optipair::generate::Spec {
            players: 150,
            rounds: 9,
            played,
            seed,
            draw_rate: 0.3,
            system,
        };
        let t = optipair::generate::field(&spec, &greedy).unwrap();
        let p = pair_round(&t, played + 1, system, &greedy).unwrap();
        let what = format!("{} seed {seed} round {}", system.name(), played + 1);
        assert!(p.violations.is_empty(), "{what}: {:?}", p.violations);
        assert_eq!(p.pairing.certificate.status, Status::Fallback, "{what}");
        assert!(p.pairing.unpaired.is_empty(), "{what}");
    }
}

/// A score group of `ratings.len()` players (ids 1.. in that order) with the colour histories
/// `hist` (oldest first; `x` an unplayed round, a full-point bye): every game a win against a
/// player of its own who loses, so the group shares one score and no two of it have met.
fn group_with_histories(ratings: &[u32], hist: &[&str]) -> Tournament {
    let m = ratings.len() as u32;
    let rounds = hist[0].len() as u32;
    let mut all = ratings.to_vec();
    all.extend((0..m * rounds).map(|k| 1000 - k));
    let mut t = field(&all);
    for r in 1..=rounds {
        let mut games = Vec::new();
        let mut byes = Vec::new();
        for (i, h) in hist.iter().enumerate() {
            let (me, other) = (i as u32 + 1, m + 1 + (r - 1) * m + i as u32);
            match h.as_bytes()[(r - 1) as usize] {
                b'W' => games.push(g(me, other, "1-0")),
                b'B' => games.push(g(other, me, "0-1")),
                _ => byes.push(me),
            }
        }
        add_pab(&mut t, r, games, byes);
    }
    t
}

/// The group's games in the next round, (white, black), by white's id.
fn group_games(t: &Tournament, m: u32) -> BTreeSet<(u32, u32)> {
    let r = t.rounds.len() as u32 + 1;
    pair(t, r, "uscf")
        .round
        .games
        .iter()
        .filter(|x| x.white <= m && x.black <= m)
        .map(|x| (x.white, x.black))
        .collect()
}

/// US Chess 29E5c's worked example: 2000 WB, 1980 BW, 1800 WB, 1500 BW in round 3. The
/// natural pairings 2000–1800 and 1980–1500 both clash; trading 1800 for 1500 looks like 300
/// points, but the same pairings come from trading 2000 for 1980, 20 points: a transposition
/// within the 80-point rule, so 2000 (W) v 1500 and 1800 (W) v 1980.
#[test]
fn us_chess_29e5c_a_transposition_counts_the_smaller_difference() {
    let t = group_with_histories(&[2000, 1980, 1800, 1500], &["WB", "BW", "WB", "BW"]);
    assert_eq!(group_games(&t, 4), BTreeSet::from([(1, 4), (3, 2)]));
}

/// US Chess 29E5e's first worked example, round 4: 2050 WBW, 1870 BWB, 1850 WBW, 1780 BWB.
/// The natural 2050–1850 and 1870–1780 both clash. The transposition 1850 ↔ 1780 (70 points,
/// within 80) is preferred to the smaller interchange 1870 ↔ 1850 (20 points): 1780 (W) v
/// 2050, 1870 (W) v 1850.
#[test]
fn us_chess_29e5e_a_transposition_within_80_before_a_smaller_interchange() {
    let t = group_with_histories(&[2050, 1870, 1850, 1780], &["WBW", "BWB", "WBW", "BWB"]);
    assert_eq!(group_games(&t, 4), BTreeSet::from([(4, 1), (2, 3)]));
}

/// US Chess 29E5e's second worked example: the same with 1750 for 1780. The transposition is
/// now 100 points, past the 80-point rule, so the 20-point interchange is made: 1870 (W) v
/// 2050, 1750 (W) v 1850.
#[test]
fn us_chess_29e5e_an_interchange_within_80_before_a_transposition_past_it() {
    let t = group_with_histories(&[2050, 1870, 1850, 1750], &["WBW", "BWB", "WBW", "BWB"]);
    assert_eq!(group_games(&t, 4), BTreeSet::from([(2, 1), (4, 3)]));
}

/// US Chess 29E5a: Anne 2000 WBWB, Bob 1900 BWBW, Charlie 1600 WBWB, David 1570 BWBW in round
/// 5 (a TD forum case): the natural Anne–Charlie and Bob–David both clash; transposing Charlie
/// and David, 30 points, gives everyone his due colour: Anne (W) v David, Charlie (W) v Bob.
#[test]
fn us_chess_29e5a_a_30_point_transposition_for_alternation() {
    let t = group_with_histories(&[2000, 1900, 1600, 1570], &["WBWB", "BWBW", "WBWB", "BWBW"]);
    assert_eq!(group_games(&t, 4), BTreeSet::from([(1, 4), (3, 2)]));
}

/// US Chess 29E5e under the 200-point rule (a TD forum case, round 2): 2400 and 2210 due
/// white, 2250 and 2013 due black. The natural 2400–2210 and 2250–2013 both clash; the
/// 40-point interchange 2250 ↔ 2210 is preferred to the transposition (150 points counted the
/// smaller way): 2400 (W) v 2250, 2210 (W) v 2013.
#[test]
fn us_chess_29e5e_a_40_point_interchange_for_equalization() {
    let t = group_with_histories(&[2400, 2250, 2210, 2013], &["B", "W", "B", "W"]);
    assert_eq!(group_games(&t, 4), BTreeSet::from([(1, 2), (3, 4)]));
}

/// US Chess 29E4's colour priorities between two players due the same colour: equalization
/// before alternation (WBW gets black, BxW white); the larger imbalance first (xWBW white
/// against WWBW); then the latest round in which the histories differ (WWB white against WBW;
/// WBWB white against BWWB; BWxBW white against BWBxW); identical histories: the higher-ranked
/// gets his due colour.
#[test]
fn us_chess_29e4_colour_priorities() {
    let cases: [(&[&str], u32); 7] = [
        (&["WBW", "BxW"], 2),
        (&["WWBW", "xWBW"], 2),
        (&["WWB", "WBW"], 1),
        (&["WBWB", "BWWB"], 1),
        (&["BWxBW", "BWBxW"], 1),
        (&["WB", "WB"], 1),
        (&["BW", "BW"], 2),
    ];
    for (hist, white) in cases {
        let t = group_with_histories(&[2000, 1900], hist);
        let games = group_games(&t, 2);
        assert_eq!(
            games,
            BTreeSet::from([(white, 3 - white)]),
            "{hist:?}: white should be {white}"
        );
    }
}

/// US Chess 29E7's first worked example, round 4, one score group: 2300, 2220, 2180 (BBW),
/// 2050, 2040 all due white, 1990, 1980, 1950 due black. Five due white cannot all have it; the
/// natural pairing leaves one clash (2300–2040) and no switch gives fewer, so it stands.
#[test]
fn us_chess_29e7_the_natural_pairing_stands_when_no_switch_helps() {
    let t = group_with_histories(
        &[2300, 2220, 2180, 2050, 2040, 1990, 1980, 1950],
        &["BWB", "BWB", "BBW", "BWB", "BWB", "WBW", "WBW", "WBW"],
    );
    let games = group_games(&t, 8);
    assert_eq!(
        games
            .iter()
            .map(|&(w, b)| (w.min(b), w.max(b)))
            .collect::<BTreeSet<_>>(),
        set(&[(1, 5), (2, 6), (3, 7), (4, 8)])
    );
    assert!(games.is_superset(&BTreeSet::from([(2, 6), (3, 7), (4, 8)])));
}

/// US Chess 29E7's second worked example, round 5, one group of ten: the transposition of
/// 1910 and 1800 (34 points, counted by 2212 − 2178) gives everyone but board 1 his colour:
/// 2320 (W) v 1980, 1951 (W) v 2278, 1800 (W) v 2212, 2199 (W) v 1896, 2178 (W) v 1910 — one
/// transposition, not a compound one of the same size.
#[test]
fn us_chess_29e7_one_transposition_before_a_compound_one() {
    let t = group_with_histories(
        &[2320, 2278, 2212, 2199, 2178, 1980, 1951, 1910, 1896, 1800],
        &[
            "WBWB", "BWBW", "BWBW", "WBWB", "WBWB", "WBWB", "WBWB", "BWBW", "BWBW", "WBWB",
        ],
    );
    assert_eq!(
        group_games(&t, 10),
        BTreeSet::from([(1, 6), (7, 2), (10, 3), (4, 9), (5, 8)])
    );
}

/// US Chess 29E7's fourth worked example, round 2, all on 1 point, 1350 after a full-point
/// bye (no colour): 2210 (W) v 1920, 2200 (W) v 1820, 1830 (W) v 2150, 2120 (W) v 1790, 2080
/// (W) v 1500, 1900 (W) v 1350.
#[test]
fn us_chess_29e7_round_two_with_a_player_after_a_bye() {
    let t = group_with_histories(
        &[
            2210, 2200, 2150, 2120, 2080, 1920, 1900, 1830, 1820, 1790, 1500, 1350,
        ],
        &["B", "B", "W", "B", "B", "W", "B", "B", "W", "B", "B", "x"],
    );
    assert_eq!(
        group_games(&t, 12),
        BTreeSet::from([(1, 6), (2, 9), (8, 3), (4, 10), (5, 11), (7, 12)])
    );
}
