//! Accelerations on the standard Swiss: PROG (progressive), US Chess (batches, thirds, added
//! score) and FIDE Baku (C.04.5.1). Numbers from the documents, pairings from their clauses on
//! hand-built fields, whole events paired by the engine and checked by the verifier, and
//! hand-made wrong rounds caught with the right citation.

use crate::common::{add_pab as add, costs_within_bounds, g, pair, pairs};
use optipair::engine::{pair_round, Paired};
use optipair::formats::trf;
use optipair::generate::{self, Rng};
use optipair::solve::Options;
use optipair::systems::{self, baku, prog, uscf};
use optipair::tournament::{GameResult, Player, Tournament};
use optipair::verify::{check_round, Violation};
use optipair::Error;
use optipair::SystemKind;
use std::collections::BTreeSet;

/// `n` players, pairing number = rating order, ratings from `top` down in steps of `step`.
fn field(n: u32, top: u32, step: u32) -> Tournament {
    let players = (1..=n)
        .map(|i| Player::new(i, format!("P{i}"), top - step * i))
        .collect();
    Tournament::new("accel", players)
}

fn partner(p: &Paired, id: u32) -> Option<u32> {
    p.round.games.iter().find_map(|g| {
        if g.white == id {
            Some(g.black)
        } else if g.black == id {
            Some(g.white)
        } else {
            None
        }
    })
}

fn rules(v: &[Violation]) -> Vec<String> {
    v.iter().map(|x| x.rule.clone()).collect()
}

fn message(e: Error) -> String {
    e.to_string()
}

/// Results: the higher-rated wins, except a draw or an upset by a fixed pseudo-random rule.
fn play(t: &mut Tournament, r: u32, seed: &mut u64) {
    let rating = |t: &Tournament, id: u32| t.player(id).map(|p| p.rating).unwrap_or(0);
    let mut games = t.round(r).expect("round").games.clone();
    for game in &mut games {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let white_higher = rating(t, game.white) >= rating(t, game.black);
        game.result = match (*seed % 10, white_higher) {
            (0..=2, _) => GameResult::Draw,
            (3, true) | (4..=9, false) => GameResult::BlackWins,
            _ => GameResult::WhiteWins,
        };
    }
    t.round_mut(r).games = games;
}

/// Pairs and plays every round of `t` under `system`; each round must verify clean.
fn whole_event(mut t: Tournament, system: &str, seed: u64) -> Tournament {
    let mut seed = seed | 1;
    for r in 1..=t.rounds_planned.expect("rounds planned") {
        let p = pair(&t, r, system);
        *t.round_mut(r) = p.round.clone();
        play(&mut t, r, &mut seed);
    }
    t
}

// ---------------------------------------------------------------- USCF

/// "so with 121, A will have 62 and B 59".
#[test]
fn uscf_top_group_of_121_is_62() {
    assert_eq!(uscf::top_group(121), 62);
    let t = field(121, 2600, 10);
    let g = uscf::groups(&t, uscf::Method::Batches).unwrap();
    assert_eq!(g.sizes, vec![62, 59]);
    assert_eq!(g.members(0).len(), 62);
    assert_eq!(g.members(1)[0], 63);
    // Groups follow ratings, not pairing numbers.
    let mut t = field(8, 2400, 50);
    t.players[0].rating = 1000;
    let g = uscf::groups(&t, uscf::Method::Batches).unwrap();
    assert_eq!(g.members(0), vec![2, 3, 4, 5]);
    // Thirds: A and B even.
    assert_eq!(uscf::thirds(121), (40, 40, 41));
    assert_eq!(uscf::thirds(18), (6, 6, 6));
    assert_eq!(uscf::thirds(20), (6, 6, 8));
}

/// Round 1: "Pair groups A and B separately by standard methods."
#[test]
fn uscf_round_one_pairs_each_group_on_its_own() {
    let t = field(16, 2400, 50);
    let p = pair(&t, 1, "uscf-batches");
    let want: BTreeSet<(u32, u32)> = [
        (1, 5),
        (2, 6),
        (3, 7),
        (4, 8),
        (9, 13),
        (10, 14),
        (11, 15),
        (12, 16),
    ]
    .into_iter()
    .collect();
    assert_eq!(pairs(&p), want);
    // Thirds: 18 players, groups of 6.
    let t = field(18, 2400, 40);
    let p = pair(&t, 1, "uscf-thirds");
    let want: BTreeSet<(u32, u32)> = [
        (1, 4),
        (2, 5),
        (3, 6),
        (7, 10),
        (8, 11),
        (9, 12),
        (13, 16),
        (14, 17),
        (15, 18),
    ]
    .into_iter()
    .collect();
    assert_eq!(pairs(&p), want);
}

