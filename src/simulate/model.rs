//! The simulation: whole generated events per system, run in parallel and merged in run
//! order, and the statistics of each system (see [`super`] for the result models). Renderers
//! read [`Report`]; nothing here formats one.

use crate::engine;
use crate::generate::{self, Rng};
use crate::solve::{Options, Status};
use crate::tournament::{milli, Colour, Game, Standings, Tournament};
use crate::{Error, Result, SystemKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// How game results are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "model")]
pub enum Model {
    /// Chess: Elo expectation with draws (`draw_rate` between equal players).
    Elo {
        /// The share of games drawn between equal players, from 0 to 1.
        draw_rate: f64,
    },
    /// Scrabble: normal game scores by rating, recorded with the result.
    Scrabble,
}

impl Model {
    /// The model a system's games follow: Scrabble if its games keep scores, chess otherwise.
    pub fn for_system(system: SystemKind, draw_rate: f64) -> Model {
        if crate::systems::model(system, &crate::solve::PROGRAMS).game_scores() {
            Model::Scrabble
        } else {
            Model::Elo { draw_rate }
        }
    }

    /// One game between ratings `rw` (white / first) and `rb`.
    pub fn game(self, white: u32, black: u32, rw: u32, rb: u32, rng: &mut Rng) -> Game {
        match self {
            Model::Elo { draw_rate } => {
                Game::new(white, black, generate::result(rw, rb, draw_rate, rng))
            }
            Model::Scrabble => {
                let [a, b] = generate::scrabble_scores(rw, rb, rng);
                Game::scored(white, black, a, b)
            }
        }
    }

    fn draw_rate(self) -> f64 {
        match self {
            Model::Elo { draw_rate } => draw_rate,
            Model::Scrabble => 0.0,
        }
    }
}

/// What one simulation runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// The systems compared, in the order reported.
    pub systems: Vec<SystemKind>,
    /// Players in each event.
    pub players: usize,
    /// Rounds in each event.
    pub rounds: u32,
    /// Events per system.
    pub runs: usize,
    /// The index of the first run: the runs are `first_run .. first_run + runs`, so a long
    /// simulation can be run in parts (on several machines or days) and merged ([`merge`])
    /// into exactly the figures of one run.
    #[serde(default)]
    pub first_run: usize,
    /// The simulation's seed; run `i` uses [`run_seed`]`(seed, i)`.
    pub seed: u64,
    /// Result model for every system; `None`: [`Model::for_system`] with `draw_rate`.
    pub model: Option<Model>,
    /// The chess model's draw rate, from 0 to 1 (see [`crate::generate`]).
    pub draw_rate: f64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Seconds for each round's exact solve (past it the greedy pass pairs the round).
    pub time_limit: Option<f64>,
    /// System settings stored in every simulated event (e.g. `prog.a_min`).
    pub settings: BTreeMap<String, serde_json::Value>,
}

