//! The US Chess accelerations paired "by standard methods": inside the document's groups and
//! batches, rules 27–29 of the US Chess rulebook (the 80- and 200-point rules, 29E colours),
//! and the verifier's verdicts on rounds that break them. Each case is one a FIDE-like model of
//! the standard Swiss pairs differently: it transposes for colours without a limit in points.

use crate::common::{add_pab as add, g, pair, pairs};
use optipair::tournament::{Player, Tournament};
use optipair::verify::{check_round, Violation};
use optipair::SystemKind;
use std::collections::BTreeSet;

fn players(ratings: &[u32]) -> Tournament {
    let players = ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| Player::new(i as u32 + 1, format!("P{}", i + 1), r))
        .collect();
    let mut t = Tournament::new("uscf accel", players);
    t.rounds_planned = Some(5);
    t
}

fn set(v: &[(u32, u32)]) -> BTreeSet<(u32, u32)> {
    v.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect()
}

fn flagged<'a>(v: &'a [Violation], rule: &str) -> Vec<&'a Violation> {
    v.iter().filter(|x| x.rule == rule).collect()
}

/// 8 players, A = 1-4, B = 5-8. Round 1: A winners 1, 2; A non-winners 3 (had white) and 4
/// (black); B winners 5 (white) and 6 (black). Batch (b) in rating order is 3 v 5 and 4 v 6,
/// each pair due the same colour; the transposition 3 v 6, 4 v 5 would settle both, but
/// switches 250 points (2000/1750, 1500/1250).
fn two_hundred_field() -> Tournament {
    let mut t = players(&[2400, 2300, 2000, 1750, 1500, 1250, 1100, 1000]);
    add(
        &mut t,
        1,
        vec![
            g(3, 1, "0-1"),
            g(2, 4, "1-0"),
            g(5, 7, "1-0"),
            g(8, 6, "0-1"),
        ],
        vec![],
    );
    t
}

/// "USCF round 2 (b)": the non-winners in rating order against the winners, "adjusted ... to
/// improve colors" only "subject to the standard equalization limits": US Chess 29E5b, the
/// 200-point rule, forbids the 250-point transposition, so the colours stay unequal.
#[test]
fn uscf_round_2_b_keeps_rating_order_past_the_200_point_rule_29e5b() {
    let t = two_hundred_field();
    let p = pair(&t, 2, "uscf-batches");
    assert_eq!(pairs(&p), set(&[(1, 2), (3, 5), (4, 6), (7, 8)]));
    // The transposition the FIDE-like model made is flagged with the rule and the players.
    let mut bad = t.clone();
    add(
        &mut bad,
        2,
        vec![g(1, 2, "*"), g(6, 3, "*"), g(4, 5, "*"), g(7, 8, "*")],
        vec![],
    );
    let v = check_round(&bad, 2, SystemKind::UscfBatches).unwrap();
    let hit = flagged(&v, "US Chess 29E5b");
    assert_eq!(hit.len(), 1, "{v:?}");
    let who: BTreeSet<u32> = hit[0].players.iter().copied().collect();
    assert_eq!(who, [3, 4, 5, 6].into_iter().collect(), "{v:?}");
    assert!(hit[0].message.contains("250 points > 200"), "{v:?}");
}

/// "USCF added score": the top half one point up makes A's losers and B's winners one score
/// group; rules 27–29 pair it, and 29E5b keeps 3 v 5, 4 v 6 there too.
#[test]
fn uscf_added_score_round_2_within_the_200_point_rule_29e5b() {
    let t = two_hundred_field();
    let p = pair(&t, 2, "uscf-added-score");
    assert_eq!(pairs(&p), set(&[(1, 2), (3, 5), (4, 6), (7, 8)]));
}

/// 16 players, A = 1-8, B = 9-16; A's top four win round 1 on alternating boards, so in
/// batch (a) 1 and 3 are both due black, 2 and 4 both due white.
fn batch_a_field(gap: u32) -> Tournament {
    let mut ratings = vec![2600, 2600 - gap, 2600 - 2 * gap, 2600 - 3 * gap];
    ratings.extend([1800, 1790, 1780, 1770]);
    ratings.extend((0..8).map(|i| 1500 - 10 * i));
    let mut t = players(&ratings);
    add(
        &mut t,
        1,
        vec![
            g(1, 5, "1-0"),
            g(6, 2, "0-1"),
            g(3, 7, "1-0"),
            g(8, 4, "0-1"),
            g(9, 13, "1-0"),
            g(14, 10, "0-1"),
            g(11, 15, "1-0"),
            g(16, 12, "0-1"),
        ],
        vec![],
    );
    t
}