/// 16 players, A = 1-8, B = 9-16. Round 1: A winners 1, 2, 3 (odd), 4 draws 8; B winners 9,
/// 10 and 16 (an upset), 11 draws 15.
fn batches_field() -> Tournament {
    let mut t = field(16, 2400, 50);
    t.rounds_planned = Some(6);
    add(
        &mut t,
        1,
        vec![
            g(1, 5, "1-0"),
            g(6, 2, "0-1"),
            g(3, 7, "1-0"),
            g(8, 4, "1/2"),
            g(9, 13, "1-0"),
            g(14, 10, "0-1"),
            g(11, 15, "1/2"),
            g(16, 12, "1-0"),
        ],
        vec![],
    );
    t
}

/// USCF round 2: (a) A winners 1, 2, 3 — odd, so the lowest-rated, 3, floats down; (b) the
/// five A non-winners (4-8) outnumber the winners to serve (3, 9, 10, 16): the four
/// highest-rated (4-7) meet them, in rating order; (c) the rest by score: ½'s 8, 11, 15, 0's
/// 12, 13, 14.
#[test]
fn uscf_round_two_batches() {
    let t = batches_field();
    let p = pair(&t, 2, "uscf-batches");
    let got = pairs(&p);
    assert!(got.contains(&(1, 2)), "{got:?}");
    assert_eq!(partner(&p, 3), Some(4), "{got:?}");
    let served: BTreeSet<u32> = [9, 10, 16].iter().filter_map(|&w| partner(&p, w)).collect();
    assert_eq!(served, [5, 6, 7].into_iter().collect(), "{got:?}");
    // Rating order: 9 v 5, 10 v 6, 16 v 7 (colours allow it: see the round 1 colours).
    assert_eq!(partner(&p, 9), Some(5), "{got:?}");
    assert_eq!(partner(&p, 16), Some(7), "{got:?}");
    // (c): draws with draws, losses with losses.
    let half: BTreeSet<u32> = [8, 11, 15].into_iter().collect();
    let zero: BTreeSet<u32> = [12, 13, 14].into_iter().collect();
    let crossing = got
        .iter()
        .filter(|&&(a, b)| {
            (half.contains(&a) && zero.contains(&b)) || (zero.contains(&a) && half.contains(&b))
        })
        .count();
    assert_eq!(crossing, 1, "three ½'s: one floats down, {got:?}");
}

/// Fewer A non-winners than winners to serve: one B non-winner (at most) is upfloated.
#[test]
fn uscf_round_two_upfloats_one_b_non_winner() {
    // 12 players, A = 1-6, B = 7-12. A winners 1, 2, 3 (odd); A non-winners 4, 5, 6;
    // B winners 7, 11, 12: four winners to serve, three A non-winners.
    let mut t = field(12, 2400, 50);
    t.rounds_planned = Some(5);
    add(
        &mut t,
        1,
        vec![
            g(1, 4, "1-0"),
            g(5, 2, "0-1"),
            g(3, 6, "1-0"),
            g(10, 7, "0-1"),
            g(8, 11, "0-1"),
            g(12, 9, "1-0"),
        ],
        vec![],
    );
    let p = pair(&t, 2, "uscf-batches");
    let got = pairs(&p);
    let winners = [3, 7, 11, 12];
    let b_non_winners = [8, 9, 10];
    let upfloats = got
        .iter()
        .filter(|&&(a, b)| {
            (winners.contains(&a) && b_non_winners.contains(&b))
                || (winners.contains(&b) && b_non_winners.contains(&a))
        })
        .count();
    assert_eq!(upfloats, 1, "{got:?}");
    for nw in [4, 5, 6] {
        let o = partner(&p, nw).unwrap();
        assert!(winners.contains(&o), "{nw} v {o}: {got:?}");
    }
    // Two B non-winners (8, 9) upfloated while A non-winner 6 is left to batch (c).
    let mut bad = t.clone();
    add(
        &mut bad,
        2,
        vec![
            g(2, 1, "*"),
            g(3, 4, "*"),
            g(5, 7, "*"),
            g(8, 11, "*"),
            g(9, 12, "*"),
            g(6, 10, "*"),
        ],
        vec![],
    );
    let v = check_round(&bad, 2, SystemKind::UscfBatches).unwrap();
    assert!(
        v.iter()
            .any(|x| x.rule == "USCF round 2 (b)" && x.message.contains("at most one")),
        "{v:?}"
    );
}