/// The seed of run `run` of a simulation seeded `seed`: SplitMix64 of the two, so that runs
/// are independent and the same for every system and thread count.
pub fn run_seed(seed: u64, run: usize) -> u64 {
    let mut r = Rng::new(seed ^ (run as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    r.next_u64()
}

/// The facts of one simulated event.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Event {
    /// Players who finished on a perfect score (every round's maximum).
    pub perfect: usize,
    /// Per round: sum of |rating difference| over the games, and the number of games.
    pub gap_sum: Vec<f64>,
    /// Per round: the number of games.
    pub games: Vec<usize>,
    /// Games between players who had met before in the event.
    pub repeats: usize,
    /// Sum over players of |games as white (first) − games as black (second)|, and the largest.
    pub imbalance_sum: u64,
    /// The largest |games as white − games as black| of any player.
    pub imbalance_max: u32,
    /// Seconds spent pairing each round (system, solve, verifier).
    pub seconds: Vec<f64>,
    /// Rounds the solver did not prove optimal (time limit or fallback).
    pub not_proved: usize,
    /// Findings of the independent verifier over the event.
    pub violations: usize,
    /// Their messages (each names its round and players, and cites the rule).
    pub findings: Vec<String>,
    /// Players left without a game or bye, summed over rounds.
    pub unpaired: usize,
}

/// Plays one whole event: `players` generated players, `rounds` rounds paired under `system`
/// (with `settings`) and played under `model`, from `seed`.
pub fn event(
    system: SystemKind,
    players: usize,
    rounds: u32,
    seed: u64,
    model: Model,
    settings: &BTreeMap<String, serde_json::Value>,
    opts: &Options,
) -> Result<Event> {
    let mut rng = Rng::new(seed);
    let scrabble = model == Model::Scrabble;
    let field = if scrabble {
        generate::scrabble_players(players, &mut rng)
    } else {
        generate::players(players, &mut rng)
    };
    let mut t = Tournament::new(format!("Simulated {players} players, seed {seed}"), field);
    t.scoring.game_scores = scrabble;
    t.rounds_planned = Some(rounds);
    t.system = Some(system.to_string());
    t.settings = settings.clone();
    generate::set_prog_groups(&mut t, system);
    let rating = |t: &Tournament, id: u32| t.player(id).map(|p| p.rating).unwrap_or(0);
    let mut ev = Event::default();
    let mut met = std::collections::HashSet::new();
    for r in 1..=rounds {
        let start = Instant::now();
        let paired = engine::pair_round(&t, r, system, opts)?;
        ev.seconds.push(start.elapsed().as_secs_f64());
        if paired.pairing.certificate.status != Status::Optimal {
            ev.not_proved += 1;
        }
        ev.violations += paired.violations.len();
        ev.findings
            .extend(paired.violations.iter().map(|v| v.message.clone()));
        ev.unpaired += paired.pairing.unpaired.len();
        t = engine::store(&t, &paired);
        let games: Vec<Game> = t.round(r).expect("stored round").games.clone();
        let mut gap = 0.0;
        for g in &games {
            let (rw, rb) = (rating(&t, g.white), rating(&t, g.black));
            gap += (rw as f64 - rb as f64).abs();
            if !met.insert((g.white.min(g.black), g.white.max(g.black))) {
                ev.repeats += 1;
            }
        }
        ev.gap_sum.push(gap);
        ev.games.push(games.len());
        // The results, as `generate` draws them (game scores and bye spread for Scrabble).
        generate::play(&mut t, r, model.draw_rate(), &mut rng);
    }
    let st = Standings::before(&t, rounds + 1);
    // A perfect score, compared exactly in thousandths.
    let full = milli(t.scoring.max_per_round()) * i64::from(rounds);
    for s in st.by_id.values() {
        if milli(s.score) >= full {
            ev.perfect += 1;
        }
        let (w, b) = s
            .colours
            .iter()
            .flatten()
            .fold((0i64, 0i64), |(w, b), c| match c {
                Colour::White => (w + 1, b),
                Colour::Black => (w, b + 1),
            });
        let d = (w - b).unsigned_abs() as u32;
        ev.imbalance_sum += u64::from(d);
        ev.imbalance_max = ev.imbalance_max.max(d);
    }
    Ok(ev)
}

/// A 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    // At k = 0 and k = n the bound is exactly 0 or 1 (rounding would leave 1e-16 off).
    let lo = if k == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// One system's figures over every run.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The system.
    pub system: SystemKind,
    /// The result model its games were played under.
    pub model: Model,
    /// Events played (the runs the system refused left out).
    pub runs: usize,
    /// Events that ended with two or more players on a perfect score.
    pub joint_perfect: usize,
    /// The share of events (0 to 1) that ended with two or more players on a perfect score.
    pub joint_perfect_share: f64,
    /// 95% Wilson interval of that share.
    pub joint_perfect_ci: (f64, f64),
    /// Mean number of players on a perfect score per event.
    pub perfect_mean: f64,
    /// Mean |rating difference| of the games, per round (over every game of every run).
    pub gap_by_round: Vec<f64>,
    /// The same over all rounds.
    pub gap_mean: f64,
    /// Mean games per event between players who had met before.
    pub repeats_mean: f64,
    /// Mean over players of |whites − blacks| (first − second) at the end of the event.
    pub imbalance_mean: f64,
    /// The largest |whites − blacks| of any player in any run.
    pub imbalance_max: u32,
    /// Mean and largest seconds to pair one round.
    pub seconds_mean: f64,
    /// Largest seconds to pair one round (NaN when not timed, as is the mean).
    pub seconds_max: f64,
    /// Rounds not proved optimal, over all runs.
    pub not_proved: usize,
    /// Verifier findings, over all runs (0 expected).
    pub violations: usize,
    /// Players left without a game or bye, over all runs.
    pub unpaired: usize,
    /// Runs the system refused to pair (an error, e.g. a field outside the system's
    /// conditions); left out of every figure above.
    pub refused: usize,
    /// The first refusal's message.
    pub refused_first: Option<String>,
    /// The sums every figure above is computed from, so that parts of a simulation merge.
    pub totals: Totals,
}

