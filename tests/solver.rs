//! The solver's guarantees: the sparse program with LP-dual pricing proves the same optimum as
//! the plain formulation with every allowed pair, tier by tier; certificates are honest.

use optipair::generate::{self, Spec};
use optipair::solve::{self, Options, Status};
use optipair::systems::{self, swiss};
use optipair::SystemKind;
use proptest::prelude::*;

fn field(players: usize, played: u32, seed: u64) -> optipair::tournament::Tournament {
    try_field(players, played, seed).expect("generated field")
}

/// A field with `played` rounds of greedy history, or `None` when some round of it has no
/// legal pairing (small fields paired greedily can reach one; the engine then refuses).
fn try_field(players: usize, played: u32, seed: u64) -> Option<optipair::tournament::Tournament> {
    let spec = Spec {
        players,
        rounds: 9,
        played,
        seed,
        draw_rate: 0.3,
        system: SystemKind::Swiss,
    };
    // History paired greedily: fast, legal, and more irregular than optimal pairings.
    generate::field(
        &spec,
        &Options {
            greedy_only: true,
            ..Options::default()
        },
    )
    .ok()
}

/// Round 6 of a greedy-history field of 500 players or more, as the sparse specification
/// `pair` and `bench` use at that size.
fn sparse_round_six(players: usize, seed: u64) -> optipair::spec::SparseSpec {
    let t = field(players, 5, seed);
    systems::model(SystemKind::Swiss, &optipair::solve::PROGRAMS)
        .sparse_spec(&t, 6, optipair::solve::SPARSE_FROM)
        .unwrap()
        .expect("a sparse specification from 500 players")
}

/// Every tier's value, in priority order.
fn values(p: &solve::Pairing) -> Vec<i64> {
    p.certificate.tiers.iter().map(|t| t.value).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn sparse_pricing_matches_the_full_formulation(players in 6usize..48, played in 0u32..6, seed in 0u64..1_000_000) {
        let t = try_field(players, played, seed);
        prop_assume!(t.is_some());
        let t = t.unwrap();
        let spec = systems::model(SystemKind::Swiss, &optipair::solve::PROGRAMS).spec(&t, played + 1).unwrap();
        let sparse = solve::solve(&spec, &Options::default());
        let full = solve::solve(&spec, &Options { full_candidates: true, ..Options::default() });
        prop_assert_eq!(sparse.certificate.status, Status::Optimal, "{}", sparse.certificate.summary);
        prop_assert_eq!(full.certificate.status, Status::Optimal, "{}", full.certificate.summary);
        prop_assert_eq!(values(&sparse), values(&full));
        // Every tier is proved and its bound equals its value.
        for tv in &sparse.certificate.tiers {
            prop_assert!(tv.proved, "tier {} not proved", tv.name);
            let b = tv.bound.expect("bound");
            prop_assert!((b - tv.value as f64).abs() < 1e-6, "tier {}: bound {} value {}", tv.name, b, tv.value);
        }
        // The greedy pass never beats the proved optimum lexicographically.
        let greedy = solve::solve(&spec, &Options { greedy_only: true, ..Options::default() });
        prop_assert_eq!(greedy.certificate.status, Status::Fallback);
        prop_assert!(values(&greedy) >= values(&sparse));
    }

    /// Pairs not even listed in the specification (large fields): priced in from the pair
    /// source, the optimum is the full formulation's, tier by tier.
    #[test]
    fn unlisted_pairs_priced_from_the_source_match_the_full_formulation(players in 6usize..60, played in 0u32..6, seed in 0u64..1_000_000) {
        let t = try_field(players, played, seed);
        prop_assume!(t.is_some());
        let t = t.unwrap();
        let round = played + 1;
        let f = swiss::Field::new(&t, round, &|_, s| s.score).unwrap();
        let sparse = swiss::sparse_standard_spec(&t, &f, "swiss");
        let full_spec = swiss::standard_spec(&t, &f, "swiss");
        let lazy = solve::solve_sparse(&sparse, &Options::default());
        let full = solve::solve(&full_spec, &Options { full_candidates: true, ..Options::default() });
        prop_assert_eq!(lazy.certificate.status, Status::Optimal, "{}", lazy.certificate.summary);
        prop_assert_eq!(values(&lazy), values(&full));
        // One priced pair per player and round: more rounds, the same optimum.
        let one = solve::solve_sparse(&sparse, &Options { priced_per_player: 1, ..Options::default() });
        prop_assert_eq!(one.certificate.status, Status::Optimal, "{}", one.certificate.summary);
        prop_assert_eq!(values(&one), values(&full));
    }

    /// Pricing skips whole runs of partners on the source's bounds: a bound above a pair's
    /// real cost would leave an improving pair out while the certificate says "optimal".
    #[test]
    fn the_sources_bounds_never_exceed_a_pairs_costs(players in 6usize..60, played in 0u32..6, seed in 0u64..1_000_000) {
        let t = try_field(players, played, seed);
        prop_assume!(t.is_some());
        let t = t.unwrap();
        let f = swiss::Field::new(&t, played + 1, &|_, s| s.score).unwrap();
        let src = swiss::sparse_standard_spec(&t, &f, "swiss").source;
        let n = f.len();
        for a in 0..n {
            for b in (0..n).filter(|&b| b != a) {
                let Some(c) = src.pair(a.min(b), a.max(b)) else { continue };
                let block = src.lower(src.class(a), src.class(b));
                // Every run of b's class around b, down to b alone.
                let class: Vec<usize> = (0..n).filter(|&i| src.class(i) == src.class(b)).collect();
                for (lo, hi) in [(class[0], class[class.len() - 1]), (b.saturating_sub(3).max(class[0]), b), (b, b)] {
                    let mut low = block.clone();
                    src.refine_lower(a, lo, hi, &mut low);
                    for (t, (&l, &cost)) in low.iter().zip(&c.costs).enumerate() {
                        prop_assert!(l <= cost, "pair {a} v {b}, run {lo}..={hi}: tier {t} bound {l} above its cost {cost}");
                    }
                }
            }
        }
    }
}