/// Thirds: round 2 pairs A winners; A and B non-winners in rating order against B and C
/// winners.
#[test]
fn uscf_thirds_round_two() {
    let mut t = field(18, 2400, 40);
    t.rounds_planned = Some(5);
    // A 1-6, B 7-12, C 13-18. Winners: A 1, 2 (3 draws); B 7, 8, 12; C 13, 17, 18.
    add(
        &mut t,
        1,
        vec![
            g(1, 4, "1-0"),
            g(5, 2, "0-1"),
            g(3, 6, "1/2"),
            g(7, 10, "1-0"),
            g(11, 8, "0-1"),
            g(9, 12, "0-1"),
            g(13, 16, "1-0"),
            g(17, 14, "1-0"),
            g(15, 18, "0-1"),
        ],
        vec![],
    );
    let p = pair(&t, 2, "uscf-thirds");
    let got = pairs(&p);
    // A winners 1 v 2; the six B and C winners meet the six highest-rated A and B
    // non-winners (3, 4, 5, 6, 9, 10), so 11 is left to the rest and no C non-winner floats up.
    assert!(got.contains(&(1, 2)), "{got:?}");
    let used = [3, 4, 5, 6, 9, 10];
    for w in [7, 8, 12, 13, 17, 18] {
        let o = partner(&p, w).unwrap();
        assert!(used.contains(&o), "{w} v {o}: {got:?}");
    }
}

#[test]
fn uscf_whole_events_verify_clean() {
    for (n, system) in [
        (24, "uscf-batches"),
        (25, "uscf-batches"),
        (21, "uscf-thirds"),
        (24, "uscf-thirds"),
        (23, "uscf-added-score"),
    ] {
        let mut t = field(n, 2500, 35);
        t.rounds_planned = Some(5);
        whole_event(t, system, 0x9e3779b97f4a7c15 ^ u64::from(n));
    }
}

#[test]
fn uscf_added_score_round_one_is_separate_groups() {
    let t = field(16, 2400, 50);
    let p = pair(&t, 1, "uscf-added-score");
    assert!(pairs(&p).contains(&(1, 5)));
    assert!(pairs(&p).contains(&(9, 13)));
}

#[test]
fn uscf_verifier_flags_round_one_across_groups() {
    let mut t = field(8, 2400, 50);
    add(
        &mut t,
        1,
        vec![g(1, 5, "*"), g(2, 6, "*"), g(3, 7, "*"), g(4, 8, "*")],
        vec![],
    );
    let v = check_round(&t, 1, SystemKind::UscfBatches).unwrap();
    assert!(rules(&v).contains(&"USCF round 1".to_string()), "{v:?}");
}

#[test]
fn uscf_verifier_flags_wrong_batches() {
    let t = batches_field();
    // (a): 1, 2 and 3 all leave batch (a).
    let mut bad = t.clone();
    add(
        &mut bad,
        2,
        vec![
            g(4, 1, "*"),
            g(2, 5, "*"),
            g(3, 6, "*"),
            g(9, 7, "*"),
            g(10, 8, "*"),
            g(11, 16, "*"),
            g(12, 13, "*"),
            g(14, 15, "*"),
        ],
        vec![],
    );
    let v = check_round(&bad, 2, SystemKind::UscfBatches).unwrap();
    assert!(rules(&v).contains(&"USCF round 2 (a)".to_string()), "{v:?}");
    // (b): B winner 16 plays B non-winner 12 although A non-winner 8 is left to (c).
    let mut bad = t.clone();
    add(
        &mut bad,
        2,
        vec![
            g(2, 1, "*"),
            g(4, 3, "*"),
            g(5, 9, "*"),
            g(6, 10, "*"),
            g(7, 11, "*"),
            g(16, 12, "*"),
            g(8, 15, "*"),
            g(13, 14, "*"),
        ],
        vec![],
    );
    let v = check_round(&bad, 2, SystemKind::UscfBatches).unwrap();
    assert!(
        v.iter()
            .any(|x| x.rule == "USCF round 2 (b)" && x.players.contains(&16)),
        "{v:?}"
    );
    // (c): ½ 8 v 0 12 and ½ 11 v 0 13 cross the same two groups; 8 v 11 and 12 v 13 were
    // possible.
    let mut bad = t.clone();
    add(
        &mut bad,
        2,
        vec![
            g(2, 1, "*"),
            g(4, 3, "*"),
            g(5, 9, "*"),
            g(6, 10, "*"),
            g(7, 16, "*"),
            g(8, 12, "*"),
            g(11, 13, "*"),
            g(15, 14, "*"),
        ],
        vec![],
    );
    let v = check_round(&bad, 2, SystemKind::UscfBatches).unwrap();
    assert!(rules(&v).contains(&"USCF round 2 (c)".to_string()), "{v:?}");
    // (b) rating order is 29C's plan, 5 v 9 and 7 v 16. Round 1 colours: 9 and 16 had white
    // (due black), 5 and 7 black (due white): 9 v 7 and 16 v 5 transpose 100 points (5/7)
    // with no colour to gain, past the 80-point rule.
    let mut bad = t.clone();
    add(
        &mut bad,
        2,
        vec![
            g(2, 1, "*"),
            g(4, 3, "*"),
            g(7, 9, "*"),
            g(10, 6, "*"),
            g(5, 16, "*"),
            g(15, 11, "*"),
            g(12, 8, "*"),
            g(13, 14, "*"),
        ],
        vec![],
    );
    let v = check_round(&bad, 2, SystemKind::UscfBatches).unwrap();
    assert!(
        v.iter().any(|x| x.rule == "US Chess 29E5a"
            && [5, 7, 9, 16].iter().all(|p| x.players.contains(p))
            && x.message.contains("100 points > 80")),
        "{v:?}"
    );
}

