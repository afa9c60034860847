//! NSC06 (2006 National SCRABBLE Championship schedule): each scheme and rule from the
//! document's text, the verifier's verdicts, and a whole simulated 28-round event.

use optipair::engine;
use optipair::generate::{self, Rng};
use optipair::solve::Options;
use optipair::systems::nsc2006::{
    self, base_pods, rr_round, snake_groups, top_pairs, Record, Schedule, Settings,
};
use optipair::tournament::{Game, Tournament};
use optipair::verify;
use optipair::SystemKind;
use std::collections::BTreeSet;
use std::time::Instant;

fn event(n: usize, seed: u64) -> Tournament {
    let mut rng = Rng::new(seed);
    let mut t = Tournament::new("NSC test", generate::scrabble_players(n, &mut rng));
    t.rounds_planned = Some(28);
    t.system = Some("nsc2006".into());
    t.scoring.game_scores = true;
    t
}

/// Pairs and plays rounds up to `upto`, checking every round with the verifier; returns the
/// system's notes.
fn run(t: &mut Tournament, upto: u32, rng: &mut Rng) -> Vec<String> {
    let from = t.last_paired_round() + 1;
    let mut notes = Vec::new();
    for r in from..=upto {
        let p = engine::pair_round(t, r, SystemKind::Nsc2006, &Options::default()).unwrap();
        notes.extend(p.notes.iter().map(|n| format!("round {r}: {n}")));
        assert!(p.violations.is_empty(), "round {r}: {:?}", p.violations);
        assert!(
            p.pairing.unpaired.is_empty(),
            "round {r}: unpaired {:?}",
            p.pairing.unpaired
        );
        *t = engine::store(t, &p);
        generate::play(t, r, 0.0, rng);
    }
    notes
}

fn pairs(t: &Tournament, r: u32) -> BTreeSet<(u32, u32)> {
    t.round(r)
        .unwrap()
        .games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect()
}

fn set(winners: u32) -> Settings {
    Settings {
        schedule: Schedule::nsc2006(),
        division: Some(if winners == 2 { 1 } else { 2 }),
        winners,
        prize_places: 6,
    }
}

fn recs(v: &[(f64, i64)]) -> Vec<Record> {
    v.iter()
        .enumerate()
        .map(|(i, &(wins, spread))| Record {
            id: i as u32 + 1,
            wins,
            spread,
        })
        .collect()
}

#[test]
fn snake_runs_row_one_forward_row_two_back() {
    // NSC06: 1 2 3 ... 12 then 24 23 ... 13 : with 24 players and 12 groups, group 1 holds
    // 1 and 24, group 12 holds 12 and 13.
    let ids: Vec<u32> = (1..=24).collect();
    let g = snake_groups(&ids, 2);
    assert_eq!(g.len(), 12);
    assert_eq!(g[0], vec![1, 24]);
    assert_eq!(g[11], vec![12, 13]);
    // Groups of 8 from 200: 25 groups, group 1 = 1, 50, 51, 100, 101, 150, 151, 200.
    let ids: Vec<u32> = (1..=200).collect();
    let g = snake_groups(&ids, 8);
    assert_eq!(g.len(), 25);
    assert_eq!(g[0], vec![1, 50, 51, 100, 101, 150, 151, 200]);
}

#[test]
fn round_robin_of_eight_meets_everyone_once() {
    let mut seen = BTreeSet::new();
    for j in 0..7 {
        let (p, bye) = rr_round(8, j);
        assert_eq!(p.len(), 4);
        assert!(bye.is_none());
        for pr in p {
            assert!(seen.insert(pr), "pair {pr:?} twice");
        }
    }
    assert_eq!(seen.len(), 28);
    // A group of seven: one bye a round, seven rounds, every pair once.
    let mut seen = BTreeSet::new();
    let mut byes = BTreeSet::new();
    for j in 0..7 {
        let (p, bye) = rr_round(7, j);
        byes.insert(bye.unwrap());
        seen.extend(p);
    }
    assert_eq!((seen.len(), byes.len()), (21, 7));
}

#[test]
fn quads_from_groups_follow_the_document() {
    // Groups of 20: (1, 6, 11, 16), (2, 7, 12, 17) ... (5, 10, 15, 20).
    let q = base_pods(40, 20);
    assert_eq!(q[0], vec![0, 5, 10, 15]);
    assert_eq!(q[4], vec![4, 9, 14, 19]);
    assert_eq!(q[5], vec![20, 25, 30, 35]);
    // 16: (1, 5, 9, 13); 12: (1, 4, 7, 10); 8: (1, 3, 5, 7); 4: (1, 2, 3, 4).
    assert_eq!(base_pods(16, 16)[0], vec![0, 4, 8, 12]);
    assert_eq!(base_pods(12, 12)[2], vec![2, 5, 8, 11]);
    assert_eq!(base_pods(8, 8)[1], vec![1, 3, 5, 7]);
    assert_eq!(base_pods(8, 4)[1], vec![4, 5, 6, 7]);
    // 200 from groups of 16: twelve full groups and a last group of 8 split as a group of 8.
    let q = base_pods(200, 16);
    assert_eq!(q.len(), 50);
    assert_eq!(q[48], vec![192, 194, 196, 198]);
    // Not a multiple of four: the bottom 4 + n mod 4 form one pod.
    let q = base_pods(42, 20);
    assert_eq!(q.last().unwrap(), &(36..42).collect::<Vec<_>>());
}

#[test]
fn rounds_one_to_seven_are_snaked_round_robins_with_firsts_balanced() {
    let mut t = event(48, 5);
    let mut rng = Rng::new(5);
    run(&mut t, 7, &mut rng);
    let groups = snake_groups(&(1..=48).collect::<Vec<_>>(), 8);
    for g in &groups {
        let mut met = BTreeSet::new();
        for r in 1..=7 {
            for (a, b) in pairs(&t, r) {
                if g.contains(&a) {
                    assert!(g.contains(&b), "round {r}: {a} v {b} leaves the group");
                    met.insert((a, b));
                }
            }
        }
        assert_eq!(met.len(), 28, "group {g:?} plays a full round robin");
    }
    let st = optipair::tournament::Standings::before(&t, 8);
    for s in st.by_id.values() {
        let (f, sd) = s.firsts_seconds();
        assert!(
            f.abs_diff(sd) <= 1,
            "player {} went first {f} times of 7",
            s.id
        );
    }
}