/// A source that lists nothing: every pair must be priced in, and the answer is still the
/// full formulation's optimum — "optimal over all pairs" is never said of the listed ones.
#[test]
fn a_specification_listing_no_pair_is_still_solved_over_all_pairs() {
    let t = field(40, 3, 11);
    let f = swiss::Field::new(&t, 4, &|_, s| s.score).unwrap();
    let mut sparse = swiss::sparse_standard_spec(&t, &f, "swiss");
    sparse.spec.candidates.clear();
    let lazy = solve::solve_sparse(&sparse, &Options::default());
    let full = solve::solve(&swiss::standard_spec(&t, &f, "swiss"), &Options::default());
    assert_eq!(lazy.certificate.status, Status::Optimal);
    assert_eq!(values(&lazy), values(&full));
    assert_eq!(lazy.unpaired, Vec::<u32>::new());
    let c = &lazy.certificate;
    assert!(c.summary.contains("0 listed"), "{}", c.summary);
    assert!(c.model.candidates > 0, "pairs were priced in");
}

#[test]
fn a_time_limit_too_short_falls_back_and_says_so() {
    let t = field(300, 3, 7);
    let spec = systems::model(SystemKind::Swiss, &optipair::solve::PROGRAMS)
        .spec(&t, 4)
        .unwrap();
    let p = solve::solve(
        &spec,
        &Options {
            time_limit: Some(0.0),
            ..Options::default()
        },
    );
    assert_eq!(p.certificate.status, Status::Fallback);
    assert!(p.certificate.summary.contains("not proved"));
    assert!(p.certificate.tiers.iter().all(|t| !t.proved));
    assert_eq!(p.games.len() * 2 + p.byes.len() + p.unpaired.len(), 300);
}

#[test]
fn the_certificate_counts_every_pair_and_says_optimal_over_all() {
    let t = field(120, 4, 3);
    let spec = systems::model(SystemKind::Swiss, &optipair::solve::PROGRAMS)
        .spec(&t, 5)
        .unwrap();
    let p = solve::solve(&spec, &Options::default());
    let c = &p.certificate;
    assert_eq!(c.status, Status::Optimal);
    assert_eq!(c.model.all_pairs, 120 * 119 / 2);
    assert!(c.model.candidates as u64 <= c.model.all_pairs);
    assert!(
        c.summary.starts_with("optimal over all 7140 pairs"),
        "{}",
        c.summary
    );
}

