//! The standard Swiss end to end (`engine::pair_round`): pairings a tournament director can
//! check against the FIDE rules on hand-built rounds, certificates, the independent verifier,
//! and re-pairing the reference tournaments of a FIDE Dutch engine.

use crate::common::{add, g};
use optipair::engine::{pair_round, store, Paired};
use optipair::generate;
use optipair::solve::{Options, Status};
use optipair::tournament::{Bye, ByeKind, Colour, GameResult, Player, Standings, Tournament};
use optipair::verify;
use optipair::SystemKind;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Instant;

const REF_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch");

// ---------------------------------------------------------------------------------------------
// Helpers

/// Players 1..=n, pairing numbers by rating (highest first).
fn field(n: u32) -> Tournament {
    let players = (1..=n)
        .map(|i| Player::new(i, format!("Player {i}"), 2400 - 10 * i))
        .collect();
    Tournament::new("test", players)
}

fn bye(player: u32, kind: ByeKind) -> Bye {
    Bye {
        player,
        kind,
        ..Default::default()
    }
}

fn pair(t: &Tournament, round: u32) -> Paired {
    t.validate().expect("hand-built tournament is valid");
    pair_round(t, round, SystemKind::Swiss, &Options::default())
        .unwrap_or_else(|e| panic!("pairing round {round}: {e}"))
}

/// Games as (white, black), board order.
fn games(p: &Paired) -> Vec<(u32, u32)> {
    p.round.games.iter().map(|g| (g.white, g.black)).collect()
}

fn pabs(p: &Paired) -> Vec<u32> {
    p.round
        .byes
        .iter()
        .filter(|b| b.kind == ByeKind::PairingAllocated)
        .map(|b| b.player)
        .collect()
}

/// The opponent of `id` in the paired round and the colour `id` got.
fn opponent(p: &Paired, id: u32) -> Option<(u32, Colour)> {
    p.round.games.iter().find_map(|g| {
        if g.white == id {
            Some((g.black, Colour::White))
        } else if g.black == id {
            Some((g.white, Colour::Black))
        } else {
            None
        }
    })
}

fn show(p: &Paired) -> String {
    let mut s = format!(
        "round {} games {:?} byes {:?}",
        p.round.number,
        games(p),
        p.round.byes
    );
    for v in &p.violations {
        s.push_str("\n  ");
        s.push_str(&v.message);
    }
    s
}

/// The verifier found nothing, and HiGHS proved every tier optimal: each tier carries a dual
/// bound that leaves no integer value below the one achieved.
fn assert_clean_optimal(p: &Paired) {
    assert!(p.violations.is_empty(), "verifier: {}", show(p));
    let c = &p.pairing.certificate;
    assert_eq!(c.status, Status::Optimal, "{}: {}", show(p), c.summary);
    assert!(!c.tiers.is_empty());
    for tv in &c.tiers {
        assert!(tv.proved, "tier '{}' not proved: {}", tv.name, c.summary);
        let b = tv
            .bound
            .unwrap_or_else(|| panic!("tier '{}' proved without a bound", tv.name));
        let v = tv.value as f64;
        assert!(
            v >= b - 1e-6 && v - b < 1.0,
            "tier '{}' value {v} not matched by its bound {b}",
            tv.name
        );
    }
    assert!(
        p.pairing.unpaired.is_empty(),
        "unpaired: {:?}",
        p.pairing.unpaired
    );
}