#[test]
fn session_three_plays_quads_then_a_v_a1() {
    let mut t = event(40, 11);
    let mut rng = Rng::new(11);
    run(&mut t, 11, &mut rng);
    // Quads of session 3 come from the standings before round 8; nobody meets twice.
    let mut all = BTreeSet::new();
    for r in 1..=11 {
        for p in pairs(&t, r) {
            assert!(all.insert(p), "repeat {p:?} before round 15");
        }
    }
    let order = optipair::tournament::Standings::before(&t, 8).by_wins_spread();
    let pos = |id: u32| order.iter().position(|&x| x == id).unwrap();
    // Every player's three opponents in rounds 8-10 form his quad with him.
    for &id in &order {
        let mut quad: BTreeSet<u32> = [id].into();
        for r in 8..=10 {
            for (a, b) in pairs(&t, r) {
                if a == id || b == id {
                    quad.insert(a + b - id);
                }
            }
        }
        assert_eq!(quad.len(), 4, "player {id}: {quad:?}");
    }
    // Round 11 (NSC06: A vs. A1, B vs. B1 ...): quads ordered by their best-standing member
    // and coupled 1-2, 3-4 ...; same letters unless that pairing would be a repeat.
    let quads = quads_of(&t, 8..=10, &order);
    let met_before: BTreeSet<(u32, u32)> = (1..=10).flat_map(|r| pairs(&t, r)).collect();
    let key = |a: u32, b: u32| (a.min(b), a.max(b));
    let mut same = 0;
    for c in quads.chunks(2) {
        let blocked = (0..4).any(|l| met_before.contains(&key(c[0][l], c[1][l])));
        for l in 0..4 {
            if !blocked {
                assert!(
                    pairs(&t, 11).contains(&key(c[0][l], c[1][l])),
                    "letter {l} of {c:?}"
                );
                same += 1;
            }
        }
    }
    assert!(same > 0);
    let _ = pos;
}

/// Each player's quad from the rounds given, quads in order of their best-standing member,
/// members in standing order (A, B, C, D).
fn quads_of(t: &Tournament, rounds: std::ops::RangeInclusive<u32>, order: &[u32]) -> Vec<Vec<u32>> {
    let pos = |id: u32| order.iter().position(|&x| x == id).unwrap();
    let mut out: Vec<Vec<u32>> = Vec::new();
    for &id in order {
        if out.iter().any(|q| q.contains(&id)) {
            continue;
        }
        let mut q: Vec<u32> = vec![id];
        for r in rounds.clone() {
            for (a, b) in pairs(t, r) {
                if a == id || b == id {
                    q.push(a + b - id);
                }
            }
        }
        q.sort_by_key(|&x| pos(x));
        out.push(q);
    }
    out
}

#[test]
fn verifier_flags_quads_mixed_and_a_v_a1_broken() {
    let mut t = event(40, 11);
    let mut rng = Rng::new(11);
    run(&mut t, 11, &mut rng);
    let order = optipair::tournament::Standings::before(&t, 8).by_wins_spread();
    let quads = quads_of(&t, 8..=10, &order);
    // Round 11: in a couple that met letter for letter, swap A and B: A v B1, B v A1.
    let key = |a: u32, b: u32| (a.min(b), a.max(b));
    let r11 = pairs(&t, 11);
    let c = quads
        .chunks(2)
        .find(|c| (0..4).all(|l| r11.contains(&key(c[0][l], c[1][l]))))
        .expect("a couple paired A v A1 ... D v D1");
    let (q0, q1) = (&c[0], &c[1]);
    let mut bad = t.clone();
    let rd = bad.round_mut(11);
    rd.games
        .retain(|g| ![q0[0], q0[1]].contains(&g.white) && ![q0[0], q0[1]].contains(&g.black));
    rd.games.push(Game::scored(q0[0], q1[1], 400, 300));
    rd.games.push(Game::scored(q1[0], q0[1], 400, 300));
    let v = verify::check_round(&bad, 11, SystemKind::Nsc2006).unwrap();
    let met = optipair::tournament::Standings::before(&t, 11);
    let barred = met.get(q0[0]).unwrap().played.contains(&q1[1])
        || met.get(q0[1]).unwrap().played.contains(&q1[0]);
    if !barred {
        assert!(
            v.iter().any(|x| x.rule == "NSC06 session 3 fourth round"),
            "{v:?}"
        );
    }
    let (q0, q1) = (&quads[0], &quads[1]);
    // Round 9: a player of the first quad meets one of the second: the quads merge.
    let mut bad = t.clone();
    let rd = bad.round_mut(9);
    let i = rd.games.iter().position(|g| q0.contains(&g.white)).unwrap();
    let k = rd.games.iter().position(|g| q1.contains(&g.white)).unwrap();
    let (a, b) = (rd.games[i].white, rd.games[k].white);
    let (c, d) = (rd.games[i].black, rd.games[k].black);
    rd.games[i] = Game::scored(a, d, 400, 300);
    rd.games[k] = Game::scored(b, c, 400, 300);
    let v = verify::check_round(&bad, 9, SystemKind::Nsc2006).unwrap();
    assert!(v.iter().any(|x| x.rule == "NSC06 session 3 quads"), "{v:?}");
}

#[test]
fn final_session_koth_quads_below_40_and_king_of_the_hill_above() {
    let mut t = event(60, 31);
    let mut rng = Rng::new(31);
    run(&mut t, 28, &mut rng);
    let order = optipair::tournament::Standings::before(&t, 26).by_wins_spread();
    // Positions 41-60: three rounds inside quads of four, never with a top-40 player.
    let bottom = &order[40..];
    let quads = quads_of(&t, 26..=28, bottom);
    assert_eq!(quads.len(), 5);
    for q in &quads {
        assert_eq!(q.len(), 4, "{q:?}");
        assert!(q.iter().all(|id| bottom.contains(id)));
    }
    // Round 28 (no top-six rule): the top 40 King-of-the-Hill by the standings before it,
    // unless a Gibson is paired first.
    let now: Vec<u32> = optipair::tournament::Standings::before(&t, 28)
        .by_wins_spread()
        .into_iter()
        .filter(|id| order[..40].contains(id))
        .collect();
    let got = pairs(&t, 28);
    let koth = now
        .chunks(2)
        .filter(|c| got.contains(&(c[0].min(c[1]), c[0].max(c[1]))))
        .count();
    assert!(koth >= 19, "{koth} of 20 top pairs are King-of-the-Hill");
}

