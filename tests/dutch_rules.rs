//! The independent FIDE Dutch 2025 oracle (`optipair::verify::dutch`) against the text and
//! the reference engine: golden rounds named by article, every recorded round of small
//! reference tournaments, and `compare` on pairings degraded on purpose.
//!
//! Fixtures live in `tests/data/dutch/`: `dutch_2025_<article>.trf` is a tournament before
//! the round to pair (rounds planned set), `.expected` beside it the reference engine's
//! pairing of that round (`bbpPairings --dutch FILE -p`, 2025 rules), and `rtg_*.trf` are
//! whole reference tournaments. Nothing here runs the engine under `src/systems`.

use optipair::tournament::{Bye, ByeKind, Game, GameResult, Player, Round, Tournament};
use optipair::verify::dutch::{self, state::Float, Comparison, Pairing};
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/dutch")
        .join(name)
}

fn load(name: &str) -> Tournament {
    let mut t = optipair::formats::load(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    if t.rounds_planned.is_none() {
        t.rounds_planned = t.rounds.iter().map(|r| r.number).max();
    }
    t
}

/// `bbpPairings -p` output: the number of pairs, then `WHITE BLACK` per board (`ID 0` a bye).
fn expected(name: &str) -> Pairing {
    let text = std::fs::read_to_string(data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut p = Pairing::default();
    for line in text.lines().skip(1) {
        let v: Vec<u32> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        match v.as_slice() {
            [b, 0] => p.bye = Some(*b),
            [w, b] => p.games.push((*w, *b)),
            _ => {}
        }
    }
    p
}

/// A pairing written `1-2 3-4 bye 5` (white first).
fn parse(text: &str) -> Pairing {
    let mut p = Pairing::default();
    let mut it = text.split_whitespace();
    while let Some(w) = it.next() {
        if w == "bye" {
            p.bye = it.next().map(|x| x.parse().unwrap());
        } else {
            let (a, b) = w.split_once('-').unwrap();
            p.games.push((a.parse().unwrap(), b.parse().unwrap()));
        }
    }
    p
}

/// What a golden round shows: the fixture, the round it pairs, a pairing one change away
/// from the Dutch one, and the article on which that change is worse (or the step of
/// article 4 that puts it later).
struct Golden {
    name: &'static str,
    round: u32,
    worse: &'static str,
    article: &'static str,
}

const GOLDEN: &[Golden] = &[
    // 9 had the PAB in round 1: a downfloat (1.4.3, the PAB scores more than a loss without
    // playing). In bracket 3 (score 1, MDP 4) one resident must float: floating 2 rather than 9
    // spares a resident who downfloated two rounds before (C.16); nothing above C.16 differs.
    Golden {
        name: "1.4.3",
        round: 3,
        worse: "1-3 5-2 7-4 9-8 bye 6",
        article: "FIDE Dutch 2025 C.16",
    },
    // 4 (colours B, CD -1) wants white, 1 (W, CD +1) black: both preferences are granted (5.2.1).
    Golden {
        name: "5.2.1",
        round: 2,
        worse: "1-4 2-3 5-8 7-6",
        article: "FIDE Dutch 2025 5.2.1",
    },
    // 3 (B W W: absolute) and 4 (W B W: strong) both want black: the stronger preference is
    // granted (5.2.2), 4 gets white.
    Golden {
        name: "5.2.2",
        round: 4,
        worse: "1-2 3-4 5-7 6-8",
        article: "FIDE Dutch 2025 5.2.2",
    },
    // 1 (W B W B W) and 8 (W B W W B) both strongly want black; their latest games differ (1
    // white, 8 black): alternating from them gives 8 white (5.2.3).
    Golden {
        name: "5.2.3",
        round: 6,
        worse: "1-8 7-2 6-3 5-4",
        article: "FIDE Dutch 2025 5.2.3",
    },
    // 1 (3 points) and 3 (2.5) both had W B W and strongly want black: nothing tells them apart
    // before 5.2.4, the higher-ranked 1 gets his preference, 3 white.
    Golden {
        name: "5.2.4",
        round: 4,
        worse: "1-3 5-2 4-7 8-6",
        article: "FIDE Dutch 2025 5.2.4",
    },
    // Round 1, no preferences: the higher-ranked 1 has an odd number and takes the initial
    // colour, white (5.2.5, XXC white1).
    Golden {
        name: "5.2.5",
        round: 1,
        worse: "5-1 6-2 3-7 8-4",
        article: "FIDE Dutch 2025 5.2.5",
    },
    // Bracket 2 (score 1.5): MDP 1 with residents 2 and 3, who met in round 1 (C.1): 1-2 and 3
    // floats; 3-2 would be a rematch.
    Golden {
        name: "C1",
        round: 3,
        worse: "1-4 3-2 6-5 8-7",
        article: "FIDE Dutch 2025 C.1",
    },
    // Last round (topscorers, 1.8). In bracket 6 the MDP-pairing 2-10 would give a topscorer's
    // opponent his third colour in a row (C.11); 6-2 and 4-10 do not. C.5-C.10 equal.
    Golden {
        name: "C11",
        round: 6,
        worse: "1-7 2-10 3-5 6-4 8-9",
        article: "FIDE Dutch 2025 C.11",
    },
    // Bracket 1 (score 1): 1 and 3 (both had white) want black, 2 and 4 white: 4-1 2-3 grants all
    // four preferences, 1-3 4-2 denies two (C.12).
    Golden {
        name: "C12",
        round: 2,
        worse: "1-3 4-2 5-8 7-6",
        article: "FIDE Dutch 2025 C.12",
    },
    // Bracket 2: MDPs 1, 2 and residents 4, 5; one pair, one preference lost either way (C.12
    // equal), but 2-4 denies a strong preference where 5-2 denies a mild one (C.13).
    Golden {
        name: "C13",
        round: 4,
        worse: "3-1 2-4 5-7 6-8",
        article: "FIDE Dutch 2025 C.13",
    },
    // Bracket 2 (score 2): one resident floats with MDP 1; 5 downfloated in round 3, 4 did not:
    // floating 4 (C.14).
    Golden {
        name: "C14",
        round: 4,
        worse: "1-7 2-4 8-3 5-6",
        article: "FIDE Dutch 2025 C.14",
    },
    // Bracket 3: MDP 5 faces a resident; 4 upfloated in the previous round, 7 did not: 5-7
    // (C.15).
    Golden {
        name: "C15",
        round: 4,
        worse: "3-1 2-7 5-4 8-6",
        article: "FIDE Dutch 2025 C.15",
    },
    // Bracket 3: MDP 5 takes one of 2 and 7, the other floats; 7 downfloated two rounds before, 2
    // did not: 2 floats (C.16).
    Golden {
        name: "C16",
        round: 4,
        worse: "1-3 5-2 6-4 7-8",
        article: "FIDE Dutch 2025 C.16",
    },
    // Bracket 4: MDP 3 faces 9 rather than 6, who upfloated two rounds before (C.17).
    Golden {
        name: "C17",
        round: 4,
        worse: "4-1 2-5 3-6 9-7 bye 8",
        article: "FIDE Dutch 2025 C.17",
    },
    // Bracket 4: MDPs 2, 3, 4, one of them paired; 2 downfloated last round and floating him on
    // again counts above any difference in the bracket (C.18): 6-2, and 3 and 4 float.
    Golden {
        name: "C18",
        round: 6,
        worse: "1-5 2-9 6-3 4-10 8-7",
        article: "FIDE Dutch 2025 C.18",
    },
    // Bracket 5: MDPs 1 (3 points) and 4 face residents 6 and 7 (1.5); 6 upfloated last round:
    // facing 6 with the lower MDP keeps his score difference at 0.5, not 1.5 (C.19).
    Golden {
        name: "C19",
        round: 5,
        worse: "6-1 5-2 8-3 7-4",
        article: "FIDE Dutch 2025 C.19",
    },
    // 7 had the PAB in round 2 (C.04.1 4): the PAB goes to 4, not 7 (C.2).
    Golden {
        name: "C2",
        round: 5,
        worse: "1-2 5-3 9-4 8-6 bye 7",
        article: "FIDE Dutch 2025 C.2",
    },
    // Bracket 5: MDPs 2, 4, 5 and resident 7; 5 downfloated two rounds before (round 5): 7-5,
    // since floating 5 on counts above any difference in the bracket (C.20).
    Golden {
        name: "C20",
        round: 7,
        worse: "1-6 2-8 9-3 7-4 bye 5",
        article: "FIDE Dutch 2025 C.20",
    },
    // Bracket 5: 5 upfloated two rounds before (round 4); he faces MDP 6, half a point above him,
    // rather than MDP 2, 1.5 above (C.21).
    Golden {
        name: "C21",
        round: 6,
        worse: "1-7 5-2 4-9 8-6 bye 3",
        article: "FIDE Dutch 2025 C.21",
    },
    // Bracket 4: 3 and 6, non-topscorers, both have an absolute preference for the same colour:
    // they may not meet (C.3); 6-1 and 3 floats.
    Golden {
        name: "C3",
        round: 6,
        worse: "1-8 5-2 6-3 4-7",
        article: "FIDE Dutch 2025 C.3",
    },
    // Bracket 5 (score 1): 4, 6, 7, one floats. Floating 7 leaves the rest unpairable (C.4); 4-7
    // and 6 floats.
    Golden {
        name: "C4",
        round: 4,
        worse: "3-1 5-2 4-6 7-8",
        article: "FIDE Dutch 2025 C.4",
    },
    // Bracket 2 (4, 8, who met) floats both into the last bracket; the PAB then goes to a 0-point
    // player (7), not MDP 4 on 0.5: the lowest PAB score (C.5) comes before C.6-C.21.
    Golden {
        name: "C5",
        round: 2,
        worse: "9-1 2-3 5-8 7-6 bye 4",
        article: "FIDE Dutch 2025 C.5",
    },
    // Bracket 1 (score 1) pairs all four (4-1 2-3); 1-8 4-5 would float two (C.6).
    Golden {
        name: "C6",
        round: 2,
        worse: "1-8 2-3 4-5 7-6",
        article: "FIDE Dutch 2025 C.6",
    },
    // Bracket 3 (score 2): MDP 1 (3.5) with residents 4 and 6; one player floats: a resident with
    // 2 points, not the MDP with 3.5 (C.7).
    Golden {
        name: "C7",
        round: 5,
        worse: "1-7 2-8 5-3 4-6",
        article: "FIDE Dutch 2025 C.7",
    },
    // Bracket 4 floats 1, 2 and one of 5, 8; floating 8 lets the next bracket float a 2-point
    // player, floating 5 a 5-point one (C.8: the following bracket's downfloaters and scores).
    Golden {
        name: "C8",
        round: 6,
        worse: "1-7 4-2 3-8 5-6",
        article: "FIDE Dutch 2025 C.8",
    },
    // Last bracket (score 0) floats one player, the PAB assignee: 7 has played every round, 8 has
    // an unplayed round (forfeit): 7 gets the PAB (C.9).
    Golden {
        name: "C9",
        round: 2,
        worse: "4-1 2-9 5-3 7-6 bye 8",
        article: "FIDE Dutch 2025 C.9",
    },
    // Bracket 3: three MDPs, one is paired with resident 5; equal on every criterion, the MDP
    // sets come in order of their smallest differing BSN (4.4): {1} before {4}.
    Golden {
        name: "4.4_mdp_set",
        round: 5,
        worse: "1-6 2-7 8-3 4-5",
        article: "MDP set (FIDE Dutch 2025 4.4)",
    },
    // Round 1, all equal on every criterion: 1-2 needs an exchange between S1 and S2, which comes
    // after every transposition of the original S1/S2 (4.3).
    Golden {
        name: "4.3_exchange",
        round: 1,
        worse: "1-2 3-7 8-4 6-5",
        article: "resident exchange (FIDE Dutch 2025 4.3)",
    },
    // Round 1: S1 = 1-4, S2 = 5-8; the identity transposition (1-5, 2-6, ...) comes first (4.2);
    // 1-6 5-2 is a later transposition.
    Golden {
        name: "4.2_transposition",
        round: 1,
        worse: "1-6 5-2 3-7 8-4",
        article: "transposition (FIDE Dutch 2025 4.2)",
    },
    // Bracket 3: MDP 3 faces residents in S2 order: 4 before 5 (4.2), the remainder then 5-6.
    Golden {
        name: "4.2_mdp_transposition",
        round: 3,
        worse: "1-2 3-5 6-4 8-7",
        article: "transposition of S2 facing the MDPs (FIDE Dutch 2025 4.2)",
    },
    // Last round: in bracket 5, 2-12 would give a topscorer (or his opponent) a colour difference
    // beyond 2 (C.10); 2-10 does not.
    Golden {
        name: "C10",
        round: 9,
        worse: "1-4 2-12 3-7 9-5 10-6 13-8 21-11 22-14 19-15 18-16 17-20",
        article: "FIDE Dutch 2025 C.10",
    },
    // Virtual points (XXA, acceleration): the top half has one extra point in rounds 1-2.
    // Scores, brackets and the floats of round 2 are pairing scores with them (1.2, 1.4.2).
    Golden {
        name: "virtual_points",
        round: 3,
        worse: "",
        article: "",
    },
    // 5 played round 1 and is absent from round 2 on (TRF records a withdrawal as absences,
    // C.04.2): not paired; the rest as the reference engine pairs it.
    Golden {
        name: "withdrawal",
        round: 2,
        worse: "",
        article: "",
    },
    // 10 enters in round 2 (absent in round 1, C.04.2 late entry: 0 points, one unplayed round,
    // no colour history): paired in the 0-point group like any other.
    Golden {
        name: "late_entry",
        round: 2,
        worse: "",
        article: "",
    },
];

fn assert_golden(g: &Golden) {
    let t = load(&format!("dutch_2025_{}.trf", g.name));
    let want = expected(&format!("dutch_2025_{}.expected", g.name));
    let got = dutch::brute_force(&t, g.round).unwrap_or_else(|| panic!("{}: no pairing", g.name));
    assert_eq!(
        got.normalised(),
        want.normalised(),
        "{}: brute force {} but the reference engine {}",
        g.name,
        got.text(),
        want.text()
    );
    let reports = dutch::criteria(&t, g.round, &want).unwrap();
    for r in &reports {
        assert!(r.violations.is_empty(), "{}: {:?}", g.name, r.violations);
        for c in &r.colours {
            assert!(c.ok(), "{}: colours {c:?}", g.name);
        }
    }
    if g.worse.is_empty() {
        return;
    }
    let worse = parse(g.worse);
    let c = dutch::compare(&t, g.round, &want, &worse);
    let named = match &c {
        Comparison::Criterion {
            article,
            a_better: true,
            ..
        } => article.as_str(),
        Comparison::Colours {
            article,
            a_better: true,
            ..
        } => article.as_str(),
        Comparison::Order {
            a_first: true,
            step,
            ..
        } => step,
        other => panic!("{}: {other}", g.name),
    };
    assert_eq!(named, g.article, "{}: {c}", g.name);
    // And the other way round.
    let back = dutch::compare(&t, g.round, &worse, &want);
    assert!(
        matches!(
            back,
            Comparison::Criterion {
                a_better: false,
                ..
            } | Comparison::Colours {
                a_better: false,
                ..
            } | Comparison::Order { a_first: false, .. }
        ),
        "{}: {back}",
        g.name
    );
}

#[test]
fn golden_rounds_named_by_article() {
    for g in GOLDEN {
        assert_golden(g);
    }
}

/// Reference tournaments copied here: every recorded round is THE Dutch pairing.
const REFERENCE: &[&str] = &[
    "rtg_1001_16p_5r.trf",
    "rtg_1012_16p_10r.trf",
    "rtg_1023_16p_8r.trf",
    "rtg_1002_21p_8r.trf",
    "rtg_1013_21p_6r.trf",
    "rtg_1024_21p_11r.trf",
];

fn agreement(files: &[&str]) -> (usize, usize, Vec<String>) {
    let (mut same, mut tried) = (0, 0);
    let mut diffs = Vec::new();
    for f in files {
        let t = load(f);
        for rd in t.rounds.iter().filter(|r| r.is_paired()) {
            let k = rd.number;
            let before = t.before_round(k);
            let Some(got) = dutch::brute_force(&before, k) else {
                continue;
            };
            tried += 1;
            let rec = Pairing::recorded(&t, k).unwrap();
            if got.normalised() == rec.normalised() {
                same += 1;
            } else {
                diffs.push(format!(
                    "{f} round {k}: {}",
                    dutch::compare(&before, k, &rec, &got)
                ));
            }
        }
    }
    (same, tried, diffs)
}

#[test]
fn brute_force_is_every_recorded_reference_round() {
    let (same, tried, diffs) = agreement(REFERENCE);
    assert_eq!(tried, 48, "rounds the brute force took on");
    assert_eq!(same, tried, "{diffs:#?}");
}

#[test]
fn brute_force_is_every_round_of_generated_tournaments() {
    let mut files: Vec<String> = std::fs::read_dir(data("generated"))
        .unwrap()
        .map(|e| format!("generated/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    files.sort();
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let (same, tried, diffs) = agreement(&names);
    assert!(tried > 100, "only {tried} rounds tried");
    assert_eq!(same, tried, "{diffs:#?}");
}

#[test]
fn compare_finds_nothing_between_a_pairing_and_itself() {
    for f in REFERENCE {
        let t = load(f);
        for rd in t.rounds.iter().filter(|r| r.is_paired()) {
            let k = rd.number;
            let before = t.before_round(k);
            let p = Pairing::recorded(&t, k).unwrap();
            assert_eq!(dutch::compare(&before, k, &p, &p), Comparison::Identical);
            // Board order does not matter.
            let mut q = p.clone();
            q.games.reverse();
            assert_eq!(dutch::compare(&before, k, &p, &q), Comparison::Identical);
        }
    }
}

#[test]
fn compare_finds_the_criterion_of_a_degraded_pairing() {
    let t = load("rtg_1001_16p_5r.trf");
    for k in 2..=5 {
        let before = t.before_round(k);
        let p = Pairing::recorded(&t, k).unwrap();
        // Two boards swap partners: never better than the Dutch pairing.
        let mut q = p.clone();
        let (a, b) = q.games[0];
        let (c, d) = q.games[1];
        q.games[0] = (a, d);
        q.games[1] = (c, b);
        let cmp = dutch::compare(&before, k, &p, &q);
        assert!(
            matches!(
                cmp,
                Comparison::Criterion { a_better: true, .. }
                    | Comparison::Order { a_first: true, .. }
            ),
            "round {k}: {cmp}"
        );
        // Colours reversed on one board: article 5 names the step.
        let mut r = p.clone();
        r.games[0] = (r.games[0].1, r.games[0].0);
        match dutch::compare(&before, k, &p, &r) {
            Comparison::Colours {
                article, a_better, ..
            } => {
                assert!(a_better);
                assert!(article.starts_with("FIDE Dutch 2025 5.2."), "{article}");
            }
            other => panic!("round {k}: {other}"),
        }
    }
    // A rematch is named by C.1.
    let before = t.before_round(2);
    let p = Pairing::recorded(&t, 2).unwrap();
    let r1 = Pairing::recorded(&t, 1).unwrap();
    let (w, b) = r1.games[0];
    let mut q = p.clone();
    let iw = q.games.iter().position(|&(x, y)| x == w || y == w).unwrap();
    let ib = q.games.iter().position(|&(x, y)| x == b || y == b).unwrap();
    let ow = if q.games[iw].0 == w {
        q.games[iw].1
    } else {
        q.games[iw].0
    };
    let ob = if q.games[ib].0 == b {
        q.games[ib].1
    } else {
        q.games[ib].0
    };
    q.games[iw] = (w, b);
    q.games[ib] = (ow, ob);
    let cmp = dutch::compare(&before, 2, &p, &q);
    assert!(
        matches!(cmp, Comparison::Criterion { a_better: true, .. }),
        "{cmp}"
    );
    let reports = dutch::criteria(&before, 2, &q).unwrap();
    assert!(
        reports
            .iter()
            .flat_map(|r| &r.violations)
            .any(|v| v.article == dutch::C1),
        "{reports:?}"
    );
    // Not a pairing of the round: someone left out.
    let mut short = p.clone();
    short.games.pop();
    assert!(matches!(
        dutch::compare(&before, 2, &p, &short),
        Comparison::Invalid {
            a_invalid: false,
            ..
        }
    ));
}

/// FIDE Dutch 2025 1.4.2-1.4.3 and C.04.1 4 on a hand-made history.
#[test]
fn floats_and_bye_eligibility_follow_the_2025_text() {
    let players = (1..=4)
        .map(|i| Player::new(i, format!("P{i}"), 2000 - i))
        .collect();
    let mut t = Tournament::new("floats", players);
    t.rounds_planned = Some(4);
    t.rounds.push(Round {
        number: 1,
        games: vec![
            Game::new(1, 2, GameResult::WhiteWins),
            Game::new(3, 4, GameResult::WhiteForfeitWin),
        ],
        byes: vec![],
    });
    t.rounds.push(Round {
        number: 2,
        games: vec![Game::new(1, 3, GameResult::Draw)],
        byes: vec![
            Bye {
                player: 2,
                kind: ByeKind::Half,
                spread: None,
            },
            Bye {
                player: 4,
                kind: ByeKind::Zero,
                spread: None,
            },
        ],
    });
    let st = dutch::state::RoundState::new(&t, 3);
    let p = |id: u32| st.get(id).unwrap();
    // Equal scores: no float (1.4.2); a forfeit win: a downfloat (1.4.3); a forfeit loss and
    // a zero-point bye: none; a half-point bye scores more than a loss: a downfloat.
    assert_eq!(p(1).floats, vec![Float::None, Float::None]);
    assert_eq!(p(3).floats, vec![Float::Down, Float::None]);
    assert_eq!(p(4).floats, vec![Float::None, Float::None]);
    assert_eq!(p(2).floats, vec![Float::None, Float::Down]);
    // C.04.1 4 (2025): a forfeit win bars the PAB, a half-point bye does not.
    assert!(!p(3).pab_eligible());
    assert!(p(2).pab_eligible());
    // A forfeit is not a game played (C.04.1): no colour, no meeting, an unplayed round.
    assert!(p(3).colours.len() == 1 && !p(3).met.contains(&4));
    assert_eq!(p(4).unplayed, 2);
    assert_eq!(p(2).unplayed, 1);
    // Scores and order (1.2): 1 and 3 on 1.5, then 2 and 4.
    let order: Vec<u32> = st.players.iter().map(|x| x.id).collect();
    assert_eq!(order, vec![1, 3, 2, 4]);
    // Topscorers only when pairing the last round (1.8).
    assert!(st.players.iter().all(|x| !x.topscorer));
    let last = dutch::state::RoundState::new(&t, 4);
    assert!(last.last_round);
}

/// C.04.2: a player absent from the round (a withdrawal, a requested bye) is not paired; a
/// pairing that pairs him is not a pairing of the round.
#[test]
fn absent_players_are_not_paired() {
    let t = load("dutch_2025_withdrawal.trf");
    let st = dutch::state::RoundState::new(&t, 2);
    assert!(st.absent.iter().any(|(id, _)| *id == 5), "{:?}", st.absent);
    let mut p = expected("dutch_2025_withdrawal.expected");
    let (w, _) = p.games[0];
    p.games[0] = (w, 5);
    match dutch::compare(&t, 2, &expected("dutch_2025_withdrawal.expected"), &p) {
        Comparison::Invalid {
            a_invalid: false,
            finding,
        } => assert_eq!(finding.article, dutch::ABSENT),
        other => panic!("{other}"),
    }
    // The late entry is paired in the round he enters, with no colour history.
    let t = load("dutch_2025_late_entry.trf");
    let st = dutch::state::RoundState::new(&t, 2);
    let p = st.get(10).unwrap();
    assert_eq!((p.score, p.unplayed, p.pref), (0, 1, None));
    assert!(p.pab_eligible());
}

/// Brackets from the top (1.3): residents and MDPs, the remainder, the Limbo, the PAB
/// assignee left in the last bracket.
#[test]
fn brackets_are_rebuilt_from_the_top() {
    let t = load("dutch_2025_C5.trf");
    let p = expected("dutch_2025_C5.expected");
    let r = dutch::criteria(&t, 2, &p).unwrap();
    let shape: Vec<(Vec<u32>, Vec<u32>, Vec<u32>)> = r
        .iter()
        .map(|b| (b.mdps.clone(), b.residents.clone(), b.downfloaters.clone()))
        .collect();
    assert_eq!(
        shape,
        vec![
            (vec![], vec![1, 2, 3, 9], vec![]),
            // 4 and 8 met in round 1: both float (C.1).
            (vec![], vec![4, 8], vec![4, 8]),
            (vec![4, 8], vec![5, 6, 7], vec![7]),
        ]
    );
    assert_eq!(r[2].remainder, vec![7]);
    assert!(r[2].limbo.is_empty());
    assert_eq!(p.bye, Some(7));
    // C.5: the PAB at the lowest score the rest allows (0 points): no value to minimise
    // beyond it, and C.6 counts the PAB assignee as the last bracket's downfloater.
    assert_eq!(r[2].value(dutch::C5), Some(&[0][..]));
    assert_eq!(r[2].value(dutch::C6), Some(&[1][..]));
}
