//! `optipair explain`: a player's pairing in the rules' words. Every claim is recomputed
//! independently: the Dutch pairing explained is the verifier's brute force of the round
//! (written from the text, no engine code), and each "with X you would lose on C.n" is the
//! brute force of the round with the pair forced (every other partner of the two barred),
//! compared with the Dutch pairing by the verifier's criteria.

use optipair::explain::{self, Explanation, Outcome, Verdict};
use optipair::formats;
use optipair::solve::Options;
use optipair::tournament::Tournament;
use optipair::verify::dutch::{self, Comparison};
use optipair::SystemKind;
use serde_json::Value;

use crate::common::cli::*;

const REF_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch");

fn load(name: &str) -> Tournament {
    formats::load(std::path::Path::new(&format!("{REF_DIR}/{name}")))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn explained(name: &str, round: u32, player: u32) -> (Tournament, Explanation) {
    let t = load(name);
    let e = explain::explain(&t, round, SystemKind::Swiss, player, &Options::default())
        .unwrap_or_else(|e| panic!("{name} round {round} player {player}: {e}"));
    (t, e)
}

/// Checks every alternative of `e` against the brute force: the pairing explained is the
/// brute-force Dutch pairing; each alternative's best pairing is the brute force of the round
/// with it forced, and it loses first where explain says, by the values it says.
fn recompute(t: &Tournament, e: &Explanation) {
    let round = e.round;
    let field = t.before_round(round);
    let dutch_pairing = dutch::brute_force(&field, round).expect("small round: brute force");
    assert_eq!(
        dutch_pairing.normalised(),
        e.pairing.normalised(),
        "the pairing explained is the Dutch pairing"
    );
    let bye = e.outcome == Outcome::Bye;
    for a in &e.alternatives {
        match a.verdict {
            Verdict::NotAllowed => {
                let st = dutch::state::RoundState::new(&field, round);
                let (i, j) = (
                    st.index_of(e.player).unwrap(),
                    st.index_of(a.player).unwrap(),
                );
                assert_eq!(
                    st.bar(i, j),
                    a.article.as_deref(),
                    "{}: {}",
                    a.player,
                    a.sentence
                );
            }
            Verdict::Worse | Verdict::Order => {
                let forced = if bye {
                    explain::forced(&field, round, a.player, None).unwrap()
                } else {
                    explain::forced(&field, round, e.player, Some(a.player)).unwrap()
                };
                let best = dutch::brute_force(&forced, round).expect("a pairing with it");
                let cmp = dutch::compare(&field, round, &best, &dutch_pairing);
                match (a.verdict, &cmp) {
                    (
                        Verdict::Worse,
                        Comparison::Criterion {
                            bracket,
                            article,
                            a_better: false,
                            ..
                        },
                    ) => {
                        assert_eq!(Some(*bracket), a.bracket, "{}: {cmp}", a.player);
                        assert_eq!(a.article.as_deref(), Some(article.as_str()));
                        let ours = dutch::criteria(&field, round, &best).unwrap();
                        let theirs = dutch::criteria(&field, round, &dutch_pairing).unwrap();
                        let v = |r: &[dutch::BracketReport]| {
                            r[bracket - 1]
                                .value(article)
                                .map(|v| explain::words::value(article, v))
                        };
                        assert_eq!(v(&ours), a.with_it, "{}: value with it", a.player);
                        assert_eq!(v(&theirs), a.made, "{}: value as paired", a.player);
                    }
                    (Verdict::Order, Comparison::Order { a_first: false, .. }) => {}
                    _ => panic!(
                        "{}: explain says {:?}, the brute force {cmp}",
                        a.player, a.verdict
                    ),
                }
            }
            Verdict::NoPairing => {
                let forced = explain::forced(&field, round, e.player, Some(a.player)).unwrap();
                let best = dutch::brute_force(&forced, round);
                assert!(
                    best.is_none_or(|p| !p.games.iter().any(|&(w, b)| {
                        (w, b) == (e.player, a.player) || (w, b) == (a.player, e.player)
                    })),
                    "{}: the brute force pairs them",
                    a.player
                );
            }
        }
    }
}

/// For each criterion, a reference round where it decided one player's opponent (the other
/// choice that came closest lost there): file, round, player. Found by running explain on
/// every player of every round of the reference files in tests/data/dutch with at most 22
/// players. C.10 decides only in a last round (topscorers, C.04.3 A.7): no reference file had
/// it deciding (in dutch_2025_C10.trf round 9 it rules out opponents of player 6, but a later
/// criterion decides), so its round is the last round of a generated tournament found by
/// explaining every player of the last round of 2,000 of them (tests/data/dutch/README.md).
const DECIDED: [(&str, &str, u32, u32); 17] = [
    ("C.5", "dutch_2025_C21.trf", 6, 3),
    ("C.6", "dutch_2025_1.4.3.trf", 3, 6),
    ("C.7", "dutch_2025_C7.trf", 5, 4),
    ("C.8", "dutch_2025_C8.trf", 6, 2),
    ("C.9", "generated/rtg_1011_11p_7r.trf", 4, 5),
    ("C.10", "dutch_2025_C10_decided.trf", 11, 8),
    ("C.11", "dutch_2025_C11.trf", 6, 2),
    ("C.12", "dutch_2025_4.2_mdp_transposition.trf", 3, 1),
    ("C.13", "dutch_2025_C13.trf", 4, 2),
    ("C.14", "dutch_2025_C14.trf", 4, 2),
    ("C.15", "dutch_2025_C15.trf", 4, 2),
    ("C.16", "dutch_2025_C16.trf", 4, 2),
    ("C.17", "dutch_2025_C17.trf", 4, 3),
    ("C.18", "dutch_2025_C18.trf", 6, 6),
    ("C.19", "dutch_2025_C19.trf", 5, 1),
    ("C.20", "dutch_2025_C20.trf", 7, 4),
    ("C.21", "dutch_2025_C21.trf", 6, 2),
];

fn golden(criterion: &str) {
    let (_, file, round, player) = DECIDED.iter().find(|d| d.0 == criterion).copied().unwrap();
    let (t, e) = explained(file, round, player);
    let article = format!("FIDE Dutch 2025 {criterion}");
    assert_eq!(
        e.decided_by.as_deref(),
        Some(article.as_str()),
        "{}",
        e.decision
    );
    assert!(e.decision.starts_with(&article), "{}", e.decision);
    let sentence = explain::words::words(&article).unwrap().sentence;
    assert!(e.decision.contains(sentence), "{}", e.decision);
    let text = explain::text(&e, &t);
    assert!(text.contains(&format!("{article} decided")), "{text}");
    recompute(&t, &e);
}

macro_rules! golden_tests {
    ($($name:ident => $c:literal),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                golden($c);
            }
        )*
    };
}