/// Solves `bench`'s round 6 of `players` with a shortcut on and off, checks that both prove
/// the same tier values, and returns how often the summary says the shortcut (`phrase`,
/// preceded by its count) closed a group in each, with the HiGHS solves of each.
fn with_and_without(
    players: usize,
    seed: u64,
    on: Options,
    off: Options,
    phrase: &str,
) -> [(usize, usize); 2] {
    let spec = sparse_round_six(players, seed);
    let on = solve::solve_sparse(&spec, &on);
    let off = solve::solve_sparse(&spec, &off);
    assert_eq!(on.certificate.status, Status::Optimal);
    assert_eq!(off.certificate.status, Status::Optimal);
    assert_eq!(values(&on), values(&off));
    assert!(on.certificate.tiers.iter().all(|t| t.proved));
    [on, off].map(|p| (closings(&p, phrase), p.certificate.model.solves))
}

/// How many tier groups the summary says a shortcut (`phrase`, preceded by its count) closed.
fn closings(p: &solve::Pairing, phrase: &str) -> usize {
    let s = &p.certificate.summary;
    s.split(phrase)
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count before {phrase:?} in {s}"))
}

/// Rounds of the reference files where no pairing meets a tier group's LP bound (a real
/// integrality gap, which cuts on whole fractional components do not close) are closed by
/// an exact weighted matching instead of a MIP: the tier values are those the MIP proves,
/// every tier proved, with fewer HiGHS solves (models/swiss.md, item 9).
#[test]
fn groups_with_an_integrality_gap_are_closed_by_weighted_matching() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
    let mut closed = 0;
    for (file, round) in [
        ("rtg_1002_21p_8r", 6),
        ("rtg_1024_21p_11r", 2),
        ("rtg_1007_99p_9r", 6),
        ("rtg_1019_128p_10r", 2),
        ("rtg_1023_16p_8r", 7),
    ] {
        let path = dir.join(format!("{file}.trf"));
        let t = optipair::formats::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let spec = systems::model(SystemKind::Swiss, &optipair::solve::PROGRAMS)
            .spec(&t.before_round(round), round)
            .unwrap();
        let on = solve::solve(&spec, &Options::default());
        let off = solve::solve(
            &spec,
            &Options {
                weighted_matching: false,
                ..Options::default()
            },
        );
        for p in [&on, &off] {
            assert_eq!(
                p.certificate.status,
                Status::Optimal,
                "{file} round {round}"
            );
            assert!(p.certificate.tiers.iter().all(|t| t.proved), "{file}");
        }
        assert_eq!(values(&on), values(&off), "{file} round {round}");
        let phrase = " by weighted matching";
        assert_eq!(closings(&off, phrase), 0);
        let by_matching = closings(&on, phrase);
        assert!(
            by_matching > 0,
            "{file} round {round}: {}",
            on.certificate.summary
        );
        assert!(
            on.certificate.model.solves < off.certificate.model.solves,
            "{file} round {round}: {} against {}",
            on.certificate.summary,
            off.certificate.summary
        );
        closed += by_matching;
    }
    assert!(closed >= 4);
}

/// The groups the sparse weighted matching closes keep the optimum over every allowed pair:
/// against the plain formulation (every pair in the program from the start, no pricing), so
/// a pair that the pricing after a matching wrongly left out, and that would improve a tier,
/// makes the tier values differ.
#[test]
fn the_weighted_matching_optimum_holds_over_every_pair() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
    let mut closed = 0;
    for (file, round) in [
        ("rtg_1002_21p_8r", 6),
        ("rtg_1024_21p_11r", 2),
        ("rtg_1007_99p_9r", 6),
        ("rtg_1023_16p_8r", 7),
    ] {
        let path = dir.join(format!("{file}.trf"));
        let t = optipair::formats::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let spec = systems::model(optipair::SystemKind::Swiss, &solve::PROGRAMS)
            .spec(&t.before_round(round), round)
            .unwrap();
        let on = solve::solve(&spec, &Options::default());
        let plain = solve::solve(
            &spec,
            &Options {
                full_candidates: true,
                weighted_matching: false,
                ..Options::default()
            },
        );
        assert_eq!(on.certificate.status, Status::Optimal, "{file}");
        assert_eq!(plain.certificate.status, Status::Optimal, "{file}");
        assert_eq!(values(&on), values(&plain), "{file} round {round}");
        assert!(
            on.certificate.summary.contains("proved by its duals"),
            "{}",
            on.certificate.summary
        );
        closed += closings(&on, " by weighted matching");
    }
    assert!(closed >= 3, "{closed}");
}