/// USCF round 2 (a): the downfloater is the lowest-rated A winner unless colours say
/// otherwise. Here 2 and 3 both had black: 3 floats, and a round floating 2 instead (with
/// the same colours available) is flagged.
#[test]
fn uscf_downfloater_is_the_lowest_rated() {
    let mut t = batches_field();
    add(
        &mut t,
        1,
        vec![
            g(1, 5, "1-0"),
            g(6, 2, "0-1"),
            g(7, 3, "0-1"),
            g(8, 4, "1/2"),
            g(9, 13, "1-0"),
            g(14, 10, "0-1"),
            g(11, 15, "1/2"),
            g(16, 12, "1-0"),
        ],
        vec![],
    );
    let p = pair(&t, 2, "uscf-batches");
    assert!(pairs(&p).contains(&(1, 2)), "{:?}", pairs(&p));
    let mut bad = t.clone();
    add(
        &mut bad,
        2,
        vec![
            g(3, 1, "*"),
            g(2, 6, "*"),
            g(5, 9, "*"),
            g(4, 10, "*"),
            g(7, 16, "*"),
            g(15, 11, "*"),
            g(12, 8, "*"),
            g(13, 14, "*"),
        ],
        vec![],
    );
    let v = check_round(&bad, 2, SystemKind::UscfBatches).unwrap();
    assert!(
        v.iter()
            .any(|x| x.rule == "USCF round 2 (a)" && x.message.contains("downfloater")),
        "{v:?}"
    );
}

// ---------------------------------------------------------------- PROG

/// The restated table (seeds README), rows for 9- and 13-round events.
#[test]
fn prog_table_rows() {
    // (group, RS) -> FS, N = 13, pairing round 5 (no N/2, no cancellation for RS < 6.5).
    for (grp, rs, fs) in [
        ('A', 0.0, 2.0),
        ('B', 0.0, 1.0),
        ('C', 0.0, 0.0),
        ('B', 1.0, 1.0),
        ('C', 1.0, 0.0),
        ('B', 1.5, 1.5),
        ('C', 1.5, 0.5),
        ('B', 3.0, 2.0),
        ('C', 3.0, 1.0),
        ('C', 4.0, 1.0),
        ('C', 4.5, 1.5),
        ('C', 6.0, 1.5),
        ('C', 6.5, 2.0), // N/2
    ] {
        assert_eq!(prog::fictitious(grp, rs, 13, 8), fs, "{grp} RS {rs}");
    }
    // "a group C player in a 9-round event with RS 4.5 has FS 2 (GS 6.5)"
    assert_eq!(prog::fictitious('C', 4.5, 9, 7), 2.0);
    assert_eq!(prog::fictitious('C', 4.0, 9, 6), 1.0);
    assert_eq!(prog::fictitious('B', 4.5, 9, 6), 2.0);
    // "in a 13-round event the same player has FS 1.5 (GS 6)"
    assert_eq!(prog::fictitious('C', 4.5, 13, 7), 1.5);
    // Cancelled when pairing the last two rounds.
    for grp in ['A', 'B', 'C'] {
        assert_eq!(prog::fictitious(grp, 5.0, 9, 8), 0.0);
        assert_eq!(prog::fictitious(grp, 0.0, 9, 9), 0.0);
        assert_eq!(prog::fictitious(grp, 0.0, 13, 12), 0.0);
        assert!(prog::fictitious(grp, 6.5, 13, 11) == 2.0);
    }
}

/// `n` players, ratings from 2360 down in steps of 40, the bounds set so that each group is a
/// third (12 players: A 1-4, B 5-8, C 9-12).
fn prog_field(n: u32, rounds: u32) -> Tournament {
    let mut t = field(n, 2400, 40);
    t.rounds_planned = Some(rounds);
    let third = n / 3;
    let a_min = 2400 - 40 * third;
    let c_below = 2400 - 40 * (2 * third);
    t.settings
        .insert("prog.a_min".into(), serde_json::json!(a_min));
    t.settings
        .insert("prog.c_below".into(), serde_json::json!(c_below));
    t
}