golden_tests! {
    fide_dutch_2025_c5_the_bye_score_decides_an_opponent => "C.5",
    fide_dutch_2025_c6_the_number_of_floaters_decides_an_opponent => "C.6",
    fide_dutch_2025_c7_the_floaters_scores_decide_an_opponent => "C.7",
    fide_dutch_2025_c8_the_next_bracket_decides_an_opponent => "C.8",
    fide_dutch_2025_c9_the_bye_players_unplayed_rounds_decide_an_opponent => "C.9",
    fide_dutch_2025_c10_a_topscorers_colour_difference_beyond_two_decides_an_opponent => "C.10",
    fide_dutch_2025_c11_a_topscorers_third_colour_decides_an_opponent => "C.11",
    fide_dutch_2025_c12_colour_preferences_decide_an_opponent => "C.12",
    fide_dutch_2025_c13_strong_colour_preferences_decide_an_opponent => "C.13",
    fide_dutch_2025_c14_a_repeated_downfloat_decides_an_opponent => "C.14",
    fide_dutch_2025_c15_a_repeated_upfloat_decides_an_opponent => "C.15",
    fide_dutch_2025_c16_a_downfloat_two_rounds_back_decides_an_opponent => "C.16",
    fide_dutch_2025_c17_an_upfloat_two_rounds_back_decides_an_opponent => "C.17",
    fide_dutch_2025_c18_a_repeated_downfloaters_score_difference_decides => "C.18",
    fide_dutch_2025_c19_a_repeated_upfloaters_score_difference_decides => "C.19",
    fide_dutch_2025_c20_a_downfloaters_difference_two_rounds_back_decides => "C.20",
    fide_dutch_2025_c21_an_upfloaters_difference_two_rounds_back_decides => "C.21",
}