#[test]
fn top_six_rule_round_26() {
    // #5 (wins 17) can reach #1 (20) by winning the last three: 1v4, 2v5, 3v6.
    let top = recs(&[
        (20.0, 900),
        (19.0, 800),
        (19.0, 500),
        (18.0, 400),
        (17.0, 300),
        (17.0, 200),
        (16.0, 0),
        (15.0, 0),
    ]);
    let (p, _, _) = top_pairs(&set(1), 0, 3, &top, &top);
    assert_eq!(&p[..3], &[(1, 4), (2, 5), (3, 6)]);
    assert_eq!(p[3], (7, 8));
    // #5 at 16 cannot: 1v3, 2v4, 5v6.
    let top = recs(&[
        (20.0, 900),
        (19.0, 800),
        (19.0, 500),
        (18.0, 400),
        (16.0, 300),
        (16.0, 200),
        (15.0, 0),
        (15.0, 0),
    ]);
    let (p, _, _) = top_pairs(&set(1), 0, 3, &top, &top);
    assert_eq!(&p[..3], &[(1, 3), (2, 4), (5, 6)]);
}

#[test]
fn top_six_rule_round_27() {
    // #3 (wins 19) can reach #1 (21) with two games left: 1v3, 2v4, 5v6.
    let top = recs(&[
        (21.0, 0),
        (20.0, 0),
        (19.0, 0),
        (19.0, 0),
        (18.0, 0),
        (18.0, 0),
    ]);
    let (p, _, _) = top_pairs(&set(1), 1, 2, &top, &top);
    assert_eq!(p, vec![(1, 3), (2, 4), (5, 6)]);
    // #3 at 18 cannot: King-of-the-Hill, 1v2, 3v4, 5v6.
    let top = recs(&[
        (21.0, 0),
        (20.0, 0),
        (18.0, 0),
        (18.0, 0),
        (18.0, 0),
        (17.0, 0),
    ]);
    let (p, _, _) = top_pairs(&set(1), 1, 2, &top, &top);
    assert_eq!(p, vec![(1, 2), (3, 4), (5, 6)]);
    // Round 28: King-of-the-Hill.
    let (p, _, _) = top_pairs(&set(1), 2, 1, &top, &top);
    assert_eq!(p, vec![(1, 2), (3, 4), (5, 6)]);
}

#[test]
fn gibson_plays_the_highest_player_out_of_the_prizes() {
    // One game left, #1 leads by 2: nobody can reach 22, first is clinched. With 6 prize
    // places, #7 (17 wins, 18 at most) has six players above 18: out of the prizes, and the
    // highest such player, so #1's opponent. The rest King-of-the-Hill.
    let top = recs(&[
        (22.0, 0),
        (20.0, 0),
        (20.0, 0),
        (19.0, 0),
        (19.0, 0),
        (19.0, 0),
        (17.0, 0),
        (17.0, 0),
        (16.0, 0),
        (16.0, 0),
    ]);
    let (p, odd, notes) = top_pairs(&set(1), 2, 1, &top, &top);
    assert_eq!(p[0], (1, 7));
    assert_eq!(&p[1..], &[(2, 3), (4, 5), (6, 8), (9, 10)]);
    assert!(odd.is_none());
    assert!(notes[0].contains("Gibsonization"));
}

#[test]
fn division_one_flight_pairs_with_the_lowest_who_can_overtake() {
    // Three games left, both places open: cap 12. Catch table: 3 games behind, within 900.
    // #2 has 20 wins; #3-#5 are within 3 games, #6 is 3 behind with -1000 spread (out).
    let top = recs(&[
        (21.0, 500),
        (20.0, 400),
        (19.0, 300),
        (18.0, 200),
        (17.0, 0),
        (17.0, -600),
        (16.0, 0),
        (15.0, 0),
    ]);
    let (p, _, notes) = top_pairs(&set(2), 0, 3, &top, &top);
    // Contenders 1-5 (#6 is 3 behind #2 with spread 1000 behind): flight of 6 (odd → +1).
    assert!(notes.iter().any(|n| n.contains("flight of 6")), "{notes:?}");
    // #1 meets the lowest in the flight who can still overtake him: #5 (4 behind? no: 4
    // games behind #1 is out); #4 is 3 behind #1 within 900 spread.
    assert_eq!(p[0], (1, 4));
    assert_eq!(p.len(), 4);
    // Two games left, both open: cap 8. Contenders for #2's place: #3 (1 behind), #4 (2
    // behind, 200 spread within 700); #5 is 3 behind. Flight of 4: #1 meets #3 (#4 is 3
    // behind him), #2 meets #4; the rest King-of-the-Hill.
    let (p, _, notes) = top_pairs(&set(2), 1, 2, &top, &top);
    assert!(
        notes.iter().any(|n| n.contains("flight of 4 (cap 8)")),
        "{notes:?}"
    );
    assert_eq!(p, vec![(1, 3), (2, 4), (5, 6), (7, 8)]);
}

#[test]
fn division_one_one_place_open_after_a_gibson() {
    // One game left: #1 (25) cannot be reached by anyone: Gibsonized (a finals seat). One
    // place open, cap 2 in round 28: #2 and #3 (level with #2) form the flight.
    let top = recs(&[
        (25.0, 0),
        (23.0, 100),
        (23.0, 0),
        (22.0, 0),
        (20.0, 0),
        (19.0, 0),
        (15.0, 0),
        (14.0, 0),
    ]);
    let (p, _, notes) = top_pairs(&set(2), 2, 1, &top, &top);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("1 open place(s), flight of 2 (cap 2)")),
        "{notes:?}"
    );
    // Prize places 6: #7 (15, at most 16) has six players above 16 → the Gibson opponent.
    assert_eq!(p, vec![(1, 7), (2, 3), (4, 5), (6, 8)]);
}

