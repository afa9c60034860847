//! Random fields for tests, benchmarks and simulation, deterministic by seed.
//!
//! Result model (chess): ratings drawn from a normal law (mean 1800, sd 300, clipped to
//! 1000–2800). White's expected score is E = 1 / (1 + 10^((Rb − Ra − 35) / 400)) (35 points for
//! the white pieces). A draw happens with probability P(draw) = draw_rate · 2·min(E, 1 − E); the
//! rest splits so that white's expected score stays E: P(white wins) = E − P(draw)/2.
//!
//! Score model (Scrabble, for systems whose games keep scores): ratings from a normal law
//! (mean 1300, sd 400, clipped to 400–2200). Each player's game score is normal with mean
//! 250 + rating/10 (+10 for moving first) and sd 60, rounded, at least 100; equal scores are a
//! tie. A pairing-allocated bye is a win with spread +50. Under this model a 400-point rating
//! edge wins about 75% of games.

use crate::engine;
use crate::solve::Options;
use crate::tournament::{GameResult, Player, Tournament};
use crate::{Result, SystemKind};

/// SplitMix64: small, fast, and the same on every platform and version.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`: the same seed gives the same sequence.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u = self.unit().max(1e-300);
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// Parameters of a generated field.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Players in the field.
    pub players: usize,
    /// Rounds planned.
    pub rounds: u32,
    /// Rounds paired and played (at most `rounds`).
    pub played: u32,
    /// Seed of the [`Rng`]: the same spec gives the same field.
    pub seed: u64,
    /// The `draw_rate` of the chess result model (see the module notes): 0 for no draws, 1 for
    /// as many as the model allows.
    pub draw_rate: f64,
    /// The system pairing each round.
    pub system: SystemKind,
}

/// Players with random ratings, pairing numbers by rating.
pub fn players(n: usize, rng: &mut Rng) -> Vec<Player> {
    let mut ratings: Vec<u32> = (0..n)
        .map(|_| {
            (1800.0 + 300.0 * rng.normal())
                .clamp(1000.0, 2800.0)
                .round() as u32
        })
        .collect();
    ratings.sort_by(|a, b| b.cmp(a));
    ratings
        .into_iter()
        .enumerate()
        .map(|(i, r)| Player::new(i as u32 + 1, format!("Player {:05}", i + 1), r))
        .collect()
}

/// Scrabble players with random ratings, pairing numbers by rating.
pub fn scrabble_players(n: usize, rng: &mut Rng) -> Vec<Player> {
    let mut ratings: Vec<u32> = (0..n)
        .map(|_| (1300.0 + 400.0 * rng.normal()).clamp(400.0, 2200.0).round() as u32)
        .collect();
    ratings.sort_by(|a, b| b.cmp(a));
    ratings
        .into_iter()
        .enumerate()
        .map(|(i, r)| Player::new(i as u32 + 1, format!("Player {:05}", i + 1), r))
        .collect()
}

/// Game scores (first, second) drawn from the Scrabble score model above.
pub fn scrabble_scores(first: u32, second: u32, rng: &mut Rng) -> [i32; 2] {
    let mut score = |rating: u32, bonus: f64| {
        (250.0 + rating as f64 / 10.0 + bonus + 60.0 * rng.normal())
            .round()
            .max(100.0) as i32
    };
    let a = score(first, 10.0);
    let b = score(second, 0.0);
    [a, b]
}

/// A result drawn from the model above.
pub fn result(white: u32, black: u32, draw_rate: f64, rng: &mut Rng) -> GameResult {
    let e = 1.0 / (1.0 + 10f64.powf((black as f64 - white as f64 - 35.0) / 400.0));
    let draw = draw_rate * 2.0 * e.min(1.0 - e);
    let u = rng.unit();
    if u < e - draw / 2.0 {
        GameResult::WhiteWins
    } else if u < e + draw / 2.0 {
        GameResult::Draw
    } else {
        GameResult::BlackWins
    }
}

/// A field with `played` rounds paired under `system` (with `opts`) and results drawn. A
/// greedy history ([`Options::greedy_only`]) is the fallback's plain maximum matching, without
/// its partner exchanges: fast and irregular, and the same fields as builds before them (the
/// benchmark fields).
pub fn field(spec: &Spec, opts: &Options) -> Result<Tournament> {
    let plain = Options {
        fallback_exchanges: crate::solve::Exchanges::Off,
        ..opts.clone()
    };
    let opts = if opts.greedy_only { &plain } else { opts };
    let scrabble = crate::systems::model(spec.system, &crate::solve::PROGRAMS).game_scores();
    let mut rng = Rng::new(spec.seed);
    let field = if scrabble {
        scrabble_players(spec.players, &mut rng)
    } else {
        players(spec.players, &mut rng)
    };
    let mut t = Tournament::new(
        format!("Generated {} players, seed {}", spec.players, spec.seed),
        field,
    );
    t.rounds_planned = Some(spec.rounds);
    t.system = Some(spec.system.to_string());
    t.scoring.game_scores = scrabble;
    set_prog_groups(&mut t, spec.system);
    for r in 1..=spec.played.min(spec.rounds) {
        let paired = engine::pair_round(&t, r, spec.system, opts)?;
        t = engine::store(&t, &paired);
        play(&mut t, r, spec.draw_rate, &mut rng);
    }
    Ok(t)
}

/// PROG's groups are the arbiter's to set ("decided by the arbiter before the start of first
/// round"): for a generated field without `prog.a_min` / `prog.c_below`, they are set from its
/// ratings ([`crate::systems::prog::bounds_for_field`]), so that a field the defaults (2000 / 1600) do not fit
/// is still paired.
pub fn set_prog_groups(t: &mut Tournament, system: SystemKind) {
    const KEYS: [&str; 2] = ["prog.a_min", "prog.c_below"];
    if system != SystemKind::Prog || KEYS.iter().any(|k| t.settings.contains_key(*k)) {
        return;
    }
    let ratings: Vec<u32> = t.players.iter().map(|p| p.rating).collect();
    if let Some(b) = crate::systems::prog::bounds_for_field(&ratings) {
        t.settings.insert(KEYS[0].into(), b.a_min.into());
        t.settings.insert(KEYS[1].into(), b.c_below.into());
    }
}

/// Draws the results of round `r`'s pending games (game scores where the event keeps them;
/// pairing-allocated byes then credit +50 spread).
pub fn play(t: &mut Tournament, r: u32, draw_rate: f64, rng: &mut Rng) {
    let scrabble = t.scoring.game_scores;
    let rating = |id: u32| t.player(id).map(|p| p.rating).unwrap_or(0);
    let drawn: Vec<(GameResult, Option<[i32; 2]>)> = t
        .round(r)
        .map(|rd| rd.games.as_slice())
        .unwrap_or(&[])
        .iter()
        .map(|g| {
            if g.result != GameResult::Pending {
                (g.result, g.scores)
            } else if scrabble {
                let s = scrabble_scores(rating(g.white), rating(g.black), rng);
                (GameResult::from_scores(s[0], s[1]), Some(s))
            } else {
                (
                    result(rating(g.white), rating(g.black), draw_rate, rng),
                    None,
                )
            }
        })
        .collect();
    let rd = t.round_mut(r);
    for (g, (res, scores)) in rd.games.iter_mut().zip(drawn) {
        g.result = res;
        g.scores = scores;
    }
    if scrabble {
        for b in &mut rd.byes {
            if b.kind == crate::tournament::ByeKind::PairingAllocated && b.spread.is_none() {
                b.spread = Some(50);
            }
        }
    }
}