/// "USCF round 2 (a)" pairs the A winners "by standard methods": 1 v 3 and 2 v 4 as planned
/// (29C), since the transposition 1 v 4, 2 v 3 (and the interchange 1 v 2, 3 v 4) switches
/// 250 points, past US Chess 29E5b; at 150 points the transposition is made for
/// equalization (27A4), as the 200-point rule allows.
#[test]
fn uscf_round_2_a_transposes_within_the_200_point_rule_only_29e5b() {
    let p = pair(&batch_a_field(250), 2, "uscf-batches");
    let got = pairs(&p);
    assert!(got.is_superset(&set(&[(1, 3), (2, 4)])), "{got:?}");
    let p = pair(&batch_a_field(150), 2, "uscf-batches");
    let got = pairs(&p);
    assert!(got.is_superset(&set(&[(1, 4), (2, 3)])), "{got:?}");
    // The 250-point transposition is flagged.
    let mut bad = batch_a_field(250);
    let mut games = vec![g(4, 1, "*"), g(3, 2, "*")];
    games.extend(
        p.round
            .games
            .iter()
            .filter(|x| x.white > 4 && x.black > 4)
            .map(|x| g(x.white, x.black, "*")),
    );
    add(&mut bad, 2, games, vec![]);
    let v = check_round(&bad, 2, SystemKind::UscfBatches).unwrap();
    assert_eq!(flagged(&v, "US Chess 29E5b").len(), 1, "{v:?}");
}

/// "USCF thirds round 2 (b)": the A and B non-winners are batch (b)'s upper half even where a
/// B non-winner outrates a B winner (8 above 9 here had 9 won), and colours are settled by
/// transpositions of 40 points (within US Chess 29E5a's 80): 3 v 8, 4 v 7, 9 v 18, 10 v 17;
/// the rest (11, 14, 15, 16) by score, transposed the same way.
#[test]
fn uscf_thirds_round_2_b_non_winners_upper_half_29e5a() {
    let ratings: Vec<u32> = (1..=18).map(|i| 2400 - 40 * i).collect();
    let mut t = players(&ratings);
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
    let want = set(&[
        (1, 2),
        (3, 8),
        (4, 7),
        (5, 12),
        (6, 13),
        (9, 18),
        (10, 17),
        (11, 16),
        (14, 15),
    ]);
    assert_eq!(pairs(&p), want);
}

/// US Chess 29E4 inside an accelerated round: colours by the rulebook's claims. Giving 2
/// white against 1 (1 had black, 2 white in round 1) is flagged with both players.
#[test]
fn uscf_round_2_colours_by_29e4() {
    let t = two_hundred_field();
    let mut bad = t.clone();
    add(
        &mut bad,
        2,
        vec![g(2, 1, "*"), g(3, 5, "*"), g(4, 6, "*"), g(7, 8, "*")],
        vec![],
    );
    let v = check_round(&bad, 2, SystemKind::UscfBatches).unwrap();
    let hit = flagged(&v, "US Chess 29E4");
    assert!(
        hit.iter()
            .any(|x| x.players.contains(&1) && x.players.contains(&2)),
        "{v:?}"
    );
}

/// `audit --system uscf-batches`: the FIDE-like transposition of
/// [`uscf_round_2_b_keeps_rating_order_past_the_200_point_rule_29e5b`] breaks US Chess 29E5b
/// (named with its players), and the first tier on which it is worse than the optimum is the
/// 200-point rule's.
#[test]
fn uscf_audit_names_29e5b_first() {
    use optipair::audit;
    use optipair::solve::Options;
    let mut t = two_hundred_field();
    add(
        &mut t,
        2,
        vec![g(1, 2, "*"), g(6, 3, "*"), g(4, 5, "*"), g(7, 8, "*")],
        vec![],
    );
    let given = audit::recorded(&t, 2).unwrap();
    let a = audit::audit(&t, 2, SystemKind::UscfBatches, &given, &Options::default()).unwrap();
    assert!(
        a.violations
            .iter()
            .any(|v| v.rule == "US Chess 29E5b" && v.players.contains(&3)),
        "{:?}",
        a.violations
    );
    let tiers = a.tiers.expect("the pairing is scored");
    let first = &tiers[a.first_difference.expect("worse than the optimum")];
    assert_eq!(first.rule, "US Chess 29E5b", "{tiers:?}");
    assert!(first.yours > first.optimum);
}

/// `simulate` runs `uscf` and the three accelerations: whole events, every round verified
/// clean by rules 27–29 (and the document's clauses).
#[test]
fn uscf_simulate_covers_the_accelerations() {
    use optipair::simulate::{self, Config};
    let cfg = Config {
        systems: ["uscf", "uscf-batches", "uscf-thirds", "uscf-added-score"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect(),
        players: 30,
        rounds: 4,
        runs: 2,
        first_run: 0,
        seed: 46,
        model: None,
        draw_rate: 0.3,
        threads: 1,
        time_limit: None,
        settings: Default::default(),
    };
    let r = simulate::run(&cfg, &|_, _| {}).unwrap();
    assert_eq!(r.summaries.len(), 4);
    for s in &r.summaries {
        assert_eq!(s.runs, 2, "{}", s.system);
        assert_eq!(s.violations, 0, "{}: {s:?}", s.system);
    }
}