/// One system's sums over a set of runs; figures of parts add up ([`Totals::add`]) to
/// exactly the figures of the whole.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Events played.
    pub events: usize,
    /// Events with two or more perfect scores.
    pub joint_perfect: usize,
    /// Players on a perfect score, over the events.
    pub perfect: usize,
    /// Per round: Σ |rating difference| of the games, and the number of games.
    pub gap_by_round: Vec<f64>,
    /// Per round: the number of games.
    pub games_by_round: Vec<usize>,
    /// Games between players who had met before.
    pub repeats: usize,
    /// Σ over events and players of |whites − blacks|, and the largest.
    pub imbalance: u64,
    /// The largest |whites − blacks| of any player.
    pub imbalance_max: u32,
    /// Σ and largest seconds per round, over `seconds_count` rounds (`None`: not timed).
    pub seconds: Option<f64>,
    /// Largest seconds to pair one round (`None`: not timed).
    pub seconds_max: Option<f64>,
    /// Rounds timed.
    pub seconds_count: usize,
    /// Rounds not proved optimal.
    pub not_proved: usize,
    /// Verifier findings.
    pub violations: usize,
    /// Players left without a game or bye, summed over rounds.
    pub unpaired: usize,
    /// Runs the system refused to pair.
    pub refused: usize,
    /// The first refusal's message.
    pub refused_first: Option<String>,
    /// The first verifier findings ([`MAX_FINDINGS`] at most), each with its run and seed, so
    /// that the event can be replayed.
    #[serde(default)]
    pub findings: Vec<String>,
}

/// Verifier findings kept word for word per system (the count is always complete).
pub const MAX_FINDINGS: usize = 10;

impl Totals {
    /// The sums over `events` (and the runs `refusals` left out).
    pub fn of(events: &[Event], refusals: &[String]) -> Totals {
        let rounds = events.iter().map(|e| e.gap_sum.len()).max().unwrap_or(0);
        let secs: Vec<f64> = events
            .iter()
            .flat_map(|e| e.seconds.iter().copied())
            .collect();
        Totals {
            events: events.len(),
            joint_perfect: events.iter().filter(|e| e.perfect >= 2).count(),
            perfect: events.iter().map(|e| e.perfect).sum(),
            gap_by_round: (0..rounds)
                .map(|r| events.iter().filter_map(|e| e.gap_sum.get(r)).sum())
                .collect(),
            games_by_round: (0..rounds)
                .map(|r| events.iter().filter_map(|e| e.games.get(r)).sum())
                .collect(),
            repeats: events.iter().map(|e| e.repeats).sum(),
            imbalance: events.iter().map(|e| e.imbalance_sum).sum(),
            imbalance_max: events.iter().map(|e| e.imbalance_max).max().unwrap_or(0),
            seconds: Some(secs.iter().sum()),
            seconds_max: Some(secs.iter().copied().fold(0.0, f64::max)),
            seconds_count: secs.len(),
            not_proved: events.iter().map(|e| e.not_proved).sum(),
            violations: events.iter().map(|e| e.violations).sum(),
            unpaired: events.iter().map(|e| e.unpaired).sum(),
            refused: refusals.len(),
            refused_first: refusals.first().cloned(),
            findings: events
                .iter()
                .flat_map(|e| e.findings.iter().cloned())
                .take(MAX_FINDINGS)
                .collect(),
        }
    }