#[test]
fn fide_dutch_2025_c10_rules_out_opponents_and_the_claim_is_recomputed() {
    // C.10 rules out opponents here (10 and 8) without deciding: a later criterion does.
    let (t, e) = explained("dutch_2025_C10.trf", 9, 6);
    let c10: Vec<u32> = e
        .alternatives
        .iter()
        .filter(|a| a.article.as_deref() == Some("FIDE Dutch 2025 C.10"))
        .map(|a| a.player)
        .collect();
    assert!(!c10.is_empty(), "{:?}", e.reasons);
    assert!(e.reasons.iter().any(|r| r.starts_with("C.10 — topscorers")));
    recompute(&t, &e);
}

#[test]
fn fide_dutch_2025_c10_round_is_the_reference_engines_pairing_and_6_loses_on_c10() {
    // The last round of a generated tournament: 8 (due white, absolutely) plays 2 with white;
    // with 6 instead one topscorer or topscorer's opponent would end beyond +2 or -2.
    let (t, e) = explained("dutch_2025_C10_decided.trf", 11, 8);
    assert_eq!(
        e.outcome,
        Outcome::Game {
            opponent: 2,
            white: true
        }
    );
    let six = e.alternatives.iter().find(|a| a.player == 6).unwrap();
    assert_eq!(six.verdict, Verdict::Worse);
    assert_eq!(six.article.as_deref(), Some("FIDE Dutch 2025 C.10"));
    assert_eq!(
        (six.with_it.as_deref(), six.made.as_deref()),
        (Some("1"), Some("0"))
    );
    // The whole round as the reference engine paired it (board order and colours).
    let text =
        std::fs::read_to_string(format!("{REF_DIR}/dutch_2025_C10_decided.expected")).unwrap();
    let mut lines = text.lines();
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    let reference: Vec<(u32, u32)> = lines
        .take(n)
        .map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<u32>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    let made =
        optipair::engine::pair_round(&t, 11, SystemKind::Swiss, &Options::default()).unwrap();
    assert_eq!(made.pairing.games, reference);
    assert!(made.pairing.byes.is_empty());
}

#[test]
fn fide_dutch_2025_4_the_order_of_candidates_decides_between_equal_opponents() {
    // Round 2 of the C.12 fixture: 1 could have had 2 as well (equal on every criterion);
    // 3 would leave two players without their colour.
    let (t, e) = explained("dutch_2025_C12.trf", 2, 1);
    assert_eq!(
        e.outcome,
        Outcome::Game {
            opponent: 4,
            white: false
        }
    );
    assert_eq!(e.decided_by.as_deref(), Some("FIDE Dutch 2025 4"));
    let two = e.alternatives.iter().find(|a| a.player == 2).unwrap();
    assert_eq!(two.verdict, Verdict::Order);
    let three = e.alternatives.iter().find(|a| a.player == 3).unwrap();
    assert_eq!(three.article.as_deref(), Some("FIDE Dutch 2025 C.12"));
    assert_eq!(
        (three.with_it.as_deref(), three.made.as_deref()),
        (Some("2"), Some("0"))
    );
    recompute(&t, &e);
}

#[test]
fn fide_dutch_2025_c1_a_former_opponent_is_not_allowed_and_the_colour_rule_is_named() {
    let (t, e) = explained("dutch_2025_C13.trf", 4, 1);
    let met: Vec<u32> = e
        .alternatives
        .iter()
        .filter(|a| a.verdict == Verdict::NotAllowed)
        .map(|a| a.player)
        .collect();
    assert!(!met.is_empty());
    for m in &met {
        assert!(t.rounds.iter().any(|r| r
            .games
            .iter()
            .any(|g| { (g.white, g.black) == (1, *m) || (g.white, g.black) == (*m, 1) })));
    }
    // 5.2.2: the stronger preference; the verifier's allocation agrees on the colours.
    let c = e.colour.as_deref().unwrap();
    assert!(c.starts_with("FIDE Dutch 2025 5.2."), "{c}");
    assert_eq!(e.colour_rule.as_deref(), Some(&c[..21]));
    recompute(&t, &e);
}

#[test]
fn fide_dutch_2025_c5_the_bye_goes_to_the_lowest_score_and_the_others_are_recomputed() {
    // Player 3 has the pairing-allocated bye in round 6; each other player eligible for it
    // is tried with the bye forced on him.
    let (t, e) = explained("dutch_2025_C21.trf", 6, 3);
    assert_eq!(e.outcome, Outcome::Bye);
    assert!(
        e.decision.contains("decided who has the bye"),
        "{}",
        e.decision
    );
    assert!(e
        .alternatives
        .iter()
        .any(|a| a.article.as_deref() == Some("FIDE Dutch 2025 C.5")));
    recompute(&t, &e);
}