/// Every player due to play round `r` (entered, not withdrawn, no requested bye) is in exactly
/// one game or has the pairing-allocated bye; nobody else is paired; the bye only when the
/// number due is odd. Computed from the tournament, not from the engine.
fn assert_everyone_paired(t: &Tournament, p: &Paired) {
    let r = p.round.number;
    let requested: BTreeSet<u32> = t
        .round(r)
        .map(|rd| rd.requested_byes().map(|b| b.player).collect())
        .unwrap_or_default();
    let due: BTreeSet<u32> = t
        .players
        .iter()
        .filter(|pl| pl.active_in(r) && !requested.contains(&pl.id))
        .map(|pl| pl.id)
        .collect();
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    for g in &p.round.games {
        assert_ne!(g.white, g.black, "{}", show(p));
        *seen.entry(g.white).or_default() += 1;
        *seen.entry(g.black).or_default() += 1;
    }
    for b in pabs(p) {
        *seen.entry(b).or_default() += 1;
    }
    for id in &due {
        assert_eq!(
            seen.get(id).copied().unwrap_or(0),
            1,
            "player {id} should be paired exactly once: {}",
            show(p)
        );
    }
    for id in seen.keys() {
        assert!(
            due.contains(id),
            "player {id} is paired but not due: {}",
            show(p)
        );
    }
    assert_eq!(pabs(p).len(), due.len() % 2, "{}", show(p));
    // Requested byes known before the round are kept as they were.
    for id in &requested {
        let before = t
            .round(r)
            .unwrap()
            .byes
            .iter()
            .find(|b| b.player == *id)
            .unwrap();
        assert!(
            p.round.byes.contains(before),
            "requested bye of {id} lost: {}",
            show(p)
        );
    }
}

/// C.04.1 f/g from the played history: colour difference within ±2 and never three games
/// in a row with one colour, except topscorers (and their opponents) in the last round.
fn assert_colour_limits(t: &Tournament, p: &Paired) {
    let r = p.round.number;
    let st = Standings::before(t, r);
    let last = t.rounds_planned == Some(r);
    let line = t.scoring.max_per_round() * f64::from(r - 1) / 2.0;
    let top = |id: u32| last && st.get(id).unwrap().score > line + 1e-9;
    for g in &p.round.games {
        if top(g.white) || top(g.black) {
            continue;
        }
        for (id, c) in [(g.white, Colour::White), (g.black, Colour::Black)] {
            let mut h = st.get(id).unwrap().played_colours();
            h.push(c);
            let diff: i32 = h.iter().map(|c| c.sign()).sum();
            assert!(
                diff.abs() <= 2,
                "player {id} colour difference {diff}: {}",
                show(p)
            );
            let n = h.len();
            assert!(
                !(n >= 3 && h[n - 1] == h[n - 2] && h[n - 2] == h[n - 3]),
                "player {id} gets {c:?} a third time running: {}",
                show(p)
            );
        }
    }
}

/// No game of the round repeats a game played over the board before it.
fn assert_no_rematch(t: &Tournament, p: &Paired) {
    let st = Standings::before(t, p.round.number);
    for g in &p.round.games {
        assert!(
            !st.get(g.white).unwrap().played.contains(&g.black),
            "{} v {} is a rematch: {}",
            g.white,
            g.black,
            show(p)
        );
    }
}

fn assert_all_rules(t: &Tournament, p: &Paired) {
    assert_clean_optimal(p);
    assert_everyone_paired(t, p);
    assert_colour_limits(t, p);
    assert_no_rematch(t, p);
}

// ---------------------------------------------------------------------------------------------
// Round 1

#[test]
fn round_one_even_field_top_half_meets_bottom_half() {
    let t = field(10);
    let p = pair(&t, 1);
    assert_all_rules(&t, &p);
    // 1 v 6, 2 v 7, ... on boards 1..5; E.5: the higher-ranked player gets the initial colour
    // (white) on odd pairing numbers, black on even ones.
    assert_eq!(games(&p), vec![(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)]);
    assert!(p.round.byes.is_empty());
    assert_eq!(p.round.number, 1);
    assert!(p
        .round
        .games
        .iter()
        .all(|g| g.result == GameResult::Pending));
}

#[test]
fn round_one_initial_colour_black_flips_every_board() {
    let mut t = field(10);
    t.initial_colour = Some(Colour::Black);
    let p = pair(&t, 1);
    assert_all_rules(&t, &p);
    assert_eq!(games(&p), vec![(6, 1), (2, 7), (8, 3), (4, 9), (10, 5)]);
}

#[test]
fn round_one_odd_field_lowest_ranked_gets_the_bye() {
    let t = field(11);
    let p = pair(&t, 1);
    assert_all_rules(&t, &p);
    assert_eq!(pabs(&p), vec![11]);
    assert_eq!(p.round.byes.len(), 1);
    assert_eq!(games(&p), vec![(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)]);
}