#[test]
fn prog_round_one_pairs_inside_groups() {
    let t = prog_field(12, 7);
    let g = prog::groups(&t).unwrap();
    assert_eq!(g[&4], 'A');
    assert_eq!(g[&5], 'B');
    assert_eq!(g[&9], 'C');
    let p = pair(&t, 1, "prog");
    let want: BTreeSet<(u32, u32)> = [(1, 3), (2, 4), (5, 7), (6, 8), (9, 11), (10, 12)]
        .into_iter()
        .collect();
    assert_eq!(pairs(&p), want);
}

#[test]
fn prog_group_bounds_errors_name_the_group() {
    // Defaults (A ≥ 2000, C < 1600): 12 players from 2360 down by 40 → A has 9 of 12.
    let mut t = field(12, 2400, 40);
    t.rounds_planned = Some(7);
    let e = message(
        systems::model(SystemKind::Prog, &optipair::solve::PROGRAMS)
            .spec(&t, 1)
            .unwrap_err(),
    );
    assert!(e.contains("group A"), "{e}");
    assert!(e.contains("too many"), "{e}");
    assert!(e.contains("prog.a_min"), "{e}");
    // A bad setting names itself and the allowed range.
    let mut t = prog_field(12, 7);
    t.settings
        .insert("prog.c_below".into(), serde_json::json!(9000));
    let e = message(prog::bounds(&t).unwrap_err());
    assert!(
        e.contains("prog.c_below") && e.contains("between 1 and 4000"),
        "{e}"
    );
    t.settings
        .insert("prog.c_below".into(), serde_json::json!(2500));
    let e = message(prog::bounds(&t).unwrap_err());
    assert!(
        e.contains("prog.a_min") && e.contains("above prog.c_below"),
        "{e}"
    );
    // Without the number of rounds the N/2 rule cannot apply.
    let mut t = prog_field(12, 7);
    t.rounds_planned = None;
    let e = message(
        systems::model(SystemKind::Prog, &optipair::solve::PROGRAMS)
            .spec(&t, 1)
            .unwrap_err(),
    );
    assert!(e.contains("rounds_planned"), "{e}");
}

#[test]
fn prog_whole_events_verify_clean_and_fs_goes_in_the_last_two_rounds() {
    for (n, rounds) in [(24u32, 7u32), (27, 9)] {
        let t = whole_event(prog_field(n, rounds), "prog", 0x51ed2701 ^ u64::from(n));
        // Pairing round N-1 again: the pairing scores are the real scores.
        let base = t.before_round(rounds - 1);
        let spec = systems::model(SystemKind::Prog, &optipair::solve::PROGRAMS)
            .spec(&base, rounds - 1)
            .unwrap();
        let st = optipair::tournament::Standings::before(&base, rounds - 1);
        for (id, s) in spec.players.iter().zip(&spec.scores) {
            assert_eq!(*s, st.get(*id).unwrap().score, "player {id}");
        }
        // Round N-2 still carries fictitious points.
        let base = t.before_round(rounds - 2);
        let spec = systems::model(SystemKind::Prog, &optipair::solve::PROGRAMS)
            .spec(&base, rounds - 2)
            .unwrap();
        let st = optipair::tournament::Standings::before(&base, rounds - 2);
        let fs = prog::virtual_points(&base, rounds - 2).unwrap();
        for (id, s) in spec.players.iter().zip(&spec.scores) {
            assert_eq!(*s, st.get(*id).unwrap().score + fs[id], "player {id}");
        }
        assert!(fs.values().any(|&x| x > 0.0));
    }
}

/// The TRF export writes FS as XXA lines; the file read back and paired as a plain Swiss
/// (another engine honouring XXA) gives the PROG pairing.
#[test]
fn prog_trf_export_replays() {
    let mut t = prog_field(18, 7);
    t.system = Some("prog".into());
    let mut seed = 77u64;
    for r in 1..=3 {
        let p = pair(&t, r, "prog");
        *t.round_mut(r) = p.round.clone();
        play(&mut t, r, &mut seed);
    }
    // As `pair` stores the event: its derived points as virtual points (XXA in TRF).
    let text = trf::write(&systems::with_virtual_points(&t).unwrap()).unwrap();
    assert!(text.contains("\nXXA "), "{text}");
    let back = trf::parse(&text).unwrap();
    for r in 1..=4 {
        let fs = prog::virtual_points(&t, r).unwrap();
        for p in &back.players {
            let got = p.virtual_points.get(r as usize - 1).copied().unwrap_or(0.0);
            assert_eq!(got, fs[&p.id], "round {r}, player {}", p.id);
        }
    }
    let ours = pair(&t, 4, "prog");
    let theirs = pair_round(&back, 4, SystemKind::Swiss, &Options::default()).unwrap();
    assert_eq!(pairs(&ours), pairs(&theirs));
    // The PROG verifier accepts the stored points and flags wrong ones.
    let mut wrong = back.clone();
    wrong.system = Some("prog".into());
    wrong.settings = t.settings.clone();
    *wrong.round_mut(4) = ours.round.clone();
    assert!(check_round(&wrong, 4, SystemKind::Prog).unwrap().is_empty());
    let c = wrong.players.iter().position(|p| p.id == 18).unwrap();
    wrong.players[c].virtual_points = vec![0.0, 0.0, 0.0, 2.0];
    let v = check_round(&wrong, 4, SystemKind::Prog).unwrap();
    assert!(
        rules(&v).contains(&"PROG fictitious score".to_string()),
        "{v:?}"
    );
}