#[test]
fn explain_cli_text_json_and_one_printable_html_page_without_solver_words() {
    let f = format!("{REF_DIR}/dutch_2025_C13.trf");
    let o = run(&["explain", &f, "--round", "4", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let text = stdout(&o);
    assert!(
        text.contains("FIDE Dutch 2025 C.13 decided your opponent"),
        "{text}"
    );
    let o = run(&["explain", &f, "--round", "4", "2", "--format", "json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["decided_by"], "FIDE Dutch 2025 C.13");
    assert_eq!(v["outcome"]["kind"], "game");
    let o = run(&["explain", &f, "--round", "4", "2", "--format", "html"]);
    let html = stdout(&o);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("The rules quoted"));
    assert!(html
        .contains("FIDE Dutch 2025 C.13: players who do not get a colour they are strongly due"));
    for word in ["MDP", "tier", "solver", "matching", "LP", "dual", "HiGHS"] {
        assert!(
            !html.contains(word),
            "solver vocabulary '{word}' in the page"
        );
    }
    // A player named by name, and an unknown one refused with exit 2.
    let o = run(&["explain", &f, "--round", "4", "Test0001 Player0001"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let o = run(&["explain", &f, "--round", "4", "99"]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
}

#[test]
fn a_swap_with_a_former_opponent_is_refused_and_a_legal_one_costs_a_criterion() {
    let t = load("dutch_2025_C13.trf");
    let made = optipair::engine::pair_round(&t, 4, SystemKind::Swiss, &Options::default()).unwrap();
    let (w0, b0) = made.pairing.games[0];
    let mut legal = 0;
    let mut refused = 0;
    for &(w, _) in &made.pairing.games[1..] {
        let s = explain::swap(&t, 4, SystemKind::Swiss, w0, w, &Options::default()).unwrap();
        let field = t.before_round(4);
        let st = dutch::state::RoundState::new(&field, 4);
        let bar = |x: u32, y: u32| st.bar(st.index_of(x).unwrap(), st.index_of(y).unwrap());
        let expected = bar(w0, s.b_opponent).is_none() && bar(w, s.a_opponent).is_none();
        assert_eq!(s.allowed, expected, "{}", s.first);
        assert_eq!(s.a_opponent, b0);
        if s.allowed {
            legal += 1;
            // The Dutch pairing is optimal: a legal swap loses somewhere, and the first
            // changed criterion is the verifier's first difference.
            let swapped = dutch::compare(&field, 4, &s.pairing, &made_pairing(&made));
            match swapped {
                Comparison::Criterion {
                    article,
                    a_better: false,
                    ..
                } => {
                    assert!(s.rows.iter().any(|r| r.article == article), "{:?}", s.rows);
                    assert!(s.first.contains(&article));
                }
                Comparison::Order { a_first: false, .. } => assert!(s.first.contains("order")),
                other => panic!("a swap better than the Dutch pairing? {other}"),
            }
        } else {
            refused += 1;
            assert!(s.refusals.iter().all(|r| r.contains("FIDE Dutch 2025 C.")));
        }
    }
    assert!(legal + refused > 0);
    let f = format!("{REF_DIR}/dutch_2025_C13.trf");
    let (a, b) = (w0.to_string(), made.pairing.games[1].0.to_string());
    let o = run(&["explain", &f, "--round", "4", "--swap", &a, &b]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(stdout(&o).contains("First difference"), "{}", stdout(&o));
}

/// The library names a request parameter without a command-line spelling; the command line
/// names it as its users type it.
#[test]
fn a_swap_of_two_opponents_names_the_swap_as_asked_for() {
    let t = load("dutch_2025_C13.trf");
    let made = optipair::engine::pair_round(&t, 4, SystemKind::Swiss, &Options::default()).unwrap();
    let (w0, b0) = made.pairing.games[0];
    let e = explain::swap(&t, 4, SystemKind::Swiss, w0, b0, &Options::default()).unwrap_err();
    assert!(
        e.to_string().contains("field swap") && !e.to_string().contains("--"),
        "{e}"
    );
    let f = format!("{REF_DIR}/dutch_2025_C13.trf");
    let (a, b) = (w0.to_string(), b0.to_string());
    let o = run(&["explain", &f, "--round", "4", "--swap", &a, &b]);
    assert_eq!(o.status.code(), Some(2), "{}", describe(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("field --swap: ") && err.contains("play each other"),
        "{err}"
    );
}

fn made_pairing(p: &optipair::engine::Paired) -> dutch::Pairing {
    dutch::Pairing {
        games: p.pairing.games.clone(),
        bye: p.pairing.byes.first().copied(),
    }
}

#[test]
fn the_engine_line_writes_the_certificate_beside_an_unchanged_pairing() {
    let dir = Scratch::new("engine-cert");
    let input = dir.copy(
        std::path::Path::new(&format!("{REF_DIR}/dutch_2025_C13.trf")),
        "in.trf",
    );
    let (plain, with) = (dir.path("plain.txt"), dir.path("with.txt"));
    let cert = dir.path("cert.json");
    let o = run(&["--dutch", p(&input), "-p", p(&plain)]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let o = run(&[
        "--dutch",
        p(&input),
        "-p",
        p(&with),
        "--certificate",
        p(&cert),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert_eq!(
        std::fs::read(&plain).unwrap(),
        std::fs::read(&with).unwrap()
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    assert_eq!(v["round"], 4);
    assert_eq!(v["dutch_pairing"], true);
    assert!(v["certificate"]["status"].is_string());
    assert!(v["violations"].as_array().unwrap().is_empty());
    // Without -p, or into the pairing file itself: an invalid request.
    let o = run(&["--dutch", p(&input), "-c", "--certificate", p(&cert)]);
    assert_eq!(o.status.code(), Some(3), "{}", describe(&o));
    let o = run(&[
        "--dutch",
        p(&input),
        "-p",
        p(&with),
        "--certificate",
        p(&with),
    ]);
    assert_ne!(o.status.code(), Some(0), "{}", describe(&o));
}

#[test]
fn standings_json_never_prints_a_negative_zero() {
    // A tie-break of cancelled terms came out as -0.0 in this round's standings.
    let f = format!("{REF_DIR}/dutch_2025_C5.trf");
    let o = run(&["standings", &f, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    assert!(!stdout(&o).contains("-0.0"), "{}", stdout(&o));
}

/// A generated event of `system` with `played` rounds played (deterministic by seed).
fn generated(system: &str, players: &str, rounds: &str, played: &str) -> Tournament {
    generated_with(system, players, rounds, played, "5")
}

fn generated_with(
    system: &str,
    players: &str,
    rounds: &str,
    played: &str,
    seed: &str,
) -> Tournament {
    let s = crate::common::cli::Scratch::new(&format!("explain-{system}"));
    let out = s.path("event.json");
    let o = run(&[
        "generate",
        "--system",
        system,
        "--players",
        players,
        "--rounds",
        rounds,
        "--played",
        played,
        "--seed",
        seed,
        "--out",
        p(&out),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    formats::load(&out).unwrap()
}

/// Every player's explanation of round `round` under `system`, with his colour.
fn colours_explained(t: &Tournament, round: u32, system: SystemKind) -> Vec<(Explanation, bool)> {
    let opts = Options::default();
    t.players
        .iter()
        .filter_map(|pl| explain::explain(t, round, system, pl.id, &opts).ok())
        .filter_map(|e| match e.outcome {
            Outcome::Game { white, .. } => Some((e, white)),
            _ => None,
        })
        .collect()
}

/// US Chess 29E3's due colour, recomputed from the games: equalise, else alternate.
fn due_29e3(t: &Tournament, round: u32, id: u32) -> Option<optipair::tournament::Colour> {
    use optipair::tournament::Colour;
    let mut played = Vec::new();
    for r in t.rounds.iter().filter(|r| r.number < round) {
        for g in r.games.iter().filter(|g| !g.result.is_forfeit()) {
            if g.white == id {
                played.push(Colour::White);
            } else if g.black == id {
                played.push(Colour::Black);
            }
        }
    }
    let d: i32 = played.iter().map(|c| c.sign()).sum();
    match d {
        d if d > 0 => Some(Colour::Black),
        d if d < 0 => Some(Colour::White),
        _ => played.last().map(|c| c.opposite()),
    }
}

#[test]
fn us_chess_29e_explains_each_colour_by_the_clause_that_gave_it() {
    use optipair::tournament::Colour;
    let t = generated("uscf", "12", "6", "3");
    let all = colours_explained(&t, 4, SystemKind::Uscf);
    assert!(all.len() >= 10, "{} explained", all.len());
    for (e, white) in &all {
        let rule = e.colour_rule.as_deref().expect("a colour rule");
        let text = e.colour.as_deref().unwrap();
        let Outcome::Game { opponent, .. } = e.outcome else {
            unreachable!()
        };
        let (mine, theirs) = (due_29e3(&t, 4, e.player), due_29e3(&t, 4, opponent));
        let got = if *white { Colour::White } else { Colour::Black };
        match rule {
            // Each got his due colour: the player's is the one he is due, or the opponent's.
            "US Chess 29E3" => assert!(
                mine == Some(got) || theirs == Some(got.opposite()),
                "{}: {text}",
                e.player
            ),
            // Both were due the same colour: 29E4 decides between them.
            "US Chess 29E4" => assert!(mine.is_some() && mine == theirs, "{}: {text}", e.player),
            "US Chess 29E2" => assert!(mine.is_none() && theirs.is_none(), "{text}"),
            other => panic!("{}: colour by {other}: {text}", e.player),
        }
        assert!(text.contains(rule), "{text}");
        assert_eq!(text.matches("US Chess").count(), 1, "one citation: {text}");
    }
}

#[test]
fn scrabble_first_and_second_cite_tsh07_and_nsc06_and_the_balance_decides() {
    for (system, kind, article, players, rounds, played) in [
        (
            "tsh-cp",
            SystemKind::TshCp,
            "TSH07 first/second",
            "12",
            "8",
            "4",
        ),
        (
            "nsc2006",
            SystemKind::Nsc2006,
            "NSC06 firsts balanced",
            "20",
            "28",
            "9",
        ),
    ] {
        let round: u32 = played.parse::<u32>().unwrap() + 1;
        let t = generated(system, players, rounds, played);
        let st = optipair::tournament::Standings::before(&t, round);
        let balance = |id: u32| {
            let (f, s) = st.get(id).unwrap().firsts_seconds();
            i64::from(f) - i64::from(s)
        };
        let all = colours_explained(&t, round, kind);
        assert!(!all.is_empty(), "{system}");
        for (e, first) in &all {
            let text = e.colour.as_deref().expect("who goes first");
            assert_eq!(e.colour_rule.as_deref(), Some(article), "{system}: {text}");
            let Outcome::Game { opponent, .. } = e.outcome else {
                unreachable!()
            };
            let (me, them) = (balance(e.player), balance(opponent));
            // The player with fewer firsts than seconds goes first, unless the text says
            // another rule took precedence.
            if me != them && !text.contains("took precedence") {
                assert_eq!(*first, me < them, "{system} {}: {text}", e.player);
            }
            assert!(
                text.contains(&format!("yours {me}")) || me == them,
                "{text}"
            );
        }
    }
}

/// A Scrabble player reads his game in Scrabble's words: going first or second, his firsts and
/// seconds so far and his group — no colours, brackets or floats (TSH07 first/second, NSC06
/// firsts balanced).
#[test]
fn scrabble_explanations_speak_of_first_and_second_not_colours() {
    for (system, kind, players, rounds, played) in [
        ("tsh-cp", SystemKind::TshCp, "12", "8", "4"),
        ("nsc2006", SystemKind::Nsc2006, "20", "28", "9"),
    ] {
        let round: u32 = played.parse::<u32>().unwrap() + 1;
        let t = generated(system, players, rounds, played);
        for (e, first) in colours_explained(&t, round, kind) {
            let text = explain::text(&e, &t);
            let going = if first { "going first" } else { "going second" };
            let head = text.lines().next().unwrap();
            assert!(head.contains(going), "{system}: {head}");
            let stood: String = text
                .split("Where you stood")
                .nth(1)
                .and_then(|s| s.split("Why this pairing").next())
                .unwrap()
                .to_lowercase();
            for word in ["white", "black", "colour", "bracket", "float"] {
                assert!(!stood.contains(word), "{system}: '{word}' in {stood}");
            }
            assert!(stood.contains("games so far"), "{system}: {stood}");
        }
    }
}

#[test]
fn ecf_round_one_colour_is_ecf_2_and_baku_prog_colours_are_the_dutch_allocation() {
    let t = generated("ecf-basic", "16", "6", "0");
    let all = colours_explained(&t, 1, SystemKind::EcfBasic);
    assert!(!all.is_empty());
    for (e, _) in &all {
        assert_eq!(
            e.colour_rule.as_deref(),
            Some("ECF basic 2"),
            "{:?}",
            e.colour
        );
        assert!(e.colour.as_deref().unwrap().contains("decided by lot"));
    }
    let prog = formats::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/prog/prog_floats_by_pairing_score.trf"
    )))
    .unwrap();
    for (system, kind) in [("baku", SystemKind::Baku), ("prog", SystemKind::Prog)] {
        let t = if kind == SystemKind::Prog {
            prog.clone()
        } else {
            generated(system, "16", "7", "3")
        };
        let round = if kind == SystemKind::Prog {
            t.last_paired_round()
        } else {
            4
        };
        let all = colours_explained(&t, round, kind);
        assert!(!all.is_empty(), "{system}");
        for (e, _) in &all {
            let rule = e.colour_rule.as_deref().unwrap_or("none");
            assert!(rule.starts_with("FIDE Dutch 2025 5.2."), "{system}: {rule}");
        }
    }
}

#[test]
fn no_sentence_of_an_explanation_says_a_thing_twice() {
    // Round 9 of C10 and round 4 of C13: criteria decide, and the order of candidates.
    for (name, round, players) in [
        ("dutch_2025_C10.trf", 9, [6, 1, 2]),
        ("dutch_2025_C13.trf", 4, [1, 2, 3]),
        ("dutch_2025_4.2_transposition.trf", 0, [1, 2, 3]),
    ] {
        let t = load(name);
        let round = if round == 0 {
            t.last_paired_round()
        } else {
            round
        };
        for p in players {
            let Ok(e) = explain::explain(&t, round, SystemKind::Swiss, p, &Options::default())
            else {
                continue;
            };
            let text = explain::text(&e, &t);
            for line in text.lines() {
                for phrase in ["every criterion", "order of candidates", "as good"] {
                    assert!(
                        line.matches(phrase).count() <= 1,
                        "{name} {round} {p}: '{phrase}' twice in: {line}"
                    );
                }
                for k in 1..=21 {
                    let art = format!("FIDE Dutch 2025 C.{k} ");
                    assert!(line.matches(&art).count() <= 1, "cited twice: {line}");
                }
            }
        }
    }
}

/// Pages in a PDF: its `/Type /Page` objects (not `/Pages`).
fn pdf_pages(bytes: &[u8]) -> usize {
    let text = String::from_utf8_lossy(bytes);
    text.match_indices("/Type")
        .filter(|(i, _)| {
            let rest = text[i + 5..].trim_start();
            rest.starts_with("/Page") && !rest.starts_with("/Pages")
        })
        .count()
}

#[test]
fn the_explanation_page_renders_in_chromium_on_one_a4_sheet_in_plain_words() {
    use crate::common::browser::{chromium, screenshot};
    let dir = crate::common::cli::Scratch::new("explain-html");
    let f = format!("{REF_DIR}/dutch_2025_C13.trf");
    let o = run(&["explain", &f, "--round", "4", "1", "--format", "html"]);
    assert_eq!(o.status.code(), Some(0), "{}", describe(&o));
    let html = stdout(&o);
    let page = dir.write("explain.html", &html);
    // The visible text (tags stripped) carries no solver vocabulary.
    let mut text = String::new();
    let mut in_tag = false;
    for ch in html.split("</style>").last().unwrap().chars() {
        match ch {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    for word in [" dual", " LP", "tier", "odd-set", "solver"] {
        assert!(!text.contains(word), "'{word}' in: {text}");
    }
    let Some(chrome) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have chromium (apt-get install -y chromium)"
        );
        eprintln!("chromium not installed: screenshot skipped");
        return;
    };
    // A4 at 96 dpi is 794 × 1123 pixels: the screenshot of one page's height.
    let png = dir.path("explain.png");
    let bytes = screenshot(&chrome, &page, &png, &dir.path("profile"), (794, 1123));
    assert!(
        bytes.len() > 20_000,
        "screenshot only {} bytes",
        bytes.len()
    );
    let pdf = dir.path("explain.pdf");
    let print = std::process::Command::new(&chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", dir.path("profile").display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(print.status.success(), "{}", stderr(&print));
    let pages = pdf_pages(&std::fs::read(&pdf).unwrap());
    assert_eq!(pages, 1, "printed on {pages} A4 pages");
}

#[test]
fn fide_dutch_2025_c6_a_two_player_bracket_still_compares_the_opponents_outside_it() {
    // Round 4 of this event: players 1 and 3, alone on 3 points, meet. Any other opponent
    // floats someone: each is tried (nearest in rank outside the bracket) and recomputed.
    let t = generated_with("swiss", "16", "7", "3", "7");
    let e = explain::explain(&t, 4, SystemKind::Swiss, 1, &Options::default()).unwrap();
    assert_eq!(
        e.outcome,
        Outcome::Game {
            opponent: 3,
            white: false
        }
    );
    assert_eq!(e.alternatives.len(), explain::CLOSEST);
    assert_eq!(
        e.decided_by.as_deref(),
        Some("FIDE Dutch 2025 C.6"),
        "{}",
        e.decision
    );
    assert!(!e.decision.contains("nobody else"), "{}", e.decision);
    recompute(&t, &e);
}

#[test]
fn us_chess_the_closest_other_choice_is_the_one_lost_on_the_latest_tier() {
    // Tier systems: each reason names its tier in words, the reasons follow the tiers'
    // order, and the rule said to decide is the latest tier an alternative loses on.
    let t = generated("uscf-thirds", "16", "7", "3");
    let opts = Options::default();
    let mut decided = 0;
    for pl in &t.players {
        let Ok(e) = explain::explain(&t, 4, SystemKind::UscfThirds, pl.id, &opts) else {
            continue;
        };
        for r in &e.reasons {
            assert!(!r.contains(" — :"), "a reason without its words: {r}");
        }
        let worse: Vec<&explain::Alternative> = e
            .alternatives
            .iter()
            .filter(|a| a.verdict == Verdict::Worse)
            .collect();
        let Some(latest) = worse.iter().filter_map(|a| a.tier).max() else {
            continue;
        };
        let art = worse
            .iter()
            .find(|a| a.tier == Some(latest))
            .and_then(|a| a.article.clone());
        assert_eq!(e.decided_by, art, "{}: {}", pl.id, e.decision);
        let order: Vec<usize> = e
            .reasons
            .iter()
            .filter_map(|r| {
                worse
                    .iter()
                    .find(|a| r.starts_with(a.article.as_deref().unwrap_or("-")))
                    .and_then(|a| a.tier)
            })
            .collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]), "{:?}", e.reasons);
        decided += 1;
    }
    assert!(decided >= 4, "{decided} explanations decided by a tier");
}

#[test]
fn tsh07_trf_2026_260_explain_recomputes_each_other_opponent_with_the_pair_forced() {
    // tsh-cp keeps forbidden pairs apart (TRF-2026 260), so explain forces another opponent
    // (every other partner of the two barred) and re-pairs the round. Each recomputed claim is
    // checked: the forced round pairs the two and verifies clean, and it first differs from
    // the pairing made on the tier explain names, by the values it names.
    let t = generated("tsh-cp", "12", "8", "4");
    let opts = Options::default();
    let made = optipair::engine::pair_round(&t, 5, SystemKind::TshCp, &opts).unwrap();
    let mine = &made.pairing.certificate.tiers;
    let mut recomputed = 0;
    for pl in &t.players {
        let Ok(e) = explain::explain(&t, 5, SystemKind::TshCp, pl.id, &opts) else {
            continue;
        };
        if !matches!(e.outcome, Outcome::Game { .. }) {
            continue;
        }
        for a in &e.alternatives {
            if !matches!(a.verdict, Verdict::Worse | Verdict::Order) {
                continue;
            }
            let forced = explain::forced(&t, 5, pl.id, Some(a.player)).unwrap();
            let p = optipair::engine::pair_round(&forced, 5, SystemKind::TshCp, &opts).unwrap();
            assert!(p.is_clean(), "{} v {}: {:?}", pl.id, a.player, p.violations);
            let theirs = [pl.id.min(a.player), pl.id.max(a.player)];
            assert!(p
                .pairing
                .games
                .iter()
                .any(|&(w, b)| [w.min(b), w.max(b)] == theirs));
            let tiers = &p.pairing.certificate.tiers;
            let first = mine.iter().zip(tiers).position(|(m, o)| m.value != o.value);
            assert_eq!(first, a.tier, "{} v {}: {}", pl.id, a.player, a.sentence);
            if let Some(k) = first {
                assert_eq!(a.verdict, Verdict::Worse);
                assert_eq!(a.with_it, Some(tiers[k].value.to_string()));
                assert_eq!(a.made, Some(mine[k].value.to_string()));
            }
            recomputed += 1;
        }
    }
    assert!(recomputed > 0, "no alternative recomputed");
}