#[test]
fn round_one_pairing_numbers_not_ratings_decide() {
    // Ranking follows pairing numbers: a field listed out of order pairs the same way.
    let mut t = field(8);
    t.players.reverse();
    let p = pair(&t, 1);
    assert_all_rules(&t, &p);
    assert_eq!(games(&p), vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
}

// ---------------------------------------------------------------------------------------------
// Colours

#[test]
fn colours_e1_both_preferences_granted() {
    // Round 1: 1 (white) beat 3, 2 (black) beat 4. Round 2: 1 v 2 and 3 v 4 in their score
    // groups; 1 wants black and 2 white, 3 wants white and 4 black: E.1 grants all four.
    let mut t = field(4);
    add(&mut t, 1, vec![g(1, 3, "1-0"), g(4, 2, "0-1")], vec![]);
    let p = pair(&t, 2);
    assert_all_rules(&t, &p);
    assert_eq!(games(&p), vec![(2, 1), (3, 4)]);
}

#[test]
fn colours_e2_stronger_preference_wins() {
    // 1: white then black (mild preference for white). 2: forfeit win, then black (strong
    // preference for white, difference −1). 3: black, white (mild for black). 4: forfeit loss,
    // white (strong for black). 1 has met 3 and 4, so round 3 is 1 v 2 and 3 v 4: E.2 gives
    // 2 white over higher-ranked 1, and 4 black over higher-ranked 3.
    let mut t = field(4);
    add(&mut t, 1, vec![g(1, 3, "1-0"), g(2, 4, "+-")], vec![]);
    add(&mut t, 2, vec![g(4, 1, "0-1"), g(3, 2, "0-1")], vec![]);
    let p = pair(&t, 3);
    assert_all_rules(&t, &p);
    assert_eq!(games(&p), vec![(2, 1), (3, 4)]);
}

#[test]
fn colours_e2_absolute_beats_strong() {
    // 1: forfeit win, then white (difference +1: strong preference for black). 2: white twice
    // (absolute for black). 2 has met 3 and 4, so round 3 is 1 v 2 and 3 v 4. E.2: 2's
    // absolute preference beats higher-ranked 1's strong one; 4 (black twice, absolute for
    // white) beats 3 (forfeit loss, then black: strong for white).
    let mut t = field(4);
    add(&mut t, 1, vec![g(1, 3, "+-"), g(2, 4, "1-0")], vec![]);
    add(&mut t, 2, vec![g(1, 4, "1-0"), g(2, 3, "1-0")], vec![]);
    let p = pair(&t, 3);
    assert_all_rules(&t, &p);
    assert_eq!(games(&p), vec![(1, 2), (4, 3)]);
}

/// Six players after two rounds: 1 and 2 (2 points each) have both had white twice
/// (absolute preference for black); 4 and 6 have had black twice; 3 and 5 alternated.
fn two_absolute_whites(rounds_planned: u32) -> Tournament {
    let mut t = field(6);
    t.rounds_planned = Some(rounds_planned);
    add(
        &mut t,
        1,
        vec![g(1, 3, "1-0"), g(2, 4, "1-0"), g(5, 6, "1/2")],
        vec![],
    );
    add(
        &mut t,
        2,
        vec![g(1, 5, "1-0"), g(2, 6, "1-0"), g(3, 4, "1/2")],
        vec![],
    );
    t
}

#[test]
fn colours_same_absolute_preference_never_paired() {
    let t = two_absolute_whites(5);
    let p = pair(&t, 3);
    assert_all_rules(&t, &p);
    // The natural pairing by score would be 1 v 2; both must have black, so it is not made.
    assert_ne!(opponent(&p, 1).map(|o| o.0), Some(2), "{}", show(&p));
    assert_eq!(
        opponent(&p, 1).map(|o| o.1),
        Some(Colour::Black),
        "{}",
        show(&p)
    );
    assert_eq!(
        opponent(&p, 2).map(|o| o.1),
        Some(Colour::Black),
        "{}",
        show(&p)
    );
}

#[test]
fn colours_topscorers_may_meet_in_the_last_round() {
    // Same history, but round 3 is the last: 1 and 2 are topscorers (2 points of 2) and may
    // meet despite both wanting black (C.04.3 A.7). Equal absolute preferences, equal
    // histories: E.4 gives the higher-ranked 1 his preference (black).
    let t = two_absolute_whites(3);
    let p = pair(&t, 3);
    assert_clean_optimal(&p);
    assert_everyone_paired(&t, &p);
    assert_no_rematch(&t, &p);
    assert_eq!(opponent(&p, 1), Some((2, Colour::Black)), "{}", show(&p));
    // Everyone else stays within the colour limits.
    for id in 3..=6 {
        let (o, c) = opponent(&p, id).unwrap();
        let mut h = Standings::before(&t, 3).get(id).unwrap().played_colours();
        h.push(c);
        assert!(
            !(h[0] == h[1] && h[1] == h[2]),
            "{id} (v {o}) gets {c:?} a third time: {}",
            show(&p)
        );
    }
}

#[test]
fn colour_limits_hold_over_a_generated_event() {
    // A whole event paired round by round: nobody beyond ±2 or with three in a row (the
    // helper exempts topscorers of the last round only).
    let spec = generate::Spec {
        players: 24,
        rounds: 9,
        played: 8,
        seed: 11,
        draw_rate: 0.4,
        system: SystemKind::Swiss,
    };
    let t = generate::field(&spec, &Options::default()).expect("generated field");
    for r in 1..=9 {
        let p = pair(&t, r);
        assert_all_rules(&t.before_round(r), &p);
    }
}

// ---------------------------------------------------------------------------------------------
// Byes

#[test]
fn bye_not_given_twice_even_to_the_lowest_ranked() {
    // Round 1: 5 had the bye. Round 2: 3 had the bye. Before round 3, the lowest score group
    // is {3, 4, 5} (1 point each); 5 ranks lowest but had the bye, so did 3: it goes to 4.
    let mut t = field(5);
    add(
        &mut t,
        1,
        vec![g(1, 3, "1-0"), g(4, 2, "0-1")],
        vec![bye(5, ByeKind::PairingAllocated)],
    );
    add(
        &mut t,
        2,
        vec![g(2, 1, "1/2"), g(5, 4, "0-1")],
        vec![bye(3, ByeKind::PairingAllocated)],
    );
    let p = pair(&t, 3);
    assert_all_rules(&t, &p);
    assert_eq!(pabs(&p), vec![4], "{}", show(&p));
}

#[test]
fn bye_not_given_after_a_forfeit_win() {
    // Round 1: 5 won by forfeit, 3 had the bye. Round 2: 2 had the bye, 4 beat 3, 5 lost.
    // Before round 3 everyone but 1 has 1 point; 5 ranks lowest but won by forfeit, 2 and 3
    // had the bye: the bye goes to 4.
    let mut t = field(5);
    add(
        &mut t,
        1,
        vec![g(1, 4, "1-0"), g(2, 5, "-+")],
        vec![bye(3, ByeKind::PairingAllocated)],
    );
    add(
        &mut t,
        2,
        vec![g(1, 5, "1-0"), g(4, 3, "1-0")],
        vec![bye(2, ByeKind::PairingAllocated)],
    );
    let p = pair(&t, 3);
    assert_all_rules(&t, &p);
    assert_eq!(pabs(&p), vec![4], "{}", show(&p));
}

#[test]
fn bye_goes_to_the_lowest_score_group() {
    // Round 1: 5 had a requested half-point bye; 3 and 4 won. Before round 2: 3, 4 on 1, 5 on
    // ½, 1 and 2 on 0. The bye goes to the lowest group {1, 2}, to its lower-ranked 2 — not
    // to 5, the highest pairing number.
    let mut t = field(5);
    add(
        &mut t,
        1,
        vec![g(1, 3, "0-1"), g(4, 2, "1-0")],
        vec![bye(5, ByeKind::Half)],
    );
    let p = pair(&t, 2);
    assert_all_rules(&t, &p);
    assert_eq!(pabs(&p), vec![2], "{}", show(&p));
}

#[test]
fn no_bye_in_an_even_field() {
    let mut t = field(6);
    add(
        &mut t,
        1,
        vec![g(1, 4, "1-0"), g(5, 2, "1-0"), g(3, 6, "1/2")],
        vec![],
    );
    let p = pair(&t, 2);
    assert_all_rules(&t, &p);
    assert!(pabs(&p).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Rematches and forfeits

#[test]
fn rematch_avoided_when_the_natural_pairing_is_one() {
    // Round 1: 1 drew 3, 2 drew 4. All on ½: the natural S1 v S2 pairing 1 v 3, 2 v 4 would
    // repeat both games.
    let mut t = field(4);
    add(&mut t, 1, vec![g(1, 3, "1/2"), g(4, 2, "1/2")], vec![]);
    let p = pair(&t, 2);
    assert_all_rules(&t, &p);
    let pairs: BTreeSet<(u32, u32)> = games(&p)
        .into_iter()
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    assert!(
        !pairs.contains(&(1, 3)) && !pairs.contains(&(2, 4)),
        "{}",
        show(&p)
    );
}

#[test]
fn rematch_avoided_across_score_groups_in_a_larger_field() {
    // Eight players, two rounds in which 1 and 2 keep winning. Round 3 pairs 1 v 2 if legal;
    // make them have met already: then neither meets the other again.
    let mut t = field(8);
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
    add(
        &mut t,
        2,
        vec![
            g(2, 1, "1/2"),
            g(4, 3, "1/2"),
            g(5, 8, "1-0"),
            g(7, 6, "0-1"),
        ],
        vec![],
    );
    let p = pair(&t, 3);
    assert_all_rules(&t, &p);
    assert_ne!(opponent(&p, 1).map(|o| o.0), Some(2));
    assert_ne!(opponent(&p, 3).map(|o| o.0), Some(4));
}

#[test]
fn forfeited_games_do_not_block_a_repairing() {
    // Round 1: both games forfeited by both players (not played). Round 2 is round 1 again in
    // effect: all on 0, no colour history, and the natural S1 v S2 pairing is 1 v 3, 2 v 4.
    let mut t = field(4);
    add(&mut t, 1, vec![g(1, 3, "--"), g(4, 2, "--")], vec![]);
    let p = pair(&t, 2);
    assert_all_rules(&t, &p);
    let pairs: BTreeSet<(u32, u32)> = games(&p)
        .into_iter()
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    assert_eq!(pairs, BTreeSet::from([(1, 3), (2, 4)]), "{}", show(&p));
}

#[test]
fn played_game_blocks_but_forfeit_between_same_players_does_not() {
    // Round 1: 1 v 2 (double forfeit, or a played draw), 3 v 5 and 6 v 4 drawn. After a double
    // forfeit 1 and 2 are alone on 0 and the forfeit does not count as a meeting: 1 v 2 again.
    // After a played draw all six are on ½ and 1 v 2 would be a rematch.
    let build = |first: &str| {
        let mut t = field(6);
        add(
            &mut t,
            1,
            vec![g(1, 2, first), g(3, 5, "1/2"), g(6, 4, "1/2")],
            vec![],
        );
        t
    };
    let t = build("--");
    let p = pair(&t, 2);
    assert_all_rules(&t, &p);
    assert_eq!(opponent(&p, 1).map(|o| o.0), Some(2), "{}", show(&p));
    let t = build("1/2");
    let p = pair(&t, 2);
    assert_all_rules(&t, &p);
    assert_ne!(opponent(&p, 1).map(|o| o.0), Some(2), "{}", show(&p));
}

#[test]
fn bye_to_lowest_ranked_when_colours_allow() {
    // Fifteen players. Round 1: 15 had the bye; 1..7 beat 8..14. Before round 2 the lowest
    // score group is 8..14 (seven players, 0 points): 8 has no colour (forfeit loss), 9 and 11
    // had white (want black), 10, 12, 13 and 14 had black (want white). The Dutch bracket
    // S1 = 8 9 10, S2 = 11 12 13 14 with the transposition 12 13 11 (14): 8 v 12, 13 v 9,
    // 10 v 11 grants every colour preference and leaves the lowest-ranked 14 for the bye. No
    // criterion moves the bye up, so it goes to 14 (C.04.3: the PAB to the lowest-ranked
    // eligible player of the lowest score group).
    let mut t = field(15);
    add(
        &mut t,
        1,
        vec![
            g(1, 8, "+-"),
            g(9, 2, "0-1"),
            g(3, 10, "1-0"),
            g(11, 4, "0-1"),
            g(5, 12, "1-0"),
            g(6, 13, "1-0"),
            g(7, 14, "1-0"),
        ],
        vec![bye(15, ByeKind::PairingAllocated)],
    );
    let p = pair(&t, 2);
    assert_everyone_paired(&t, &p);
    assert_eq!(pabs(&p), vec![14], "{}", show(&p));
    assert_clean_optimal(&p);
}

// ---------------------------------------------------------------------------------------------
// Withdrawals, late entries, requested byes

#[test]
fn withdrawn_player_is_not_paired() {
    let mut t = field(6);
    add(
        &mut t,
        1,
        vec![g(1, 4, "1-0"), g(5, 2, "0-1"), g(3, 6, "1/2")],
        vec![],
    );
    t.players[1].withdrawn = Some(2); // player 2 withdraws before round 2
    let p = pair(&t, 2);
    assert_all_rules(&t, &p);
    assert!(
        opponent(&p, 2).is_none() && !pabs(&p).contains(&2),
        "{}",
        show(&p)
    );
    assert_eq!(p.round.games.len(), 2);
    assert_eq!(pabs(&p).len(), 1);
    // And in later rounds too.
    let t2 = store(&t, &p);
    let mut t2 = t2;
    for gm in &mut t2.round_mut(2).games {
        gm.result = GameResult::Draw;
    }
    let p3 = pair(&t2, 3);
    assert_all_rules(&t2, &p3);
    assert!(opponent(&p3, 2).is_none() && !pabs(&p3).contains(&2));
}

#[test]
fn late_entry_is_paired_only_from_the_round_joined() {
    let mut t = field(7);
    t.players[6].joined = Some(2); // player 7 joins in round 2
    let p1 = pair(&t, 1);
    assert_all_rules(&t, &p1);
    assert!(
        opponent(&p1, 7).is_none() && !pabs(&p1).contains(&7),
        "{}",
        show(&p1)
    );
    assert_eq!(p1.round.games.len(), 3);
    assert!(pabs(&p1).is_empty(), "six players present: no bye");
    let mut t = store(&t, &p1);
    for gm in &mut t.round_mut(1).games {
        gm.result = GameResult::WhiteWins;
    }
    let p2 = pair(&t, 2);
    assert_all_rules(&t, &p2);
    assert!(
        opponent(&p2, 7).is_some() || pabs(&p2) == vec![7],
        "late entry not paired: {}",
        show(&p2)
    );
}

#[test]
fn requested_half_bye_is_respected() {
    // Round 2 holds only a requested half-point bye for 3 before pairing.
    let mut t = field(6);
    add(
        &mut t,
        1,
        vec![g(1, 4, "1-0"), g(5, 2, "0-1"), g(3, 6, "1-0")],
        vec![],
    );
    add(&mut t, 2, vec![], vec![bye(3, ByeKind::Half)]);
    assert!(!t.round(2).unwrap().is_paired());
    let p = pair(&t, 2);
    assert_all_rules(&t, &p);
    assert!(opponent(&p, 3).is_none(), "{}", show(&p));
    assert!(p.round.byes.contains(&bye(3, ByeKind::Half)));
    // Five players left: one pairing-allocated bye, and not to 3.
    assert_eq!(pabs(&p).len(), 1);
    assert_ne!(pabs(&p), vec![3]);
    // The stored round keeps both.
    let stored = store(&t, &p);
    let r2 = stored.round(2).unwrap();
    assert!(r2.byes.contains(&bye(3, ByeKind::Half)));
    assert!(verify::check_round(&stored, 2, SystemKind::Swiss)
        .unwrap()
        .is_empty());
}

#[test]
fn repairing_a_round_ignores_its_recorded_pairing_and_later_rounds() {
    // Round 2 as recorded breaks the rules (a rematch); re-pairing it from round 1 must not
    // care.
    let mut t = field(4);
    add(&mut t, 1, vec![g(1, 3, "1-0"), g(4, 2, "0-1")], vec![]);
    add(&mut t, 2, vec![g(1, 3, "1-0"), g(2, 4, "1-0")], vec![]);
    add(&mut t, 3, vec![g(1, 2, "1-0"), g(3, 4, "1-0")], vec![]);
    assert!(!verify::check_round(&t, 2, SystemKind::Swiss)
        .unwrap()
        .is_empty());
    let p = pair(&t, 2);
    assert_all_rules(&t.before_round(2), &p);
    assert_eq!(games(&p), vec![(2, 1), (3, 4)]);
}

// ---------------------------------------------------------------------------------------------
// Errors of the request

#[test]
fn bad_requests_are_errors_not_panics() {
    let mut t = field(4);
    t.rounds_planned = Some(3);
    assert!(pair_round(&t, 0, SystemKind::Swiss, &Options::default()).is_err());
    assert!(pair_round(&t, 4, SystemKind::Swiss, &Options::default()).is_err());
    // A system is a `SystemKind`: an unknown name is refused where it is parsed.
    let e = "no-such-system".parse::<SystemKind>().unwrap_err();
    assert!(e.to_string().contains("no-such-system"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// The greedy fallback

#[test]
fn greedy_fallback_pairs_legally() {
    for (players, played, seed) in [(30usize, 3u32, 1u64), (41, 4, 2), (57, 5, 3)] {
        let spec = generate::Spec {
            players,
            rounds: 9,
            played,
            seed,
            draw_rate: 0.3,
            system: SystemKind::Swiss,
        };
        let t = generate::field(&spec, &Options::default()).expect("generated field");
        let opts = Options {
            greedy_only: true,
            ..Options::default()
        };
        let r = played + 1;
        let p = pair_round(&t, r, SystemKind::Swiss, &opts).expect("greedy pairing");
        assert!(
            p.violations.is_empty(),
            "{players} players round {r}: {}",
            show(&p)
        );
        let c = &p.pairing.certificate;
        assert_eq!(c.status, Status::Fallback);
        assert!(
            c.tiers.iter().all(|tv| !tv.proved),
            "fallback proves nothing"
        );
        assert!(p.pairing.unpaired.is_empty());
        assert_everyone_paired(&t, &p);
        assert_colour_limits(&t, &p);
        assert_no_rematch(&t, &p);
    }
}

#[test]
fn greedy_fallback_over_a_whole_event_keeps_every_rule() {
    let opts = Options {
        greedy_only: true,
        ..Options::default()
    };
    let spec = generate::Spec {
        players: 35,
        rounds: 7,
        played: 7,
        seed: 5,
        draw_rate: 0.3,
        system: SystemKind::Swiss,
    };
    let t = generate::field(&spec, &opts).expect("generated field");
    let found = verify::check(&t, None, SystemKind::Swiss).expect("check");
    let msgs: Vec<&str> = found.iter().map(|v| v.message.as_str()).collect();
    assert!(found.is_empty(), "{msgs:#?}");
}

// ---------------------------------------------------------------------------------------------
// Reference tournaments (FIDE Dutch engine)

fn reference_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(REF_DIR)
        .expect("reference directory")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "trf")
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("rtg_"))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no reference files in {REF_DIR}");
    files
}

#[test]
fn reference_rounds_repaired_cleanly_and_optimally() {
    // Every reference file of at most 64 players: each round re-paired from the rounds before
    // it must keep every rule (the verifier and the checks above), be proved optimal, and
    // pair everyone due to play.
    let start = Instant::now();
    let mut rounds = 0;
    let mut files = 0;
    let mut failures = Vec::new();
    for path in reference_files() {
        let t =
            optipair::formats::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if t.players.len() > 64 {
            continue;
        }
        files += 1;
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let last = t.rounds.iter().map(|r| r.number).max().unwrap_or(0);
        assert!(last > 0, "{name}: no rounds");
        for k in 1..=last {
            let p = match pair_round(&t, k, SystemKind::Swiss, &Options::default()) {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{name} round {k}: {e}"));
                    continue;
                }
            };
            rounds += 1;
            let before = t.before_round(k);
            let outcome = std::panic::catch_unwind(|| {
                assert_all_rules(&before, &p);
                let stored = store(&before, &p);
                let again = verify::check_round(&stored, k, SystemKind::Swiss).expect("check");
                assert!(again.is_empty(), "stored round: {again:?}");
            });
            if outcome.is_err() {
                failures.push(format!("{name} round {k}: {}", show(&p)));
            }
        }
    }
    assert!(
        files >= 10,
        "only {files} reference files of 64 players or fewer"
    );
    assert!(rounds >= 100, "only {rounds} rounds re-paired");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Runtime is reported, not asserted: it depends on the machine and its load.
    eprintln!(
        "{rounds} reference rounds re-paired in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