#[test]
fn prog_verifier_flags_pairing_on_the_real_score() {
    // Round 1 paired as a plain Swiss (top half v bottom half) ignores the groups' FS.
    let mut t = prog_field(12, 7);
    add(
        &mut t,
        1,
        vec![
            g(1, 7, "*"),
            g(8, 2, "*"),
            g(3, 9, "*"),
            g(10, 4, "*"),
            g(5, 11, "*"),
            g(12, 6, "*"),
        ],
        vec![],
    );
    let v = check_round(&t, 1, SystemKind::Prog).unwrap();
    assert!(
        rules(&v).contains(&"PROG global score".to_string()),
        "{v:?}"
    );
    // Round N-1 (FS cancelled) paired on the old global score.
    let mut t = field(8, 2400, 100);
    t.rounds_planned = Some(3);
    t.settings
        .insert("prog.a_min".into(), serde_json::json!(2200));
    t.settings
        .insert("prog.c_below".into(), serde_json::json!(1900));
    add(
        &mut t,
        1,
        vec![
            g(1, 2, "1-0"),
            g(3, 4, "1-0"),
            g(5, 6, "1-0"),
            g(7, 8, "1-0"),
        ],
        vec![],
    );
    add(
        &mut t,
        2,
        vec![g(1, 4, "*"), g(3, 2, "*"), g(5, 7, "*"), g(6, 8, "*")],
        vec![],
    );
    let v = check_round(&t, 2, SystemKind::Prog).unwrap();
    assert!(
        rules(&v).contains(&"PROG last two rounds".to_string()),
        "{v:?}"
    );
}

// ---------------------------------------------------------------- Baku

/// "if there are 161 players in the tournament, ... is 82"; nine rounds: five accelerated,
/// one virtual point in the first three, half a point in rounds 4 and 5.
#[test]
fn baku_numbers() {
    assert_eq!(baku::ga_size(161), 82);
    assert_eq!(baku::ga_size(160), 80);
    assert_eq!(baku::accelerated_rounds(9), (5, 3));
    let mut t = field(161, 2700, 5);
    t.rounds_planned = Some(9);
    assert_eq!(baku::last_ga(&t), Some(82));
    for (r, ga, gb) in [
        (1, 1.0, 0.0),
        (3, 1.0, 0.0),
        (4, 0.5, 0.0),
        (5, 0.5, 0.0),
        (6, 0.0, 0.0),
    ] {
        let vp = baku::virtual_points(&t, r).unwrap();
        assert_eq!(vp[&82], ga, "round {r}");
        assert_eq!(vp[&1], ga, "round {r}");
        assert_eq!(vp[&83], gb, "round {r}");
    }
    // A late entry numbered inside GA joins it; the last GA player stays the same.
    t.players.push(Player {
        joined: Some(2),
        ..Player::new(200, "late", 2800)
    });
    assert_eq!(baku::last_ga(&t), Some(82));
}

#[test]
fn baku_round_one_and_whole_events() {
    let mut t = field(20, 2400, 40);
    t.rounds_planned = Some(7);
    // GA = 1-10 (one virtual point), GB = 11-20: round 1 pairs each group's halves.
    let p = pair(&t, 1, "baku");
    assert!(pairs(&p).contains(&(1, 6)), "{:?}", pairs(&p));
    assert!(pairs(&p).contains(&(11, 16)), "{:?}", pairs(&p));
    let mut t = whole_event(t, "baku", 0xbacc);
    // Seven rounds: four accelerated, one point in rounds 1-2, half a point in 3-4; exported
    // as XXA.
    t.system = Some("baku".into());
    let back =
        trf::parse(&trf::write(&systems::with_virtual_points(&t).unwrap()).unwrap()).unwrap();
    assert_eq!(
        back.player(1).unwrap().virtual_points,
        vec![1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0]
    );
    assert!(back.player(11).unwrap().virtual_points.is_empty());
    let mut t = field(23, 2400, 30);
    t.rounds_planned = Some(9);
    whole_event(t, "baku", 0x5eed);
}