    /// Adds the sums of later runs (`other`) to these.
    pub fn add(&mut self, other: &Totals) {
        let rounds = self.gap_by_round.len().max(other.gap_by_round.len());
        self.gap_by_round.resize(rounds, 0.0);
        self.games_by_round.resize(rounds, 0);
        for (r, g) in other.gap_by_round.iter().enumerate() {
            self.gap_by_round[r] += g;
        }
        for (r, g) in other.games_by_round.iter().enumerate() {
            self.games_by_round[r] += g;
        }
        self.events += other.events;
        self.joint_perfect += other.joint_perfect;
        self.perfect += other.perfect;
        self.repeats += other.repeats;
        self.imbalance += other.imbalance;
        self.imbalance_max = self.imbalance_max.max(other.imbalance_max);
        self.seconds = self.seconds.zip(other.seconds).map(|(a, b)| a + b);
        self.seconds_max = self
            .seconds_max
            .zip(other.seconds_max)
            .map(|(a, b)| a.max(b));
        self.seconds_count += other.seconds_count;
        self.not_proved += other.not_proved;
        self.violations += other.violations;
        self.unpaired += other.unpaired;
        self.refused += other.refused;
        if self.refused_first.is_none() {
            self.refused_first = other.refused_first.clone();
        }
        let room = MAX_FINDINGS.saturating_sub(self.findings.len());
        self.findings
            .extend(other.findings.iter().take(room).cloned());
    }
}

/// Every system's summary, in the order given.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// What was simulated (`threads` 0 when the timing is left out).
    pub config: Config,
    /// Each system's figures, in the order of `config.systems`.
    pub summaries: Vec<Summary>,
}

impl Report {
    /// Leaves the seconds and thread count out (they vary from machine to machine; nothing
    /// else does), so that the report is byte-identical for the same seed.
    pub fn without_timing(&mut self) {
        self.config.threads = 0;
        for s in &mut self.summaries {
            s.seconds_mean = f64::NAN;
            s.seconds_max = f64::NAN;
            s.totals.seconds = None;
            s.totals.seconds_max = None;
            s.totals.seconds_count = 0;
        }
    }
}

/// A report read back for [`merge`]: its configuration and each system's sums.
#[derive(Debug, Clone, Deserialize)]
pub struct Part {
    /// The part's configuration.
    pub config: Config,
    /// Each system's sums, in the order of `config.systems`.
    pub summaries: Vec<PartSummary>,
}

/// One system's sums in a [`Part`].
#[derive(Debug, Clone, Deserialize)]
pub struct PartSummary {
    /// The system.
    pub system: SystemKind,
    /// The result model its games were played under.
    pub model: Model,
    /// Its sums over the part's runs.
    pub totals: Totals,
}