#[test]
fn catch_table_limits() {
    let s = Schedule::nsc2006();
    let hi = Record {
        id: 1,
        wins: 20.0,
        spread: 600,
    };
    let lo = |w: f64, sp: i64| Record {
        id: 2,
        wins: w,
        spread: sp,
    };
    // 1 game left: 1 game behind and at most 500 spread behind.
    assert!(nsc2006::can_catch(&s, 1, &lo(19.0, 100), &hi));
    assert!(!nsc2006::can_catch(&s, 1, &lo(19.0, 99), &hi));
    assert!(!nsc2006::can_catch(&s, 1, &lo(18.0, 600), &hi));
    // 2: 2 games, 700; 3: 3 games, 900.
    assert!(nsc2006::can_catch(&s, 2, &lo(18.0, -100), &hi));
    assert!(!nsc2006::can_catch(&s, 2, &lo(18.0, -101), &hi));
    assert!(nsc2006::can_catch(&s, 3, &lo(17.0, -300), &hi));
    assert!(!nsc2006::can_catch(&s, 3, &lo(16.5, 600), &hi));
}

#[test]
fn verifier_flags_a_game_across_snake_groups() {
    let mut t = event(16, 3);
    let mut rng = Rng::new(3);
    run(&mut t, 1, &mut rng);
    // Groups of 8 from 16 snake: 1 and 2 are in different groups.
    let rd = t.round_mut(1);
    let (a, b) = (rd.games[0].white, rd.games[0].black);
    let other = rd
        .games
        .iter()
        .position(|g| {
            g.white != a
                && g.black != a
                && ((g.white <= 16)
                    && snake_groups(&(1..=16).collect::<Vec<_>>(), 8)
                        .iter()
                        .all(|gr| !(gr.contains(&a) && gr.contains(&g.white))))
        })
        .unwrap();
    let (c, d) = (rd.games[other].white, rd.games[other].black);
    rd.games[0] = Game::scored(a, c, 400, 300);
    rd.games[other] = Game::scored(b, d, 400, 300);
    let v = verify::check_round(&t, 1, SystemKind::Nsc2006).unwrap();
    assert!(v.iter().any(|x| x.rule == "NSC06 round robin"), "{v:?}");
}

#[test]
fn verifier_flags_a_repeat_before_round_15() {
    let mut t = event(40, 9);
    let mut rng = Rng::new(9);
    run(&mut t, 8, &mut rng);
    let (a, b) = {
        let g = &t.round(1).unwrap().games[0];
        (g.white, g.black)
    };
    // Pair a round-1 pair again in round 8: both lose their round-8 opponents.
    let rd = t.round_mut(8);
    rd.games
        .retain(|g| ![g.white, g.black].iter().any(|x| *x == a || *x == b));
    rd.games.push(Game::scored(a, b, 300, 200));
    let v = verify::check_round(&t, 8, SystemKind::Nsc2006).unwrap();
    assert!(v.iter().any(|x| x.rule == "NSC06 repeats"), "{v:?}");
    assert!(v.iter().any(|x| x.rule == "NSC06 everyone paired"), "{v:?}");
}

#[test]
fn verifier_flags_a_threepeat_and_formula_quads_changed_without_need() {
    let mut t = event(48, 13);
    let mut rng = Rng::new(13);
    run(&mut t, 16, &mut rng);
    // Session 5 (groups of 12, repeats allowed): swap partners across two games of round 15.
    // The two games are from different quads: none of the second's players met the first's
    // in the rounds around the session.
    let g0 = t.round(15).unwrap().games[0].clone();
    let near: BTreeSet<u32> = (13..=16)
        .flat_map(|r| t.round(r).unwrap().games.clone())
        .filter(|g| {
            [g.white, g.black]
                .iter()
                .any(|x| *x == g0.white || *x == g0.black)
        })
        .flat_map(|g| [g.white, g.black])
        .collect();
    let k = t
        .round(15)
        .unwrap()
        .games
        .iter()
        .position(|g| !near.contains(&g.white) && !near.contains(&g.black));
    let k = k.expect("a game of another quad");
    let mut bad = t.clone();
    let rd = bad.round_mut(15);
    let g1 = rd.games[k].clone();
    rd.games[0] = Game::scored(g0.white, g1.black, 400, 300);
    rd.games[k] = Game::scored(g1.white, g0.black, 400, 300);
    let v = verify::check_round(&bad, 15, SystemKind::Nsc2006).unwrap();
    // (This event's session-5 quads needed no change: the formula's quads must stand.)
    assert!(v.iter().any(|x| x.rule == "NSC06 session 5 quads"), "{v:?}");
    // A pair from round 1 paired in rounds 15 and 16: the round-16 game is a threepeat.
    let (a, b) = {
        let g = &t.round(1).unwrap().games[0];
        (g.white, g.black)
    };
    let mut bad = t.clone();
    for r in [15, 16] {
        let rd = bad.round_mut(r);
        rd.games
            .retain(|g| ![g.white, g.black].iter().any(|x| *x == a || *x == b));
        rd.games.push(Game::scored(a, b, 300, 200));
    }
    let v = verify::check_round(&bad, 16, SystemKind::Nsc2006).unwrap();
    assert!(
        v.iter()
            .any(|x| x.rule == "NSC06 repeats" && x.message.contains("threepeat")),
        "{v:?}"
    );
}

#[test]
fn verifier_flags_first_to_the_player_with_more_firsts() {
    let mut t = event(16, 4);
    let mut rng = Rng::new(4);
    run(&mut t, 2, &mut rng);
    let st = optipair::tournament::Standings::before(&t, 2);
    let rd = t.round_mut(2);
    let i = rd
        .games
        .iter()
        .position(|g| {
            let f = |id| {
                let (a, b) = st.get(id).unwrap().firsts_seconds();
                a as i64 - b as i64
            };
            f(g.white) < f(g.black)
        })
        .expect("a game where first had fewer firsts");
    let g = &mut rd.games[i];
    std::mem::swap(&mut g.white, &mut g.black);
    let v = verify::check_round(&t, 2, SystemKind::Nsc2006).unwrap();
    assert!(v.iter().any(|x| x.rule == "NSC06 firsts balanced"), "{v:?}");
}

/// Times each pair met in rounds `rounds`.
fn met_counts(
    t: &Tournament,
    rounds: std::ops::RangeInclusive<u32>,
) -> std::collections::BTreeMap<(u32, u32), u32> {
    let mut m = std::collections::BTreeMap::new();
    for r in rounds {
        for p in pairs(t, r) {
            *m.entry(p).or_insert(0) += 1;
        }
    }
    m
}