/// Tier groups whose LP optimum is fractional (odd cycles of halves) but whose bound an
/// integral pairing meets are closed by a pairing of zero-reduced-cost columns, found by
/// matching, without cuts or a MIP (models/swiss.md, item 3). On the 1,000-player field of
/// seed 4 this happens, and every tier's value is the one the cuts-and-MIP path proves without it.
#[test]
fn groups_closed_on_the_lp_face_keep_the_optimum() {
    // Against the cuts-and-MIP path: the weighted matching (item 9) would close them too.
    // Without partner exchanges (item 10), whose better incumbent meets the bound first here.
    let on = Options {
        exchange: false,
        ..Options::default()
    };
    let off = Options {
        lp_face: false,
        weighted_matching: false,
        ..on.clone()
    };
    let [(closed, solves), (closed_off, solves_off)] =
        with_and_without(1000, 4, on, off, " closed on the LP face");
    assert!(closed > 0);
    assert_eq!(closed_off, 0);
    assert!(solves < solves_off);
}

/// A tier group on which some pairing keeping the earlier optima costs nothing (here the
/// repeated floats and the bye's rank) is closed without an LP: zero duals prove the bound.
/// The tiers are those the LP path proves.
#[test]
fn groups_closed_at_zero_cost_keep_the_optimum() {
    let off = Options {
        zero_cost: false,
        ..Options::default()
    };
    let [(closed, solves), (closed_off, solves_off)] =
        with_and_without(800, 1, Options::default(), off, " at zero cost");
    assert!(closed > 0);
    assert_eq!(closed_off, 0);
    assert!(solves < solves_off);
}

/// Pricing rounds re-solve the kept LP from its last basis (the priced pairs added as
/// columns) instead of building it again; the optimum is the same, tier by tier.
#[test]
fn a_kept_lp_gives_the_optimum_of_a_rebuilt_one() {
    for (players, seed) in [(600, 2), (800, 1)] {
        let spec = sparse_round_six(players, seed);
        let warm = solve::solve_sparse(&spec, &Options::default());
        let cold = solve::solve_sparse(
            &spec,
            &Options {
                warm_lp: false,
                ..Options::default()
            },
        );
        assert_eq!(warm.certificate.status, Status::Optimal);
        assert_eq!(cold.certificate.status, Status::Optimal);
        assert_eq!(
            values(&warm),
            values(&cold),
            "{players} players, seed {seed}"
        );
        assert!(warm.certificate.tiers.iter().all(|t| t.proved));
    }
}

/// Before a tier group's first LP over a pair source, the incumbent is improved by partner
/// exchanges that keep the earlier groups' optima (models/swiss.md, item 10). The first
/// restricted program starts nearer the optimum: the same tier values, every tier proved,
/// in fewer pricing rounds over six 1,000-player rounds.
#[test]
fn partner_exchanges_keep_the_optimum_in_fewer_pricing_rounds() {
    // A heuristic start: on some rounds it costs a pricing round, over several it saves them.
    let (mut with, mut without) = (0, 0);
    for seed in 1..=6 {
        let spec = sparse_round_six(1000, seed);
        let on = solve::solve_sparse(&spec, &Options::default());
        let off = solve::solve_sparse(
            &spec,
            &Options {
                exchange: false,
                ..Options::default()
            },
        );
        for p in [&on, &off] {
            assert_eq!(p.certificate.status, Status::Optimal);
            assert!(p.certificate.tiers.iter().all(|t| t.proved));
        }
        assert_eq!(values(&on), values(&off), "seed {seed}");
        let phrase = " incumbents improved by partner exchange";
        assert!(closings(&on, phrase) > 0, "{}", on.certificate.summary);
        assert_eq!(closings(&off, phrase), 0);
        with += closings(&on, " pricing rounds");
        without += closings(&off, " pricing rounds");
    }
    assert!(
        with + 3 <= without,
        "{with} pricing rounds against {without}"
    );
}