/// Merges the JSON reports of parts of one simulation (`(name, text)`, e.g. file names and
/// contents): the same systems, field, rounds, seed, model and settings, and runs that follow
/// on from each other without gap or overlap. The result is the report one simulation of all
/// the runs gives (apart from seconds).
pub fn merge(parts: &[(String, String)]) -> Result<Report> {
    let mut read: Vec<(String, Part)> = Vec::new();
    for (name, text) in parts {
        let part: Part = serde_json::from_str(text).map_err(|e| {
            Error::input(format!(
                "{name}: not a simulation report written by `simulate --format json` ({e})"
            ))
        })?;
        read.push((name.clone(), part));
    }
    read.sort_by_key(|(_, p)| p.config.first_run);
    let Some((first_name, first)) = read.first().cloned() else {
        return Err(Error::field("merge", "give at least one report"));
    };
    let same = |a: &Config, b: &Config| {
        a.systems == b.systems
            && a.players == b.players
            && a.rounds == b.rounds
            && a.seed == b.seed
            && a.model == b.model
            && a.draw_rate == b.draw_rate
            && a.time_limit == b.time_limit
            && a.settings == b.settings
    };
    let mut cfg = first.config.clone();
    let mut totals: Vec<Totals> = first.summaries.iter().map(|s| s.totals.clone()).collect();
    let mut timed = true;
    for (_, part) in &read {
        timed &= part.summaries.iter().all(|s| s.totals.seconds.is_some());
    }
    for (name, part) in read.iter().skip(1) {
        let c = &part.config;
        if !same(&cfg, c) {
            return Err(Error::input(format!(
                "{name}: a different simulation from {first_name} (systems, players, rounds, seed, model or settings differ)"
            )));
        }
        let next = cfg.first_run + cfg.runs;
        if c.first_run != next {
            return Err(Error::input(format!(
                "{name}: runs {}–{} do not follow on from runs {}–{}: {}",
                c.first_run,
                c.first_run + c.runs.max(1) - 1,
                cfg.first_run,
                next.max(1) - 1,
                if c.first_run < next {
                    "they overlap".to_string()
                } else {
                    format!("runs {next}–{} are missing", c.first_run - 1)
                }
            )));
        }
        cfg.runs += c.runs;
        for (t, s) in totals.iter_mut().zip(&part.summaries) {
            t.add(&s.totals);
        }
    }
    let models: Vec<Model> = first.summaries.iter().map(|s| s.model).collect();
    let mut report = Report {
        summaries: (0..cfg.systems.len())
            .map(|s| Summary::of(cfg.systems[s], models[s], cfg.players, totals[s].clone()))
            .collect(),
        config: cfg,
    };
    if !timed {
        report.without_timing();
    }
    Ok(report)
}

/// Summarises the events of one system (in run order).
pub fn summarise(system: SystemKind, model: Model, players: usize, events: &[Event]) -> Summary {
    summarise_with_refusals(system, model, players, events, &[])
}

/// [`summarise`], with the messages of the runs the system refused.
pub fn summarise_with_refusals(
    system: SystemKind,
    model: Model,
    players: usize,
    events: &[Event],
    refusals: &[String],
) -> Summary {
    Summary::of(system, model, players, Totals::of(events, refusals))
}

impl Summary {
    /// The figures from one system's sums over its runs.
    pub fn of(system: SystemKind, model: Model, players: usize, t: Totals) -> Summary {
        let runs = t.events;
        let mean = |x: f64| if runs == 0 { 0.0 } else { x / runs as f64 };
        let per = |s: f64, n: usize| if n == 0 { 0.0 } else { s / n as f64 };
        let gap_by_round = t
            .gap_by_round
            .iter()
            .zip(&t.games_by_round)
            .map(|(&s, &n)| per(s, n))
            .collect();
        let seconds_mean = match t.seconds {
            Some(s) if t.seconds_count > 0 => s / t.seconds_count as f64,
            Some(_) => 0.0,
            None => f64::NAN,
        };
        Summary {
            system,
            model,
            runs,
            joint_perfect: t.joint_perfect,
            joint_perfect_share: mean(t.joint_perfect as f64),
            joint_perfect_ci: wilson(t.joint_perfect, runs),
            perfect_mean: mean(t.perfect as f64),
            gap_by_round,
            gap_mean: per(t.gap_by_round.iter().sum(), t.games_by_round.iter().sum()),
            repeats_mean: mean(t.repeats as f64),
            imbalance_mean: per(t.imbalance as f64, runs * players.max(1)),
            imbalance_max: t.imbalance_max,
            seconds_mean,
            seconds_max: t.seconds_max.unwrap_or(f64::NAN),
            not_proved: t.not_proved,
            violations: t.violations,
            unpaired: t.unpaired,
            refused: t.refused,
            refused_first: t.refused_first.clone(),
            totals: t,
        }
    }
}