#[test]
fn too_small_a_division_plays_one_round_robin_in_two_groups_then_the_final_session() {
    // 12 players: snaked groups of 8 would be two groups of 6, which cannot play rounds 1-7
    // without a repeat. NSC06 footnote: "the whole division divided into two separate groups
    // ... avoiding repeat pairings as much as possible": groups by the snake (ratings 1, 4,
    // 5, 8, 9, 12 and 2, 3, 6, 7, 10, 11), first inside themselves (5 rounds), then across
    // (6 rounds): everyone meets everyone once in rounds 1-11, again in 12-22; the final
    // session (26-28) as scheduled. Paired to the end and verified clean.
    let mut t = event(12, 1);
    let mut rng = Rng::new(1);
    let notes = run(&mut t, 28, &mut rng);
    assert!(
        notes.iter().any(|n| n.contains("NSC06 footnote")),
        "{notes:?}"
    );
    let mut by_rating: Vec<&optipair::tournament::Player> = t.players.iter().collect();
    by_rating.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.id.cmp(&b.id)));
    let group = |id: u32| {
        let k = by_rating.iter().position(|p| p.id == id).unwrap();
        matches!(k % 4, 1 | 2)
    };
    for r in 1..=5 {
        assert!(
            pairs(&t, r).iter().all(|&(a, b)| group(a) == group(b)),
            "round {r}"
        );
    }
    for r in 6..=11 {
        assert!(
            pairs(&t, r).iter().all(|&(a, b)| group(a) != group(b)),
            "round {r}"
        );
    }
    let once = met_counts(&t, 1..=11);
    assert_eq!(once.len(), 66, "every pair of 12 meets in rounds 1-11");
    assert!(once.values().all(|&k| k == 1));
    let twice = met_counts(&t, 1..=22);
    assert!(twice.values().all(|&k| k == 2), "{twice:?}");
    assert_eq!(
        verify::check(&t, None, SystemKind::Nsc2006).unwrap(),
        vec![]
    );
}

#[test]
fn an_odd_small_division_has_one_player_sitting_out_a_round() {
    // 13 players: groups of 7 and 6; a round robin of 13 takes 13 rounds, one player out each.
    let mut t = event(13, 2);
    let mut rng = Rng::new(2);
    run(&mut t, 13, &mut rng);
    for r in 1..=13 {
        assert_eq!(pairs(&t, r).len(), 6, "round {r}");
    }
    let once = met_counts(&t, 1..=13);
    assert_eq!(once.len(), 78, "every pair of 13 meets in rounds 1-13");
    assert!(once.values().all(|&k| k == 1));
    assert_eq!(
        verify::check(&t, None, SystemKind::Nsc2006).unwrap(),
        vec![]
    );
}

#[test]
fn the_two_group_round_robin_covers_every_pair_once_per_pass() {
    // For divisions of 2 to 25 players too small for the schedule or not, the construction
    // pairs every pair exactly once in 2g − 1 rounds (g the larger group), each player at
    // most once a round.
    for n in 2..=25u32 {
        let ids: Vec<u32> = (1..=n).collect();
        let two = nsc2006::TwoGroups::new(&ids, 100);
        let g = two.groups[0].len() as u32;
        let mut seen = BTreeSet::new();
        for r in 1..=2 * g - 1 {
            let mut busy = BTreeSet::new();
            for (a, b) in two.round(r) {
                assert!(busy.insert(a) && busy.insert(b), "n {n} round {r}");
                assert!(seen.insert((a.min(b), a.max(b))), "n {n}: {a} v {b} twice");
            }
        }
        assert_eq!(seen.len() as u32, n * (n - 1) / 2, "n {n}");
    }
}

#[test]
fn verifier_flags_a_two_group_round_that_repeats_or_mixes_the_groups() {
    let mut t = event(12, 3);
    let mut rng = Rng::new(3);
    run(&mut t, 7, &mut rng);
    // Round 7 (across): two games' players re-paired inside their groups.
    let mut by_rating: Vec<&optipair::tournament::Player> = t.players.iter().collect();
    by_rating.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.id.cmp(&b.id)));
    let second = |id: u32| {
        let k = by_rating.iter().position(|p| p.id == id).unwrap();
        matches!(k % 4, 1 | 2)
    };
    let mut inside = t.clone();
    let rd = inside.rounds.iter_mut().find(|r| r.number == 7).unwrap();
    let ends = |g: &optipair::tournament::Game| {
        if second(g.white) {
            (g.black, g.white)
        } else {
            (g.white, g.black)
        }
    };
    let ((a0, b0), (a1, b1)) = (ends(&rd.games[0]), ends(&rd.games[1]));
    assert!(!second(a0) && second(b0), "round 7 is played across");
    (rd.games[0].white, rd.games[0].black) = (a0, a1);
    (rd.games[1].white, rd.games[1].black) = (b0, b1);
    let v = verify::check_round(&inside, 7, SystemKind::Nsc2006).unwrap();
    assert!(v.iter().any(|x| x.rule == "NSC06 footnote"), "{v:?}");
    // Round 7 replaced by round 1's games: repeats inside the first pass.
    let mut again = t.clone();
    let first = again.rounds[0].games.clone();
    let rd = again.rounds.iter_mut().find(|r| r.number == 7).unwrap();
    rd.games = first;
    let v = verify::check_round(&again, 7, SystemKind::Nsc2006).unwrap();
    assert!(
        v.iter()
            .any(|x| x.rule == "NSC06 footnote" && x.message.contains("2nd time")),
        "{v:?}"
    );
}

#[test]
fn schedule_errors_name_the_setting() {
    let mut t = event(48, 1);
    t.settings.insert(
        "nsc2006.schedule".into(),
        serde_json::json!({"rounds": 3, "sessions": [{"first": 1, "last": 3, "scheme": "quads", "group": 6}],
            "flight_caps": {"two_open": [], "one_open": []}, "catch": []}),
    );
    let e = engine::pair_round(&t, 1, SystemKind::Nsc2006, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("nsc2006.schedule"), "{e}");
    assert!(e.to_string().contains("multiple of 4"), "{e}");
}