#[test]
fn the_summary_is_written_from_the_solver_counts_the_certificate_carries() {
    let t = field(120, 4, 3);
    let spec = systems::model(SystemKind::Swiss, &optipair::solve::PROGRAMS)
        .spec(&t, 5)
        .unwrap();
    let p = solve::solve(&spec, &Options::default());
    let c = &p.certificate;
    let stats = c.solver.as_ref().expect("the tier program's counts");
    assert_eq!(c.summary, stats.summary(c.status, &c.model, c.gap));
    assert_eq!(stats.groups_closed, stats.tier_groups);
    assert_eq!(
        stats.from_source, None,
        "a full specification has no pair source"
    );
    assert!(stats.simplex_iterations > 0 || c.model.solves == 0);
    let json = serde_json::to_value(c).unwrap();
    assert_eq!(json["solver"]["tier_groups"], stats.tier_groups);
    assert!(json.get("fallback").is_none(), "no fallback, no reason");
}

#[test]
fn a_fallback_says_why_in_type_and_in_the_summary() {
    use optipair::solve::{Fallback, FallbackCause, SolveError, TimeLimitAt};
    let t = field(300, 3, 7);
    let spec = systems::model(SystemKind::Swiss, &optipair::solve::PROGRAMS)
        .spec(&t, 4)
        .unwrap();
    let greedy = solve::solve(
        &spec,
        &Options {
            greedy_only: true,
            ..Options::default()
        },
    );
    let c = &greedy.certificate;
    assert_eq!(
        c.fallback,
        Some(Fallback {
            cause: FallbackCause::Requested,
            rows: None,
            cut: false,
        })
    );
    assert_eq!(
        c.summary,
        "greedy fallback, optimality not proved (greedy pass requested)"
    );
    assert!(c.solver.is_none());
    let json = serde_json::to_value(c).unwrap();
    assert_eq!(json["fallback"], "greedy pass requested");

    let late = solve::solve(
        &spec,
        &Options {
            time_limit: Some(0.0),
            ..Options::default()
        },
    );
    let why = late.certificate.fallback.expect("a fallback");
    assert!(
        matches!(
            why.cause,
            FallbackCause::Solver(SolveError::TimeLimit(TimeLimitAt::Solving))
        ),
        "{why:?}"
    );
    assert_eq!(
        late.certificate.summary,
        "greedy fallback, optimality not proved (time limit reached before HiGHS finished)"
    );
}

/// The words of every solver error, as certificates have always shown them.
#[test]
fn solver_errors_read_as_before() {
    use highs::{HighsModelStatus, HighsStatus};
    use optipair::solve::{
        Fallback, FallbackCause, HighsStep, RowsRepair, SolveError, TimeLimitAt,
    };
    let cases = [
        (
            SolveError::TimeLimit(TimeLimitAt::Solving),
            "time limit reached before HiGHS finished",
        ),
        (
            SolveError::TimeLimit(TimeLimitAt::FirstGroup),
            "time limit reached before the first tier group was solved",
        ),
        (
            SolveError::highs(HighsStep::Solve, HighsStatus::Error),
            "HiGHS failed: Error",
        ),
        (
            SolveError::highs(HighsStep::Cut, HighsStatus::Error),
            "HiGHS refused an odd-set cut",
        ),
        (
            SolveError::highs(HighsStep::Column, HighsStatus::Error),
            "HiGHS refused a priced column",
        ),
        (
            SolveError::LpNotSolved(HighsModelStatus::Infeasible),
            "LP relaxation not solved (status Infeasible)",
        ),
        (
            SolveError::NoPairing(HighsModelStatus::ReachedTimeLimit),
            "HiGHS found no pairing (status ReachedTimeLimit)",
        ),
        (
            SolveError::WorkerLost(None),
            "the solver stopped without an answer",
        ),
        (SolveError::RowBroken, "HiGHS answer breaks a hard row"),
    ];
    for (e, words) in cases {
        assert_eq!(e.to_string(), words);
    }
    let fb = Fallback {
        cause: FallbackCause::Solver(SolveError::TimeLimit(TimeLimitAt::Solving)),
        rows: Some(RowsRepair::Solved),
        cut: false,
    };
    assert_eq!(
        fb.to_string(),
        "time limit reached before HiGHS finished; the system's rows solved as a feasibility program"
    );
    let fb = Fallback {
        cause: FallbackCause::Requested,
        rows: Some(RowsRepair::NotFound),
        cut: false,
    };
    assert_eq!(
        fb.to_string(),
        "greedy pass requested; no pairing found that keeps the system's rows"
    );
    let fb = Fallback {
        cause: FallbackCause::Requested,
        rows: None,
        cut: true,
    };
    assert_eq!(
        fb.to_string(),
        "greedy pass requested; the time limit passed before every pair was looked at"
    );
}