#[test]
fn baku_verifier_flags_unaccelerated_round() {
    let mut t = field(20, 2400, 40);
    t.rounds_planned = Some(7);
    let games = (1..=10)
        .map(|i| {
            if i % 2 == 1 {
                g(i, i + 10, "*")
            } else {
                g(i + 10, i, "*")
            }
        })
        .collect();
    add(&mut t, 1, games, vec![]);
    let v = check_round(&t, 1, SystemKind::Baku).unwrap();
    assert!(
        rules(&v).contains(&"FIDE C.04.5.1 pairing score".to_string()),
        "{v:?}"
    );
    // The groups are named by their points as the director reads them: GA's one virtual
    // point against GB's none.
    let floats = v
        .iter()
        .find(|x| x.rule == "FIDE C.04.5.1 pairing score")
        .unwrap();
    assert!(
        floats.message.contains("pairing-score groups 1 and 0;"),
        "{}",
        floats.message
    );
    // Labels and stored virtual points must be the method's: 11 is in GB, and GA has one
    // point in round 1.
    let mut t = field(20, 2400, 40);
    t.rounds_planned = Some(7);
    let p = pair(&t, 1, "baku");
    *t.round_mut(1) = p.round.clone();
    assert!(check_round(&t, 1, SystemKind::Baku).unwrap().is_empty());
    t.players[10].group = Some("GA".into());
    t.players[0].virtual_points = vec![0.5];
    let v = check_round(&t, 1, SystemKind::Baku).unwrap();
    let r = rules(&v);
    assert!(r.contains(&"FIDE C.04.5.1 groups".to_string()), "{v:?}");
    assert!(
        r.contains(&"FIDE C.04.5.1 virtual points".to_string()),
        "{v:?}"
    );
    let e = {
        let mut t = field(20, 2400, 40);
        t.rounds_planned = None;
        message(
            systems::model(SystemKind::Baku, &optipair::solve::PROGRAMS)
                .spec(&t, 1)
                .unwrap_err(),
        )
    };
    assert!(e.contains("rounds_planned"), "{e}");
}

/// Ratings from the generator's model, results from the Elo expectation: PROG with the
/// director's bounds at the field's quartiles.
#[test]
fn generated_fields_verify_clean() {
    let mut rng = Rng::new(2026);
    let players = generate::players(40, &mut rng);
    let mut t = Tournament::new("generated", players);
    t.rounds_planned = Some(7);
    let a_min = t.players[12].rating + 1; // 12 in A
    let c_below = t.players[27].rating; // players 29-40 in C
    t.settings
        .insert("prog.a_min".into(), serde_json::json!(a_min));
    t.settings
        .insert("prog.c_below".into(), serde_json::json!(c_below));
    for system in [
        "prog",
        "baku",
        "uscf-batches",
        "uscf-thirds",
        "uscf-added-score",
    ] {
        let mut s = t.clone();
        let mut rng = Rng::new(7);
        for r in 1..=4 {
            let p = pair(&s, r, system);
            *s.round_mut(r) = p.round.clone();
            let rating = |id: u32| s.player(id).unwrap().rating;
            let results: Vec<GameResult> = s
                .round(r)
                .unwrap()
                .games
                .iter()
                .map(|g| generate::result(rating(g.white), rating(g.black), 0.3, &mut rng))
                .collect();
            for (game, res) in s.round_mut(r).games.iter_mut().zip(results) {
                game.result = res;
            }
        }
    }
}

/// Found by the 200 × 7 simulation (run 1144, seed 1), when round 2 ran on FIDE-like tiers:
/// the colour tiers and the downfloater tier shared one MIP, with weights near 177,000 beside
/// one. At that scale HiGHS's tolerances hid a pairing one unit better on the downfloater tier (100 floating instead of
/// 82, every colour as due), so an "optimal" round broke USCF round 2 (a). Group weights are now
/// kept below 2^16; the round is the plain formulation's optimum and the verifier agrees.
#[test]
fn uscf_round_two_downfloater_is_the_lowest_rated_a_winner_at_200_players() {
    let spec = generate::Spec {
        players: 200,
        rounds: 7,
        played: 1,
        seed: 4155710297934683989,
        draw_rate: 0.3,
        system: SystemKind::UscfBatches,
    };
    let t = generate::field(&spec, &Options::default()).expect("generated field");
    let p = pair_round(&t, 2, SystemKind::UscfBatches, &Options::default()).unwrap();
    assert_eq!(
        rules(&p.violations),
        Vec::<String>::new(),
        "{:?}",
        p.violations
    );
    let full = pair_round(
        &t,
        2,
        SystemKind::UscfBatches,
        &Options {
            full_candidates: true,
            ..Options::default()
        },
    )
    .unwrap();
    let values = |p: &Paired| -> Vec<i64> {
        p.pairing
            .certificate
            .tiers
            .iter()
            .map(|t| t.value)
            .collect()
    };
    assert_eq!(values(&p), values(&full));
    // 29D2: the downfloater meets the top of batch (b), the highest-rated A non-winner: 1,
    // who lost round 1.
    let st = optipair::tournament::Standings::before(&t, 2);
    assert!(st.get(1).unwrap().score < t.scoring.win);
    assert_eq!(
        partner(&p, 100),
        Some(1),
        "the downfloater meets the highest-rated non-winner"
    );
}