#[test]
fn a_directors_schedule_is_followed() {
    // 16 players: a 7-round round robin of two groups of 8, then a 3-round quad session
    // from groups of 16 with repeats allowed.
    let mut t = event(16, 21);
    t.rounds_planned = Some(10);
    t.settings.insert(
        "nsc2006.schedule".into(),
        serde_json::json!({"rounds": 10, "sessions": [
            {"first": 1, "last": 7, "scheme": "round-robin", "group": 8},
            {"first": 8, "last": 10, "scheme": "quads", "group": 16, "repeats": true}],
            "flight_caps": {"two_open": [], "one_open": []}, "catch": []}),
    );
    let mut rng = Rng::new(21);
    run(&mut t, 10, &mut rng);
    assert_eq!(t.round(10).unwrap().games.len(), 8);
}

/// Score model: `generate::scrabble_scores` (normal game scores, mean 250 + rating/10, sd 60,
/// +10 for going first). 200 players, all 28 rounds, the verifier clean on every round.
#[test]
fn whole_event_of_200_players() {
    let start = Instant::now();
    let mut t = event(200, 2006);
    let mut rng = Rng::new(2006);
    let notes = run(&mut t, 28, &mut rng);
    let all = verify::check(&t, None, SystemKind::Nsc2006).unwrap();
    assert!(all.is_empty(), "{all:?}");
    for n in &notes {
        eprintln!("{n}");
    }
    eprintln!(
        "200 players, 28 rounds: {:.1} s",
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn division_one_event_runs_clean() {
    let mut t = event(120, 77);
    t.settings
        .insert("nsc2006.winners".into(), serde_json::json!(2));
    let mut rng = Rng::new(77);
    run(&mut t, 28, &mut rng);
    assert_eq!(t.round(28).unwrap().games.len(), 60);
}

#[test]
fn quad_program_moves_fewest_players() {
    use optipair::solve::quads::solve;
    use optipair::spec::quads::QuadProblem;
    // Two quads; 0 and 1 may not meet again: one swap (two players moved) separates them.
    let p = QuadProblem {
        players: 8,
        pods: vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]],
        allowed: vec![vec![0, 1]; 8],
        forbidden: vec![(0, 1)],
        repeats: vec![(2, 4)],
        soft: false,
        unplayed: None,
    };
    let s = solve(&p).unwrap();
    assert_eq!(s.moved, 2);
    assert!(s.pods.iter().all(|q| q.len() == 4));
    assert!(!s.pods.iter().any(|q| q.contains(&0) && q.contains(&1)));
    // Among the one-swap solutions, the one that keeps 2 and 4 apart (no repeat) wins.
    assert_eq!(s.repeats, 0);
    // Five players who may not meet cannot fit two quads.
    let p = QuadProblem {
        forbidden: (0..5)
            .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
            .collect(),
        repeats: vec![],
        ..p
    };
    assert!(solve(&p).is_err());
    // Allowed to give way: the fewest barred pairs together is a 3 + 2 split, 3 + 1 = 4.
    let s = solve(&QuadProblem { soft: true, ..p }).unwrap();
    assert_eq!(s.barred, 4);
    assert!(s.pods.iter().all(|q| q.len() == 4));
}

