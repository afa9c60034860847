//! The round specification every system states is well formed (`RoundSpec::validate`: one
//! cost per tier, indices in range, listed candidates within the pair source's bounds), on
//! generated events of every system, round by round.

use optipair::engine;
use optipair::generate::{self, Rng};
use optipair::solve::{Options, PROGRAMS};
use optipair::systems;
use optipair::tournament::Tournament;
use optipair::SystemKind;

#[test]
fn every_system_states_valid_specifications() {
    let mut checked = Vec::new();
    for kind in SystemKind::ALL {
        let sys = systems::model(kind, &PROGRAMS);
        let scrabble = sys.game_scores();
        let mut rng = Rng::new(3);
        let field = if scrabble {
            generate::scrabble_players(24, &mut rng)
        } else {
            generate::players(24, &mut rng)
        };
        let mut t = Tournament::new("spec", field);
        t.scoring.game_scores = scrabble;
        // NSC06's schedule has 28 rounds; the chess systems 7.
        t.rounds_planned = Some(if kind == SystemKind::Nsc2006 { 28 } else { 7 });
        t.system = Some(kind.to_string());
        if kind == SystemKind::Prog {
            // PROG groups A, B, C of a third each (25%-50% each).
            let mut r: Vec<u32> = t.players.iter().map(|p| p.rating).collect();
            r.sort_unstable_by(|a, b| b.cmp(a));
            t.settings.insert("prog.a_min".into(), r[7].into());
            t.settings.insert("prog.c_below".into(), (r[16] + 1).into());
        }
        for r in 1..=5 {
            let base = t.before_round(r);
            let s = sys
                .spec(&base, r)
                .unwrap_or_else(|e| panic!("{kind} round {r}: {e}"));
            s.validate()
                .unwrap_or_else(|e| panic!("{kind} round {r}: {e}"));
            if let Some(sparse) = sys.sparse_spec(&base, r, 0).unwrap() {
                sparse
                    .validate()
                    .unwrap_or_else(|e| panic!("{kind} round {r} (sparse): {e}"));
            }
            let paired = engine::pair_round(&t, r, kind, &Options::default())
                .unwrap_or_else(|e| panic!("{kind} round {r}: {e}"));
            t = engine::store(&t, &paired);
            generate::play(&mut t, r, 0.3, &mut rng);
        }
        checked.push(kind);
    }
    assert_eq!(checked.len(), SystemKind::ALL.len());
}

#[test]
fn a_malformed_specification_is_named() {
    let t = generate::field(
        &generate::Spec {
            players: 9,
            rounds: 5,
            played: 1,
            seed: 1,
            draw_rate: 0.3,
            system: SystemKind::Swiss,
        },
        &Options::default(),
    )
    .unwrap();
    let sys = systems::model(SystemKind::Swiss, &PROGRAMS);
    let good = sys.spec(&t, 2).unwrap();
    assert_eq!(good.validate(), Ok(()));
    let mut short = good.clone();
    short.candidates[0].costs.pop();
    assert!(short.validate().unwrap_err().contains("costs for"));
    let mut crossed = good.clone();
    crossed.candidates[0].white = 99;
    assert!(crossed.validate().unwrap_err().contains("white"));
    let mut negative = good;
    negative.byes[0].costs[1] = -1;
    assert!(negative.validate().unwrap_err().contains("negative cost"));
}

/// The kinds of a plan's strategies, in order.
fn plan_of(kind: SystemKind, t: &Tournament, round: u32) -> Vec<&'static str> {
    use optipair::spec::Strategy;
    let sys = systems::model(kind, &PROGRAMS);
    let plan = sys.plan(t, round).unwrap();
    plan.strategies
        .iter()
        .map(|s| match s {
            Strategy::Exact(_) => "exact",
            Strategy::Tiers(_) => "tiers",
            Strategy::Fallback => "fallback",
        })
        .collect()
}

/// Every system hands the engine one plan per round: the systems paired by the FIDE Dutch
/// procedure ("FIDE Dutch 2025 C.5"; PROG "PROG global score GS = RS + FS", Baku "FIDE
/// C.04.5.1") try it first, then their tier program; every other system states its tier
/// program; each plan ends with the legal fallback.
#[test]
fn every_system_plans_its_round_and_ends_with_the_legal_fallback() {
    let t = generate::field(
        &generate::Spec {
            players: 12,
            rounds: 5,
            played: 0,
            seed: 2,
            draw_rate: 0.3,
            system: SystemKind::Swiss,
        },
        &Options::default(),
    )
    .unwrap();
    for kind in SystemKind::ALL {
        let plan = plan_of(kind, &t, 1);
        let dutch = matches!(
            kind,
            SystemKind::Swiss | SystemKind::Prog | SystemKind::Baku
        );
        let want: &[&str] = if dutch {
            &["exact", "tiers", "fallback"]
        } else {
            &["tiers", "fallback"]
        };
        assert_eq!(plan, want, "{kind}");
    }
}

/// ECF pairs round 1 by its own rule ("ECF basic 4(b)": A v B, C v D) and a round after
/// the accelerated ones by the standard Swiss ("ECF basic 5"): the plan's exact procedure
/// comes only with the latter.
#[test]
fn an_ecf_plan_has_the_dutch_procedure_only_after_acceleration() {
    let t = generate::field(
        &generate::Spec {
            players: 16,
            rounds: 7,
            played: 5,
            seed: 4,
            draw_rate: 0.3,
            system: SystemKind::EcfBasic,
        },
        &Options::default(),
    )
    .unwrap();
    let sys = systems::model(SystemKind::EcfBasic, &PROGRAMS);
    let mut dutch_rounds = 0;
    for r in 1..=6 {
        let base = t.before_round(r);
        let dutch = sys.dutch_round(&base, r).unwrap();
        dutch_rounds += usize::from(dutch);
        let plan = plan_of(SystemKind::EcfBasic, &base, r);
        assert_eq!(plan.first() == Some(&"exact"), dutch, "round {r}");
        assert_eq!(plan.last(), Some(&"fallback"), "round {r}");
    }
    assert!(!sys.dutch_round(&t.before_round(1), 1).unwrap());
    assert!(dutch_rounds > 0, "no round after acceleration");
}