/// Every candidate's cost lies within its tier's bound, from the same function as the costs,
/// and the specification is well formed: on every round of events paired by each method.
#[test]
fn uscf_costs_within_their_tiers_bounds_every_round() {
    for (system, method) in [
        (SystemKind::UscfBatches, uscf::Method::Batches),
        (SystemKind::UscfThirds, uscf::Method::Thirds),
        (SystemKind::UscfAddedScore, uscf::Method::AddedScore),
    ] {
        for (players, seed) in [(31, 5), (60, 9)] {
            let spec = generate::Spec {
                players,
                rounds: 5,
                played: 4,
                seed,
                draw_rate: 0.3,
                system,
            };
            let t = generate::field(&spec, &Options::default()).unwrap();
            for round in 1..=5 {
                let (s, bounds) = uscf::Uscf::new(method).spec_with_bounds(&t, round).unwrap();
                costs_within_bounds(&format!("{system} round {round}"), &s, &bounds);
            }
        }
    }
}

/// The games of a stored `bbpPairings -p` output (the count, then `WHITE BLACK` per board; a
/// bye is `ID 0`).
fn reference_games(path: &std::path::Path) -> BTreeSet<(u32, u32)> {
    let nums: Vec<u32> = std::fs::read_to_string(path)
        .unwrap()
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    nums[1..]
        .chunks(2)
        .filter(|c| c[1] != 0)
        .map(|c| (c[0], c[1]))
        .collect()
}

/// PROG's pairing score carries each earlier round's fictitious score too, so floats (FIDE
/// C.04.3 1.4) are by the pairing score those rounds had. Player 50 met 38 (0 + 1 fictitious)
/// in round 3, a float up by pairing score; pairing him with the moved-down 56 would repeat it
/// ("FIDE Dutch 2025 C.15"), so the bye goes to him. The verifier once read earlier floats on
/// the real score, rejected that pairing and fell back to another. Reference: bbpPairings
/// `--dutch` on the same field with the same fictitious scores as `XXA` lines.
#[test]
fn prog_floats_of_earlier_rounds_are_by_pairing_score() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/prog");
    let text = std::fs::read_to_string(dir.join("prog_floats_by_pairing_score.trf")).unwrap();
    let t = trf::parse(&text).unwrap();
    let p = pair_round(&t, 4, SystemKind::Prog, &Options::default()).unwrap();
    assert_eq!(
        p.pairing.certificate.status,
        optipair::solve::Status::Optimal,
        "{}",
        p.pairing.certificate.summary
    );
    let got: BTreeSet<(u32, u32)> = p.pairing.games.iter().copied().collect();
    assert_eq!(
        got,
        reference_games(&dir.join("prog_floats_by_pairing_score.bbp.txt"))
    );
    assert!(p.violations.is_empty(), "{:?}", p.violations);
}

/// Round 9 of a PROG event, the fictitious scores given as `XXA` lines (as a manager hands
/// them to the engine): 28 and 29 (4 points each with FS) both want Black, 29 floated down in
/// round 8, and 39 (2 points, had a bye) must float up. Giving 29 the bye or letting him play
/// 39 repeats his downfloat either way; "FIDE Dutch 2025 C.18"–"C.21" then weigh the score
/// differences, and the reference gives 28 the bye. The verifier's bye-rank exchange once
/// flagged that pairing (equal float counts are not enough to prefer the lower-ranked bye),
/// and the round was refused.
#[test]
fn bye_rank_exchange_defers_to_float_scores() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/prog");
    let text = std::fs::read_to_string(dir.join("bye_after_repeated_downfloat.trf")).unwrap();
    let t = trf::parse(&text).unwrap();
    let p = pair_round(&t, 9, SystemKind::Swiss, &Options::default()).unwrap();
    assert_eq!(
        p.pairing.certificate.status,
        optipair::solve::Status::Optimal,
        "{}",
        p.pairing.certificate.summary
    );
    assert!(p.violations.is_empty(), "{:?}", p.violations);
    let got: BTreeSet<(u32, u32)> = p.pairing.games.iter().copied().collect();
    assert_eq!(
        got,
        reference_games(&dir.join("bye_after_repeated_downfloat.bbp.txt"))
    );
    assert_eq!(p.pairing.byes, vec![28]);
}