/// Every three-round schedule of a pod of five by position: each round a sitter (distinct)
/// and two games, no pair twice.
fn five_pod_schedules() -> Vec<Vec<(usize, usize)>> {
    fn games(sitter: usize) -> Vec<[(usize, usize); 2]> {
        let rest: Vec<usize> = (0..5).filter(|&i| i != sitter).collect();
        let pair = |a: usize, b: usize| (rest[a].min(rest[b]), rest[a].max(rest[b]));
        vec![
            [pair(0, 1), pair(2, 3)],
            [pair(0, 2), pair(1, 3)],
            [pair(0, 3), pair(1, 2)],
        ]
    }
    let mut out = Vec::new();
    for s1 in 0..5 {
        for s2 in (0..5).filter(|&s| s != s1) {
            for s3 in (0..5).filter(|&s| s != s1 && s != s2) {
                for a in games(s1) {
                    for b in games(s2) {
                        for c in games(s3) {
                            let all: Vec<(usize, usize)> =
                                a.iter().chain(&b).chain(&c).copied().collect();
                            let distinct: BTreeSet<_> = all.iter().collect();
                            if distinct.len() == 6 {
                                out.push(all);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// A slot that plays only some of its pairs (the bottom pod of 5–7) is charged the barred games
/// it plays, not the barred pairs it holds: on random barred graphs over a quad and a pod of
/// five, the program's fewest barred games equal the fewest of every membership, counted by
/// brute force over every schedule of the pod's three rounds.
#[test]
fn nsc06_pod_of_five_counts_barred_games_not_pairs() {
    use optipair::solve::quads::solve;
    use optipair::spec::quads::{QuadProblem, Unplayed};
    use std::sync::Arc;
    let schedules = Arc::new(five_pod_schedules());
    let mut rng = Rng::new(5);
    let mut fewer = 0;
    for _ in 0..12 {
        let forbidden: Vec<(usize, usize)> = (0..9)
            .flat_map(|a| (a + 1..9).map(move |b| (a, b)))
            .filter(|_| rng.next_u64() % 100 < 35)
            .collect();
        let fb = forbidden.clone();
        let held = move |s: &[usize]| {
            fb.iter()
                .filter(|(a, b)| s.contains(a) && s.contains(b))
                .count()
        };
        let (fb, sc) = (forbidden.clone(), schedules.clone());
        let games = move |s: &[usize]| {
            sc.iter()
                .map(|g| {
                    g.iter()
                        .filter(|&&(a, b)| fb.contains(&(s[a], s[b])))
                        .count()
                })
                .min()
                .unwrap()
        };
        let p = QuadProblem {
            players: 9,
            pods: vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7, 8]],
            allowed: vec![vec![0, 1]; 9],
            forbidden,
            repeats: vec![],
            soft: true,
            unplayed: Some(Unplayed {
                slot: 1,
                size: 5,
                degree: 1,
                sitters: 3,
                triangle_free: false,
                games: Arc::new(games.clone()),
            }),
        };
        let split = |m: u32| -> (Vec<usize>, Vec<usize>) {
            (
                (0..9).filter(|i| m >> i & 1 == 1).collect(),
                (0..9).filter(|i| m >> i & 1 == 0).collect(),
            )
        };
        let quads = (0..1u32 << 9).filter(|m| m.count_ones() == 4);
        let best = quads
            .clone()
            .map(|m| {
                let (q, pod) = split(m);
                held(&q) + games(&pod)
            })
            .min()
            .unwrap();
        let by_pairs = quads
            .map(|m| {
                let (q, pod) = split(m);
                held(&q) + held(&pod)
            })
            .min()
            .unwrap();
        fewer += usize::from(best < by_pairs);
        let s = solve(&p).unwrap();
        assert_eq!(s.barred, best, "barred {:?}", p.forbidden);
        assert_eq!(held(&s.pods[0]) + games(&s.pods[1]), best);
    }
    // The graphs include some where counting pairs would not find the fewest games.
    assert!(fewer > 0);
}

#[test]
fn a_session_round_re_paired_alone_gives_the_same_pairing() {
    // Quads come from the standings at the session's start: pairing round 10 again from the
    // rounds before it gives the stored round.
    let mut t = event(40, 17);
    let mut rng = Rng::new(17);
    run(&mut t, 13, &mut rng);
    for r in [10, 13] {
        let p = engine::pair_round(&t, r, SystemKind::Nsc2006, &Options::default()).unwrap();
        let again: BTreeSet<(u32, u32)> = p
            .round
            .games
            .iter()
            .map(|g| (g.white.min(g.black), g.white.max(g.black)))
            .collect();
        assert_eq!(again, pairs(&t, r), "round {r}");
    }
}

/// Barred repeats played in each quad session's quad rounds (the first three; the final
/// session's quads below the top group), and the count the session's note states.
fn barred_by_session(t: &Tournament, notes: &[String]) -> Vec<(u32, usize, Option<usize>)> {
    let sched = Schedule::nsc2006();
    // A division too small for the schedule plays the footnote's round robin instead.
    let fallback = nsc2006::two_groups(t, &sched).map_or(0, |two| two.last);
    let mut out = Vec::new();
    for s in &sched.sessions {
        if s.first < 8 || s.first <= fallback || t.round(s.first).is_none() {
            continue;
        }
        let limit = if s.repeats { 2 } else { 1 };
        let before = nsc2006::meetings(t, s.first);
        let order = optipair::tournament::Standings::before(t, s.first).by_wins_spread();
        let top: BTreeSet<u32> = if s.first == 26 && order.len() >= 44 {
            order[..40].iter().copied().collect()
        } else if s.first == 26 {
            order.iter().copied().collect()
        } else {
            BTreeSet::new()
        };
        let played = (s.first..=s.first + 2)
            .flat_map(|r| pairs(t, r))
            .filter(|&(a, b)| {
                !top.contains(&a) && before.get(&(a, b)).copied().unwrap_or(0) >= limit
            })
            .count();
        let tag = format!("NSC06 session {}: no quad membership", s.session);
        let stated = notes.iter().find(|n| n.contains(&tag)).map(|n| {
            let after = n.split("scheme); ").nth(1).unwrap();
            after.split(' ').next().unwrap().parse().unwrap()
        });
        out.push((s.first, played, stated));
    }
    out
}

/// One whole event of `n` players: every round paired, the verifier clean over the event, and
/// in each quad session the barred repeats played are the ones the director's note states
/// (the verifier shows them the fewest possible).
fn whole_event_pairs(n: usize) {
    let mut t = event(n, 600 + n as u64);
    let mut rng = Rng::new(600 + n as u64);
    let notes = run(&mut t, 28, &mut rng);
    let all = verify::check(&t, None, SystemKind::Nsc2006).unwrap();
    assert!(all.is_empty(), "{n} players: {all:?}");
    for (first, played, stated) in barred_by_session(&t, &notes) {
        // The note counts the barred games of the quad rounds (a bottom pod of 5–7 included).
        assert_eq!(
            stated.unwrap_or(0),
            played,
            "{n} players, session from round {first}"
        );
    }
}

/// NSC06 "no repeat pairings until Round 15" cannot hold for 24 players (three round-robin
/// groups of 8 cannot fill a quad without two from one group): the pairing gives way with
/// the fewest barred repeats, proved, never a refusal.
#[test]
fn twenty_four_players_pair_every_round_with_the_fewest_barred_repeats() {
    let mut t = event(24, 24);
    let mut rng = Rng::new(24);
    let notes = run(&mut t, 28, &mut rng);
    assert_eq!(t.rounds.len(), 28);
    assert!(t.rounds.iter().all(|r| r.games.len() == 12));
    // Session 3: each quad holds two of one round-robin group at least, so six quads hold six
    // barred pairs at least, and six is reached (2 + 1 + 1 in every quad).
    let s3 = barred_by_session(&t, &notes)[0];
    assert_eq!((s3.1, s3.2), (6, Some(6)), "{notes:?}");
    let note = notes
        .iter()
        .find(|n| n.contains("NSC06 session 3: no quad"))
        .unwrap();
    assert!(
        note.contains("\"NSC06: no repeat pairings until Round 15\""),
        "{note}"
    );
    let all = verify::check(&t, None, SystemKind::Nsc2006).unwrap();
    assert!(all.is_empty(), "{all:?}");
}

#[test]
fn verifier_flags_barred_repeats_a_membership_could_avoid() {
    // 24 players, session 3: swap two players between quads so that one quad holds three of a
    // round-robin group (three barred pairs where one was the fewest).
    let mut t = event(24, 24);
    let mut rng = Rng::new(24);
    run(&mut t, 7, &mut rng);
    let p = engine::pair_round(&t, 8, SystemKind::Nsc2006, &Options::default()).unwrap();
    assert!(p.violations.is_empty(), "{:?}", p.violations);
    t = engine::store(&t, &p);
    let base = verify::check(&t, Some(8), SystemKind::Nsc2006).unwrap();
    assert!(base.is_empty(), "{base:?}");
    // Round 8 joined each quad's A v D and B v C: pair round 8 inside the round-robin groups
    // instead (all four games of a group of eight), every game a barred repeat.
    let groups = snake_groups(
        &nsc2006::by_rating(&t, &t.players.iter().map(|p| p.id).collect()),
        8,
    );
    let games = &mut t.rounds.iter_mut().find(|r| r.number == 8).unwrap().games;
    let template = games[0].clone();
    games.clear();
    for g in &groups {
        for k in 0..4 {
            games.push(Game {
                white: g[2 * k],
                black: g[2 * k + 1],
                ..template.clone()
            });
        }
    }
    let v = verify::check(&t, Some(8), SystemKind::Nsc2006).unwrap();
    assert!(
        v.iter()
            .any(|x| x.rule == "NSC06 repeats" && x.message.contains("fewer exists")),
        "{v:?}"
    );
}

/// A spread of division sizes, among them those the scheme cannot keep without repeats (16,
/// 21–24, 30) and those too small for it (4–13): see `whole_event_pairs`.
#[test]
fn division_sizes_pair_every_round() {
    for n in [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 21, 30, 44] {
        whole_event_pairs(n);
    }
}

/// The sizes of the full sweep: `NSC06_SIZES=FROM-TO` (inclusive) runs one chunk, else every
/// size from 4 to 200.
fn sweep_sizes() -> std::ops::RangeInclusive<usize> {
    let Ok(v) = std::env::var("NSC06_SIZES") else {
        return 4..=200;
    };
    let (a, b) = v
        .split_once('-')
        .unwrap_or_else(|| panic!("NSC06_SIZES={v}: expected FROM-TO, e.g. 4-60"));
    let num = |x: &str| -> usize {
        x.trim()
            .parse()
            .unwrap_or_else(|_| panic!("NSC06_SIZES={v}: '{x}' is not a number"))
    };
    num(a).max(4)..=num(b).min(200)
}

/// The full sweep, every division size from 4 to 200 (slow: run with `--ignored`; a chunk with
/// `NSC06_SIZES=FROM-TO`). Prints each size's wall time.
#[test]
#[ignore]
fn every_division_size_from_4_to_200_pairs_every_round() {
    for n in sweep_sizes() {
        let start = Instant::now();
        whole_event_pairs(n);
        eprintln!("{n} players: {:.1} s", start.elapsed().as_secs_f64());
    }
}

/// The pairing of `open` across groups (`quad` of each player) with the most pairs of `met`.
fn worst_cross(
    open: &[u32],
    quad: &dyn Fn(u32) -> usize,
    met: &BTreeSet<(u32, u32)>,
) -> (usize, Vec<(u32, u32)>) {
    let Some((&a, rest)) = open.split_first() else {
        return (0, Vec::new());
    };
    let mut best: Option<(usize, Vec<(u32, u32)>)> = None;
    for &b in rest.iter().filter(|&&b| quad(b) != quad(a)) {
        let left: Vec<u32> = rest.iter().copied().filter(|&x| x != b).collect();
        let (k, mut games) = worst_cross(&left, quad, met);
        if left.len() == 2 * games.len() {
            let k = k + usize::from(met.contains(&(a.min(b), a.max(b))));
            games.push((a, b));
            if best.as_ref().is_none_or(|x| k > x.0) {
                best = Some((k, games));
            }
        }
    }
    best.unwrap_or((0, Vec::new()))
}

/// NSC06 session 3 fourth round with an odd number of quads (44 players: 11 quads, the last
/// three meet together): their games may hold only the barred repeats no pairing across the
/// three avoids ("no repeat pairings until Round 15"), and a hand-made pairing of the three
/// with more is rejected.
#[test]
fn verifier_flags_a_barred_repeat_where_three_quads_meet() {
    let mut t = event(44, 44);
    let mut rng = Rng::new(44);
    run(&mut t, 11, &mut rng);
    let order = optipair::tournament::Standings::before(&t, 8).by_wins_spread();
    let quads = quads_of(&t, 8..=10, &order);
    assert_eq!(quads.len(), 11);
    let three: Vec<u32> = quads[8..].concat();
    let quad = |id: u32| quads[8..].iter().position(|q| q.contains(&id)).unwrap();
    let met: BTreeSet<(u32, u32)> = (1..=7).flat_map(|r| pairs(&t, r)).collect();
    let played: Vec<(u32, u32)> = pairs(&t, 11)
        .into_iter()
        .filter(|(a, _)| three.contains(a))
        .collect();
    assert_eq!(played.len(), 6, "{played:?}");
    let barred = played.iter().filter(|p| met.contains(p)).count();
    let (worst, games) = worst_cross(&three, &quad, &met);
    assert!(worst > barred, "{worst} {barred}");
    let mut bad = t.clone();
    let rd = bad.round_mut(11);
    rd.games.retain(|g| !three.contains(&g.white));
    for (a, b) in games {
        rd.games.push(Game::scored(a, b, 400, 300));
    }
    let v = verify::check_round(&bad, 11, SystemKind::Nsc2006).unwrap();
    assert!(
        v.iter().any(|x| x.rule == "NSC06 session 3 fourth round"
            && x.message.contains(&format!(
                "with {worst} barred repeat(s), where {barred} was possible"
            ))),
        "{v:?}"
    );
}

#[test]
fn a_forbidden_pair_the_quads_would_pair_is_kept_apart_and_the_verifier_rejects_it() {
    // Round 8 opens session 3's quads; take a pair the quads put together and forbid it
    // (TRF-2026 260) for the rest of the event.
    let mut t = event(40, 11);
    let mut rng = Rng::new(11);
    run(&mut t, 7, &mut rng);
    let p = engine::pair_round(&t, 8, SystemKind::Nsc2006, &Options::default()).unwrap();
    let g = &p.round.games[0];
    let (a, b) = (g.white.min(g.black), g.white.max(g.black));
    let mut barred = t.clone();
    barred.settings.insert(
        optipair::tournament::FORBIDDEN_PAIRS.into(),
        serde_json::json!([{"from": 1, "to": 28, "players": [a, b]}]),
    );
    // The schedule's pairing, recorded, is rejected with the clause cited.
    let stored = engine::store(&barred, &p);
    let v = verify::check_round(&stored, 8, SystemKind::Nsc2006).unwrap();
    assert!(
        v.iter()
            .any(|x| x.rule == "TRF-2026 260" && x.players == vec![g.white, g.black]),
        "{v:?}"
    );
    // Paired with the rule, the pair never meets in the session and the rounds verify.
    let mut t = barred;
    run(&mut t, 11, &mut rng);
    for r in 8..=11 {
        assert!(!pairs(&t, r).contains(&(a, b)), "round {r}: {a} v {b}");
    }
}