/// Checks a configuration before anything runs: sizes (the systems are typed).
pub fn validate(cfg: &Config) -> Result<()> {
    if cfg.systems.is_empty() {
        return Err(Error::field("systems", "give at least one system"));
    }
    if cfg.players < 2 {
        return Err(Error::field("players", "at least 2 players"));
    }
    if cfg.rounds == 0 {
        return Err(Error::field("rounds", "at least 1 round"));
    }
    if cfg.runs == 0 {
        return Err(Error::field("runs", "at least 1 run"));
    }
    if !(0.0..=1.0).contains(&cfg.draw_rate) {
        return Err(Error::field("draw_rate", "a probability between 0 and 1"));
    }
    if cfg.threads == 0 {
        return Err(Error::field("threads", "at least 1 thread"));
    }
    Ok(())
}

/// Runs the simulation: `runs` events per system across `threads` threads. `progress` is
/// called with (events done, events in all) after each event, from the worker threads. A run
/// the system refuses (an error) is counted in [`Summary::refused`] and left out; if a system
/// refuses every run, the simulation fails with the first refusal.
pub fn run(cfg: &Config, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<Report> {
    validate(cfg)?;
    let ns = cfg.systems.len();
    let total = ns * cfg.runs;
    let models: Vec<Model> = cfg
        .systems
        .iter()
        .map(|&s| {
            cfg.model
                .unwrap_or_else(|| Model::for_system(s, cfg.draw_rate))
        })
        .collect();
    let opts = Options {
        time_limit: cfg.time_limit,
        ..Options::default()
    };
    // Job j is run j / ns of system j % ns: systems interleave, so a partial run (or the
    // progress bar) covers every system alike.
    let slots: Mutex<Vec<Option<Result<Event>>>> = Mutex::new(vec![None; total]);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.min(total) {
            scope.spawn(|| loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                if j >= total {
                    break;
                }
                let (run, s) = (j / ns, j % ns);
                let out = event(
                    cfg.systems[s],
                    cfg.players,
                    cfg.rounds,
                    run_seed(cfg.seed, cfg.first_run + run),
                    models[s],
                    &cfg.settings,
                    &opts,
                );
                slots.lock().expect("no panic while holding the lock")[j] = Some(out);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            });
        }
    });
    let slots = slots.into_inner().expect("threads joined");
    let mut per_system: Vec<Vec<Event>> = vec![Vec::with_capacity(cfg.runs); ns];
    let mut refusals: Vec<Vec<String>> = vec![Vec::new(); ns];
    for (j, slot) in slots.into_iter().enumerate() {
        let (run, s) = (j / ns, j % ns);
        match slot.expect("every job ran") {
            Ok(mut ev) => {
                let seed = run_seed(cfg.seed, cfg.first_run + run);
                for f in &mut ev.findings {
                    *f = format!("run {} (seed {seed}): {f}", cfg.first_run + run);
                }
                per_system[s].push(ev)
            }
            Err(e) => refusals[s].push(format!(
                "{} run {} (seed {}): {e}",
                cfg.systems[s],
                cfg.first_run + run,
                run_seed(cfg.seed, cfg.first_run + run)
            )),
        }
    }
    if let Some(s) = (0..ns).find(|&s| per_system[s].is_empty()) {
        return Err(Error::input(format!(
            "every run refused; first: {}",
            refusals[s][0]
        )));
    }
    let summaries = (0..ns)
        .map(|s| {
            summarise_with_refusals(
                cfg.systems[s],
                models[s],
                cfg.players,
                &per_system[s],
                &refusals[s],
            )
        })
        .collect();
    Ok(Report {
        config: cfg.clone(),
        summaries,
    })
}
