#![allow(clippy::needless_range_loop, clippy::type_complexity)]
//! Agreement with a reference FIDE Dutch engine (bbpPairings 6.0.0 random tournaments).
//!
//! For every TRF in DIR and every round k: re-pair round k from rounds 1..k-1 with the standard
//! Swiss and compare with round k as recorded: identical (same pairs, colours and bye), same
//! pairs with other colours, or other pairs. Where the pairs differ, the recorded pairing is
//! scored on our tiers (`solve::evaluate`) and compared lexicographically with ours.
//!
//! ```text
//! cargo run --release --example agreement -- [--max-players N] [--budget SECONDS]
//!     [--explain N] [--explain-players N] [--no-planned] [--only SUBSTR] [--time-limit S]
//!     [--variant base|tb|lex|lex2|lex3|lex4] [--ref-floats] [--dump FILE_SUBSTR:ROUND] [DIR]
//! ```
//!
//! * `--max-players N` (default 250): skip files with more players;
//! * `--budget SECONDS`: stop starting new files once this much time has passed;
//! * `--explain N` (default 5): explain up to N differing rounds of files with at most
//!   `--explain-players` (default 40) players;
//! * `--no-planned`: leave the number of rounds unset (the files carry no `XXR`; by default
//!   it is set to the rounds in the file, as the generator knew it, so that the last-round
//!   topscorer rule C.04.3 A.7 applies);
//! * `--only SUBSTR`: only files whose name contains SUBSTR;
//! * `--time-limit S`: `Options::time_limit` for every pairing (none by default: the exact
//!   solve runs to the end);
//! * `--variant`: an experimental tier design built here from the standard spec (hard rules
//!   untouched) and solved with `solve::solve` instead of `pair_round` (see [`variant_spec`]);
//!   `--ref-floats` makes the lex variants count repeated floats from the reference engine's
//!   float history;
//! * `--dump FILE_SUBSTR:ROUND`: print the field and both pairings of that round.
//!
//! Non-identical rounds are also judged bracket by bracket with the reference engine's
//! criteria as we read them (bbpPairings `dutch.cpp`, see [`dutch_key`]): that says whether a
//! difference comes from the order of our tiers or only from the in-bracket tie-breaks.

use optipair::engine::pair_round;
use optipair::solve::{evaluate, Options, Status};
use optipair::spec::{RoundSpec, Tier};
use optipair::systems::colour::{breaks_colour_limits, preference, Strength};
use optipair::systems::swiss::{pair_costs, Field};
use optipair::tournament::{ByeKind, Colour, Float, Standings, Tournament};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Short name of a tier of the standard Swiss, by its name (the full name otherwise).
fn short_name(name: &str) -> String {
    let n = name.to_lowercase();
    let s = if n.starts_with("bye above the lowest score group") {
        "bye"
    } else if n.contains("bye") && n.contains("lowest-ranked") {
        "bye rank"
    } else if n.starts_with("float size") {
        "float"
    } else if n.starts_with("colour preferences not granted") && !n.contains("bracket") {
        "colour"
    } else if n.starts_with("strong colour preferences not granted") && !n.contains("bracket") {
        "strong"
    } else if n.starts_with("floats repeated from last round") {
        "rep1"
    } else if n.starts_with("floats repeated from two rounds") {
        "rep2"
    } else if n.starts_with("in-bracket order (s1 v s2)") {
        "order"
    } else {
        return name.to_string();
    };
    s.to_string()
}

/// Index (into a candidate's costs) of the standard tier with short name `short`.
fn tier_index(spec: &RoundSpec, short: &str) -> usize {
    spec.tiers
        .iter()
        .position(|t| short_name(&t.name) == short)
        .unwrap_or_else(|| panic!("no tier '{short}' in the standard Swiss"))
}

struct Args {
    max_players: usize,
    budget: Option<f64>,
    explain: usize,
    explain_players: usize,
    planned: bool,
    only: Option<String>,
    variant: String,
    /// `--dump FILE_SUBSTR:ROUND`: print the field and both pairings of one round.
    dump: Option<(String, u32)>,
    /// Lex variants: repeated floats from the reference reading of the float history.
    ref_floats: bool,
    /// `Options::time_limit` per pairing (none by default).
    time_limit: Option<f64>,
    dir: PathBuf,
}

fn args() -> Args {
    let mut a = Args {
        max_players: 250,
        budget: None,
        explain: 5,
        explain_players: 40,
        planned: true,
        only: None,
        variant: "base".into(),
        dump: None,
        ref_floats: false,
        time_limit: None,
        dir: PathBuf::from("/work/shared/reference/dutch"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut val = |name: &str| it.next().unwrap_or_else(|| panic!("{name} needs a value"));
        match x.as_str() {
            "--max-players" => a.max_players = val("--max-players").parse().expect("number"),
            "--budget" => a.budget = Some(val("--budget").parse().expect("seconds")),
            "--explain" => a.explain = val("--explain").parse().expect("number"),
            "--explain-players" => {
                a.explain_players = val("--explain-players").parse().expect("number")
            }
            "--no-planned" => a.planned = false,
            "--only" => a.only = Some(val("--only")),
            "--variant" => a.variant = val("--variant"),
            "--ref-floats" => a.ref_floats = true,
            "--time-limit" => a.time_limit = Some(val("--time-limit").parse().expect("seconds")),
            "--dump" => {
                let v = val("--dump");
                let (f, r) = v.rsplit_once(':').expect("--dump FILE:ROUND");
                a.dump = Some((f.to_string(), r.parse().expect("round")));
            }
            "-h" | "--help" => {
                eprintln!("agreement [--max-players N] [--budget S] [--explain N] [--explain-players N] [--no-planned] [--only SUBSTR] [--time-limit S] [--variant V] [--ref-floats] [--dump FILE:ROUND] [DIR]");
                std::process::exit(0);
            }
            _ => a.dir = PathBuf::from(x),
        }
    }
    a
}

/// Per-file results.
#[derive(Default)]
struct FileStats {
    name: String,
    players: usize,
    rounds: u32,
    identical: usize,
    other_colours: usize,
    differing: usize,
    /// First differing tier → (ours better, reference better), pairs differing only.
    first: BTreeMap<(usize, String), (usize, usize)>,
    /// Differing pairs but equal on every tier (another optimum).
    ties: usize,
    /// Recorded pairing breaks a hard rule of our model.
    hard: usize,
    /// Rounds where ours was not proved optimal.
    unproved: usize,
    /// Recorded round flagged by our verifier.
    verifier_flags: usize,
    /// Rounds where recorded colours (own pairs) differ from our allocation E.1-E.5.
    colour_alloc_diffs: usize,
    bugs: Vec<String>,
    seconds: Vec<f64>,
    /// Non-identical rounds judged bracket by bracket as the reference engine does:
    /// (criterion, reference better) → count; criterion "-" = equal up to the in-bracket order.
    dutch: BTreeMap<(String, bool), usize>,
    /// Rounds where our float history differs from the reference reading (art. 1.4.3).
    float_history_diffs: usize,
}

/// A recorded or computed round: (white, black) games and pairing-allocated byes.
#[derive(Clone)]
struct Pairing {
    games: Vec<(u32, u32)>,
    byes: Vec<u32>,
}

impl Pairing {
    fn pairs(&self) -> BTreeSet<(u32, u32)> {
        self.games
            .iter()
            .map(|&(w, b)| (w.min(b), w.max(b)))
            .collect()
    }
    fn oriented(&self) -> BTreeSet<(u32, u32)> {
        self.games.iter().copied().collect()
    }
}

fn recorded(t: &Tournament, k: u32) -> Pairing {
    let rd = t.round(k).expect("recorded round");
    Pairing {
        games: rd.games.iter().map(|g| (g.white, g.black)).collect(),
        byes: rd
            .byes
            .iter()
            .filter(|b| b.kind == ByeKind::PairingAllocated)
            .map(|b| b.player)
            .collect(),
    }
}

/// The Field the standard Swiss builds (same pairing score as `Swiss::spec`).
fn field(base: &Tournament, k: u32) -> Field {
    Field::new(base, k, &|p, s| {
        s.score + p.virtual_points.get(k as usize - 1).copied().unwrap_or(0.0)
    })
    .expect("field")
}

/// Tier values of `p` with its own colours (not the colours our allocation would give), and
/// the games whose recorded colours break C.04.1 f/g in our model. Pairs that are rematches
/// are costed anyway; `evaluate` reports those.
fn colour_exact(
    n_tiers: usize,
    f: &Field,
    p: &Pairing,
    spec_byes: &[(usize, Vec<i64>)],
) -> (Vec<i64>, Vec<(u32, u32)>) {
    let groups = f.groups();
    let mut group_of = vec![0; f.len()];
    for (gi, g) in groups.iter().enumerate() {
        for i in g.clone() {
            group_of[i] = gi;
        }
    }
    let idx = |id: u32| f.ids.iter().position(|&x| x == id);
    let mut v = vec![0i64; n_tiers + 1];
    let mut bad = Vec::new();
    let mut used = vec![false; f.len()];
    for &(w, b) in &p.games {
        let (Some(iw), Some(ib)) = (idx(w), idx(b)) else {
            continue;
        };
        used[iw] = true;
        used[ib] = true;
        let (a, bb) = (iw.min(ib), iw.max(ib));
        let ca = if a == iw {
            Colour::White
        } else {
            Colour::Black
        };
        let legal = (f.topscorer[a] || !breaks_colour_limits(&f.standings[a], ca))
            && (f.topscorer[bb] || !breaks_colour_limits(&f.standings[bb], ca.opposite()));
        if !legal {
            bad.push((w, b));
        }
        for (t, c) in pair_costs(f, &groups, &group_of, a, bb, ca)
            .to_vec()
            .iter()
            .enumerate()
        {
            v[t + 1] += c;
        }
    }
    for &b in &p.byes {
        if let Some(i) = idx(b) {
            used[i] = true;
            if let Some((_, costs)) = spec_byes.iter().find(|(pl, _)| *pl == i) {
                for (t, c) in costs.iter().enumerate() {
                    v[t + 1] += c;
                }
            }
        }
    }
    v[0] = used.iter().filter(|u| !**u).count() as i64;
    (v, bad)
}

/// Each player's opponent index (`None`: bye or unpaired) in `f`'s rank order.
fn partners(f: &Field, p: &Pairing) -> Vec<Option<usize>> {
    let idx = |id: u32| f.ids.iter().position(|&x| x == id);
    let mut out = vec![None; f.len()];
    for &(w, b) in &p.games {
        if let (Some(i), Some(j)) = (idx(w), idx(b)) {
            out[i] = Some(j);
            out[j] = Some(i);
        }
    }
    out
}

/// Floats of earlier rounds as the reference engine reads FIDE Dutch 2025 art. 1.4: by the
/// scores before the round for games paired (played or forfeited, the forfeit loser included),
/// a downfloat for scoring more than a loss without playing, none otherwise (zero-point
/// absence). Index 0 = round 1.
fn reference_floats(t: &Tournament, k: u32) -> BTreeMap<u32, Vec<Float>> {
    let st = Standings::before(t, k);
    let s = &t.scoring;
    let mut out: BTreeMap<u32, Vec<Float>> = BTreeMap::new();
    for p in &t.players {
        let me = st.get(p.id).unwrap();
        let mut v = Vec::new();
        for r in 1..k {
            let before = |id: u32| st.get(id).unwrap().score_before[r as usize - 1];
            let rd = t.round(r);
            let game =
                rd.and_then(|rd| rd.games.iter().find(|g| g.white == p.id || g.black == p.id));
            let fl = match game {
                Some(g) => {
                    let (pw, pb) = g.result.points(s);
                    let (mine, opp) = if g.white == p.id {
                        (pw, g.black)
                    } else {
                        (pb, g.white)
                    };
                    if !g.result.played() && mine > s.loss + 1e-9 {
                        Float::Down
                    } else {
                        let (a, b) = (before(p.id), before(opp));
                        if a > b + 1e-9 {
                            Float::Down
                        } else if a + 1e-9 < b {
                            Float::Up
                        } else {
                            Float::None
                        }
                    }
                }
                None => {
                    let pts: f64 = rd
                        .map(|rd| {
                            rd.byes
                                .iter()
                                .filter(|b| b.player == p.id)
                                .map(|b| b.kind.points(s))
                                .sum()
                        })
                        .unwrap_or(0.0);
                    if pts > s.loss + 1e-9 {
                        Float::Down
                    } else {
                        Float::None
                    }
                }
            };
            v.push(fl);
        }
        let _ = me;
        out.insert(p.id, v);
    }
    out
}

/// The reference engine's criteria as we read them (bbpPairings `dutch.cpp`), bracket by
/// bracket from the top: for bracket g (the pair's bracket is the score group of its
/// lower-scored player): downfloaters out of g, moved-down players paired in g by their score
/// group (more from higher groups is better, negated), the same two for bracket g+1 (C.7),
/// colour preferences not granted and strong ones in g, then repeated down/up floats (one and
/// two rounds back). Lower is better, compared lexicographically.
fn dutch_key(
    f: &Field,
    p: &Pairing,
    floats: &BTreeMap<u32, Vec<Float>>,
) -> Vec<Vec<(String, i64)>> {
    let groups = f.groups();
    let ng = groups.len();
    let mut group_of = vec![0; f.len()];
    for (gi, g) in groups.iter().enumerate() {
        for i in g.clone() {
            group_of[i] = gi;
        }
    }
    let part = partners(f, p);
    // New float of each player this round.
    let newf: Vec<Float> = (0..f.len())
        .map(|i| match part[i] {
            None => {
                if p.byes.contains(&f.ids[i]) {
                    Float::Down
                } else {
                    Float::None
                }
            }
            Some(j) => {
                if f.scores[i] > f.scores[j] + 1e-9 {
                    Float::Down
                } else if f.scores[i] + 1e-9 < f.scores[j] {
                    Float::Up
                } else {
                    Float::None
                }
            }
        })
        .collect();
    let prev = |i: usize, back: usize| -> Float {
        let v = &floats[&f.ids[i]];
        if v.len() >= back {
            v[v.len() - back]
        } else {
            Float::None
        }
    };
    let dfl = |g: usize| -> i64 {
        (0..f.len())
            .filter(|&i| group_of[i] <= g && part[i].is_none_or(|j| group_of[j] > g))
            .count() as i64
    };
    let psd = |g: usize| -> Vec<i64> {
        let mut c = vec![0i64; g + 1];
        for i in 0..f.len() {
            if let Some(j) = part[i] {
                if i < j && group_of[j] == g {
                    c[group_of[i]] -= 1;
                }
            }
        }
        c
    };
    let mut out = Vec::new();
    for g in 0..ng {
        let mut k: Vec<(String, i64)> = vec![("downfloaters".into(), dfl(g))];
        for (s, v) in psd(g).into_iter().enumerate() {
            k.push((format!("MDPs paired from group {s}"), v));
        }
        if g + 1 < ng {
            k.push(("next bracket downfloaters".into(), dfl(g + 1)));
            for (s, v) in psd(g + 1).into_iter().enumerate() {
                k.push((format!("next bracket MDPs paired from group {s}"), v));
            }
        }
        let (mut colour, mut strong, mut limits) = (0, 0, 0);
        for &(w, bl) in &p.games {
            let (Some(iw), Some(ib)) = (
                f.ids.iter().position(|&x| x == w),
                f.ids.iter().position(|&x| x == bl),
            ) else {
                continue;
            };
            if group_of[iw.max(ib)] != g {
                continue;
            }
            for (x, c) in [(iw, Colour::White), (ib, Colour::Black)] {
                let pr = preference(&f.standings[x]);
                let missed = pr.colour.is_some_and(|pc| pc != c);
                colour += missed as i64;
                strong += (missed && pr.strength >= Strength::Strong) as i64;
                limits += breaks_colour_limits(&f.standings[x], c) as i64;
            }
        }
        k.push(("colour limits (topscorers)".into(), limits));
        k.push(("colour preferences".into(), colour));
        k.push(("strong colour preferences".into(), strong));
        for back in [1usize, 2] {
            let down = groups[g]
                .clone()
                .filter(|&i| newf[i] == Float::Down && prev(i, back) == Float::Down)
                .count() as i64;
            let up = groups[g]
                .clone()
                .filter(|&i| newf[i] == Float::Up && prev(i, back) == Float::Up)
                .count() as i64;
            k.push((format!("downfloat repeated from {back} back"), down));
            k.push((format!("upfloat repeated from {back} back"), up));
        }
        out.push(k);
    }
    out
}

/// First bracket and criterion where two Dutch keys differ: (bracket, criterion, ours better).
fn dutch_first_diff(
    ours: &[Vec<(String, i64)>],
    rec: &[Vec<(String, i64)>],
) -> Option<(usize, String, bool)> {
    for (g, (a, b)) in ours.iter().zip(rec).enumerate() {
        for ((name, x), (_, y)) in a.iter().zip(b) {
            if x != y {
                return Some((g, name.clone(), x < y));
            }
        }
    }
    None
}

/// Criterion names without the group numbers, for counting.
fn criterion_class(c: &str) -> String {
    if c.starts_with("next bracket MDPs") {
        "next bracket MDPs paired".into()
    } else if c.starts_with("MDPs") {
        "MDPs paired".into()
    } else {
        c.to_string()
    }
}

/// Tier label: the short names for the standard tiers, the spec's names otherwise.
fn label(spec: &RoundSpec, i: usize) -> String {
    if i == 0 {
        "unpaired".into()
    } else {
        short_name(&spec.tiers[i - 1].name)
    }
}

/// The round's specification under a tier design to try (`base` = the standard Swiss as it
/// is), with each tier's class (kind index, name) for counting. Hard rules (candidates, bye
/// options) are untouched: only tiers and costs change.
///
/// * `tb`: the standard tiers plus tie-breaks: colour and strong colour misses weighted by
///   bracket height right after the plain counts, and a Dutch-like in-bracket order (an
///   exchange costs more than any transposition) weighted by bracket height.
/// * `lex`: bracket by bracket from the top, as the reference engine does: downfloaters out of
///   each bracket and the score of the moved-down players paired in it (for this bracket and the
///   next, C.5-C.7), then in the bracket: colour misses, strong ones, repeated floats (one and
///   two rounds back), in-bracket order. Σ(score steps)² is dropped.
fn variant_spec(
    spec0: &RoundSpec,
    f: &Field,
    variant: &str,
    floats: Option<&BTreeMap<u32, Vec<Float>>>,
) -> (RoundSpec, Vec<(usize, String)>) {
    let base_classes: Vec<(usize, String)> = (0..=spec0.tiers.len())
        .map(|i| (i, label(spec0, i)))
        .collect();
    let (i_bye, i_colour, i_strong, i_order) = (
        tier_index(spec0, "bye"),
        tier_index(spec0, "colour"),
        tier_index(spec0, "strong"),
        tier_index(spec0, "order"),
    );
    if variant == "base" {
        return (spec0.clone(), base_classes);
    }
    let groups = f.groups();
    let ng = groups.len();
    let n = f.len();
    let mut group_of = vec![0; n];
    for (gi, g) in groups.iter().enumerate() {
        for i in g.clone() {
            group_of[i] = gi;
        }
    }
    // Dutch-like order parts of a pair: (bracket, cost).
    // lex2/lex3: positions relative to the expected remainder: one moved-down player expected
    // when the players above the group are odd in number (paired with the top resident), one
    // downfloater when the players down to the group's end are odd (the lowest resident).
    let remainder_mode = variant == "lex2" || variant == "lex3" || variant == "lex4";
    let weighted = variant == "lex3" || variant == "lex4";
    let order_parts = |a: usize, b: usize| -> Vec<(usize, i64)> {
        let (ga, gb) = (group_of[a], group_of[b]);
        if ga == gb {
            let g = &groups[ga];
            let len = g.len() as i64;
            let (i, j) = ((a - g.start) as i64, (b - g.start) as i64);
            if !remainder_mode {
                let half = len / 2;
                let exchange = if j < half || i >= half { len } else { 0 };
                return vec![(ga, (j - i - half).abs() + exchange)];
            }
            let m = (g.start % 2) as i64;
            let fl = (g.end % 2) as i64;
            let p = (len - m - fl) / 2;
            if variant == "lex4" {
                // The remainder's S1/S2 boundary is only known without moved-down players;
                // with them, only the distance S1 v S2 (p) is scored.
                let dev = (j - i - p).abs();
                let w = if i < p { p - i } else { 1 };
                let exchange = if m == 0 && (j < p || i >= p) {
                    len * p.max(1)
                } else {
                    0
                };
                return vec![(ga, dev * w + exchange)];
            }
            if i < m || j >= len - fl {
                return vec![(ga, 2 * len)];
            }
            let (ii, jj) = (i - m, j - m);
            let exchange = if jj < p || ii >= p { len } else { 0 };
            let dev = (jj - ii - p).abs();
            let w = if weighted && ii < p { p - ii } else { 1 };
            vec![(ga, dev * w + exchange * if weighted { p.max(1) } else { 1 })]
        } else {
            vec![
                (ga, (groups[ga].end - 1 - a) as i64),
                (gb, (b - groups[gb].start) as i64),
            ]
        }
    };
    // Float history: ours, or the reference reading (`--ref-floats`).
    let hist = |i: usize| -> &Vec<Float> {
        match floats {
            Some(m) => &m[&f.ids[i]],
            None => &f.standings[i].floats,
        }
    };
    let down_rep = |i: usize, back: usize| -> i64 {
        let fl = hist(i);
        (fl.len() >= back && fl[fl.len() - back] == Float::Down) as i64
    };
    let up_rep = |i: usize, back: usize| -> i64 {
        let fl = hist(i);
        (fl.len() >= back && fl[fl.len() - back] == Float::Up) as i64
    };
    let mut spec = spec0.clone();
    match variant {
        "tb" => {
            let h = |g: usize| (ng - g) as i64;
            let mut tiers = Vec::new();
            let mut classes = vec![(0, "unpaired".to_string())];
            for (t, tier) in spec0.tiers.iter().enumerate() {
                if t == i_order {
                    tiers.push(Tier::new(
                        "in-bracket order (exchanges, transpositions), by bracket height",
                        "tie-break",
                    ));
                } else {
                    tiers.push(tier.clone());
                }
                classes.push((classes.len(), short_name(&tiers.last().unwrap().name)));
                if t == i_colour || t == i_strong {
                    let what = if t == i_colour { "colour" } else { "strong" };
                    tiers.push(Tier::new(
                        &format!("{what} preferences not granted, by bracket height"),
                        "tie-break",
                    ));
                    classes.push((classes.len(), format!("{what} by bracket")));
                }
            }
            spec.tiers = tiers;
            for c in spec.candidates.iter_mut() {
                let (a, b) = (c.a.min(c.b), c.a.max(c.b));
                let gb = group_of[b];
                let k = c.costs.clone();
                let mut v = Vec::new();
                for t in 0..k.len() {
                    if t == i_order {
                        v.push(order_parts(a, b).iter().map(|&(g, x)| x * h(g)).sum());
                    } else {
                        v.push(k[t]);
                    }
                    if t == i_colour || t == i_strong {
                        v.push(k[t] * h(gb));
                    }
                }
                c.costs = v;
            }
            for o in spec.byes.iter_mut() {
                let k = o.costs.clone();
                let g = group_of[o.player];
                let mut v = Vec::new();
                for t in 0..k.len() {
                    v.push(if t == i_order { k[t] * h(g) } else { k[t] });
                    if t == i_colour || t == i_strong {
                        v.push(0);
                    }
                }
                o.costs = v;
            }
            (spec, classes)
        }
        "lex" | "lex2" | "lex3" | "lex4" => {
            // Tier layout.
            #[derive(Clone, Copy, PartialEq)]
            enum K {
                Bye,
                Dfl(usize),
                Psd(usize),
                Colour(usize),
                Strong(usize),
                Rep1(usize),
                Rep2(usize),
                Order(usize),
            }
            let mut layout = vec![K::Bye, K::Dfl(0), K::Psd(0)];
            for g in 0..ng {
                if g + 1 < ng {
                    layout.push(K::Dfl(g + 1));
                    layout.push(K::Psd(g + 1));
                }
                layout.extend([
                    K::Colour(g),
                    K::Strong(g),
                    K::Rep1(g),
                    K::Rep2(g),
                    K::Order(g),
                ]);
            }
            let score = |g: usize| f.scores[groups[g].start];
            spec.tiers = layout
                .iter()
                .map(|k| match *k {
                    K::Bye => spec0.tiers[i_bye].clone(),
                    K::Dfl(g) => Tier::new(&format!("B{g} ({}) downfloaters", score(g)), "C.5"),
                    K::Psd(g) => Tier::new(&format!("B{g} ({}) MDP scores", score(g)), "C.6"),
                    K::Colour(g) => Tier::new(&format!("B{g} ({}) colour", score(g)), "C.10"),
                    K::Strong(g) => Tier::new(&format!("B{g} ({}) strong", score(g)), "C.11"),
                    K::Rep1(g) => Tier::new(&format!("B{g} ({}) rep1", score(g)), "C.12-13"),
                    K::Rep2(g) => Tier::new(&format!("B{g} ({}) rep2", score(g)), "C.14-15"),
                    K::Order(g) => Tier::new(&format!("B{g} ({}) order", score(g)), "B"),
                })
                .collect();
            let classes: Vec<(usize, String)> = std::iter::once((0, "unpaired".to_string()))
                .chain(layout.iter().map(|k| match *k {
                    K::Bye => (1, "bye".to_string()),
                    K::Dfl(_) => (2, "downfloaters".to_string()),
                    K::Psd(_) => (3, "MDP scores".to_string()),
                    K::Colour(_) => (4, "colour".to_string()),
                    K::Strong(_) => (5, "strong".to_string()),
                    K::Rep1(_) => (6, "rep1".to_string()),
                    K::Rep2(_) => (7, "rep2".to_string()),
                    K::Order(_) => (8, "order".to_string()),
                }))
                .collect();
            for c in spec.candidates.iter_mut() {
                let (a, b) = (c.a.min(c.b), c.a.max(c.b));
                let (ga, gb) = (group_of[a], group_of[b]);
                let k0 = c.costs.clone();
                let cross = ga < gb;
                let parts = order_parts(a, b);
                c.costs = layout
                    .iter()
                    .map(|k| match *k {
                        K::Bye => k0[i_bye],
                        K::Dfl(g) => (ga <= g && g < gb) as i64,
                        K::Psd(g) => {
                            if gb == g {
                                ga as i64
                            } else {
                                0
                            }
                        }
                        K::Colour(g) => {
                            if gb == g {
                                k0[i_colour]
                            } else {
                                0
                            }
                        }
                        K::Strong(g) => {
                            if gb == g {
                                k0[i_strong]
                            } else {
                                0
                            }
                        }
                        K::Rep1(g) => {
                            (cross && ga == g) as i64 * down_rep(a, 1)
                                + (cross && gb == g) as i64 * up_rep(b, 1)
                        }
                        K::Rep2(g) => {
                            (cross && ga == g) as i64 * down_rep(a, 2)
                                + (cross && gb == g) as i64 * up_rep(b, 2)
                        }
                        K::Order(g) => parts.iter().filter(|p| p.0 == g).map(|p| p.1).sum(),
                    })
                    .collect();
            }
            for o in spec.byes.iter_mut() {
                let i = o.player;
                let gi = group_of[i];
                let k0 = o.costs.clone();
                o.costs = layout
                    .iter()
                    .map(|k| match *k {
                        K::Bye => k0[i_bye],
                        K::Dfl(g) => (gi <= g) as i64,
                        K::Rep1(g) => (g == gi) as i64 * down_rep(i, 1),
                        K::Rep2(g) => (g == gi) as i64 * down_rep(i, 2),
                        K::Order(g) => (g == gi) as i64 * (n - 1 - i) as i64,
                        _ => 0,
                    })
                    .collect();
            }
            (spec, classes)
        }
        other => panic!("unknown --variant {other} (base, tb, lex, lex2, lex3)"),
    }
}

/// The field of one round (rank order, score, colours, preference, floats) and both pairings.
fn dump(f: &Field, spec: &RoundSpec, ours: &Pairing, rec: &Pairing) {
    let (po, pr) = (partners(f, ours), partners(f, rec));
    println!("rank id score colours pref floats | ours | reference");
    for i in 0..f.len() {
        let s = &f.standings[i];
        let cols: String = s
            .colours
            .iter()
            .map(|c| match c {
                Some(Colour::White) => 'W',
                Some(Colour::Black) => 'B',
                None => '-',
            })
            .collect();
        let fl: String = s
            .floats
            .iter()
            .map(|x| match x {
                Float::Down => 'D',
                Float::Up => 'U',
                Float::None => '.',
            })
            .collect();
        let p = preference(s);
        let pref = match (p.colour, p.strength) {
            (None, _) => "-".to_string(),
            (Some(c), st) => format!("{}{:?}", if c == Colour::White { "W" } else { "B" }, st),
        };
        let show = |x: &Option<usize>, pp: &Pairing| match x {
            Some(j) => {
                let white = pp.games.iter().any(|&(w, _)| w == f.ids[i]);
                format!("{}{}", if white { "W v " } else { "B v " }, f.ids[*j])
            }
            None => {
                if pp.byes.contains(&f.ids[i]) {
                    "bye".into()
                } else {
                    "-".into()
                }
            }
        };
        println!(
            "{:>3} {:>4} {:>4} {:<12} {:<10} {:<12} | {:<8} | {:<8}{}",
            i,
            f.ids[i],
            f.scores[i],
            cols,
            pref,
            fl,
            show(&po[i], ours),
            show(&pr[i], rec),
            if po[i] != pr[i] { "  *" } else { "" }
        );
    }
    let _ = spec;
}

fn first_diff(a: &[i64], b: &[i64]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y)
}

fn main() {
    let a = args();
    let start = Instant::now();
    let mut files: Vec<(usize, PathBuf)> = std::fs::read_dir(&a.dir)
        .expect("read dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .filter(|p| {
            a.only
                .as_ref()
                .is_none_or(|s| p.to_string_lossy().contains(s.as_str()))
        })
        .map(|p| (players_in_name(&p), p))
        .collect();
    files.sort();
    let mut all = Vec::new();
    let mut explanations = Vec::new();
    let mut skipped = Vec::new();
    for (n, path) in &files {
        if *n > a.max_players {
            skipped.push(format!("{} (over --max-players)", file_name(path)));
            continue;
        }
        if let Some(b) = a.budget {
            if start.elapsed().as_secs_f64() > b {
                skipped.push(format!("{} (time budget)", file_name(path)));
                continue;
            }
        }
        let st = run_file(path, &a, &mut explanations);
        eprintln!(
            "{}: {}/{} identical, {} other colours, {} differing, max {:.2}s",
            st.name,
            st.identical,
            st.rounds,
            st.other_colours,
            st.differing,
            st.seconds.iter().cloned().fold(0.0, f64::max)
        );
        all.push(st);
    }
    print_table(&all);
    if !skipped.is_empty() {
        println!("\nNot run: {}.", skipped.join(", "));
    }
    let bugs: Vec<&String> = all.iter().flat_map(|s| &s.bugs).collect();
    if bugs.is_empty() {
        println!("\nNo round where the reference pairing beats a pairing of ours proved optimal.");
    } else {
        println!("\n**BUG: the reference beats a proved-optimal pairing of ours:**");
        for b in bugs {
            println!("- {b}");
        }
    }
    if !explanations.is_empty() {
        println!("\n### Differing rounds explained\n");
        for e in &explanations {
            println!("{e}");
        }
    }
    eprintln!("total {:.1}s", start.elapsed().as_secs_f64());
}

fn file_name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// `rtg_SEED_Np_Rr.trf` → N (unknown names sort last).
fn players_in_name(p: &Path) -> usize {
    let name = file_name(p);
    name.split('_')
        .find_map(|s| s.strip_suffix('p').and_then(|n| n.parse().ok()))
        .unwrap_or(usize::MAX)
}

fn run_file(path: &Path, a: &Args, explanations: &mut Vec<String>) -> FileStats {
    let mut t = optipair::formats::load(path).expect("load TRF");
    let rounds = t.last_paired_round();
    if a.planned && t.rounds_planned.is_none() {
        t.rounds_planned = Some(rounds);
    }
    let mut st = FileStats {
        name: file_name(path),
        players: t.players.len(),
        rounds,
        ..FileStats::default()
    };
    let opts = Options {
        time_limit: a.time_limit,
        ..Options::default()
    };
    for k in 1..=rounds {
        let base = t.before_round(k);
        let f = field(&base, k);
        let spec0 =
            optipair::systems::model(optipair::SystemKind::Swiss, &optipair::solve::PROGRAMS)
                .spec(&base, k)
                .expect("spec");
        let rfl_spec = a.ref_floats.then(|| reference_floats(&base, k));
        let (spec, classes) = variant_spec(&spec0, &f, &a.variant, rfl_spec.as_ref());
        let pairing = if a.variant == "base" {
            match pair_round(&t, k, optipair::SystemKind::Swiss, &opts) {
                Ok(p) => p.pairing,
                Err(e) => {
                    st.bugs
                        .push(format!("{} round {k}: pair_round failed: {e}", st.name));
                    continue;
                }
            }
        } else {
            optipair::solve::solve(&spec, &opts)
        };
        let cert = &pairing.certificate;
        eprintln!(
            "  {} round {k}: {:.2}s {:?}",
            st.name, cert.seconds, cert.status
        );
        st.seconds.push(cert.seconds);
        if cert.status != Status::Optimal {
            st.unproved += 1;
        }
        let ours = Pairing {
            games: pairing.games.clone(),
            byes: pairing.byes.clone(),
        };
        let rec = recorded(&t, k);
        if let Some((fsub, r)) = &a.dump {
            if st.name.contains(fsub.as_str()) && *r == k {
                dump(&f, &spec, &ours, &rec);
            }
        }
        // Our verifier on the recorded round (independent of the model).
        let flags = {
            let mut after = t.before_round(k);
            *after.round_mut(k) = t.round(k).unwrap().clone();
            optipair::verify::check_round(&after, k, optipair::SystemKind::Swiss)
                .unwrap_or_default()
        };
        if !flags.is_empty() {
            st.verifier_flags += 1;
        }
        let mut ob = ours.byes.clone();
        let mut rb = rec.byes.clone();
        ob.sort();
        rb.sort();
        let same_pairs = ours.pairs() == rec.pairs() && ob == rb;
        if same_pairs && ours.oriented() == rec.oriented() {
            st.identical += 1;
            continue;
        }
        let spec_byes: Vec<(usize, Vec<i64>)> = spec0
            .byes
            .iter()
            .map(|b| (b.player, b.costs.clone()))
            .collect();
        let ours_v: Vec<i64> = cert.tiers.iter().map(|x| x.value).collect();
        let rfl = reference_floats(&base, k);
        if (0..f.len()).any(|i| f.standings[i].floats != rfl[&f.ids[i]]) {
            st.float_history_diffs += 1;
        }
        let dk_ours = dutch_key(&f, &ours, &rfl);
        let dk_rec = dutch_key(&f, &rec, &rfl);
        let dutch = dutch_first_diff(&dk_ours, &dk_rec);
        let key = match &dutch {
            None => ("-".to_string(), false),
            Some((_, c, ours_better)) => (criterion_class(c), !*ours_better),
        };
        *st.dutch.entry(key).or_default() += 1;
        let (rec_exact, rec_bad_colours) = colour_exact(spec0.tiers.len(), &f, &rec, &spec_byes);
        if same_pairs {
            st.other_colours += 1;
            st.colour_alloc_diffs += 1;
            if explanations.len() < a.explain && st.players <= a.explain_players {
                explanations.push(explain(
                    &st.name,
                    k,
                    &f,
                    &spec,
                    &ours,
                    &rec,
                    &ours_v,
                    None,
                    &rec_exact,
                    &rec_bad_colours,
                    &flags,
                    &dutch,
                ));
            }
            continue;
        }
        st.differing += 1;
        let evald = evaluate(&spec, &rec.games, &rec.byes);
        match &evald {
            Err(_) => st.hard += 1,
            Ok((_, rv)) => match first_diff(&ours_v, rv) {
                None => st.ties += 1,
                Some(i) => {
                    let e = st.first.entry(classes[i].clone()).or_default();
                    if ours_v[i] < rv[i] {
                        e.0 += 1;
                    } else {
                        e.1 += 1;
                        if cert.status == Status::Optimal {
                            st.bugs.push(format!(
                                "{} round {k}: reference better on tier {} ({}: ours {:?} reference {:?})",
                                st.name, i, label(&spec, i), ours_v, rv
                            ));
                        }
                    }
                }
            },
        }
        if explanations.len() < a.explain && st.players <= a.explain_players {
            explanations.push(explain(
                &st.name,
                k,
                &f,
                &spec,
                &ours,
                &rec,
                &ours_v,
                Some(&evald.as_ref().map(|x| x.1.clone()).map_err(|e| e.clone())),
                &rec_exact,
                &rec_bad_colours,
                &flags,
                &dutch,
            ));
        }
    }
    st
}

#[allow(clippy::too_many_arguments)]
fn explain(
    name: &str,
    k: u32,
    f: &Field,
    spec: &optipair::spec::RoundSpec,
    ours: &Pairing,
    rec: &Pairing,
    ours_v: &[i64],
    evald: Option<&Result<Vec<i64>, Vec<(u32, u32)>>>,
    rec_exact: &[i64],
    rec_bad_colours: &[(u32, u32)],
    flags: &[optipair::verify::Violation],
    dutch: &Option<(usize, String, bool)>,
) -> String {
    let score = |id: u32| {
        f.ids
            .iter()
            .position(|&x| x == id)
            .map(|i| format!("{}", f.scores[i]))
            .unwrap_or("-".into())
    };
    let game = |&(w, b): &(u32, u32)| format!("{w}({}) - {b}({})", score(w), score(b));
    let mut out = format!("**{name}, round {k}**");
    let (op, rp) = (ours.oriented(), rec.oriented());
    let only_ours: Vec<String> = ours
        .games
        .iter()
        .filter(|g| !rp.contains(g))
        .map(game)
        .collect();
    let only_rec: Vec<String> = rec
        .games
        .iter()
        .filter(|g| !op.contains(g))
        .map(game)
        .collect();
    out.push_str(&format!("\n- ours only:      {}", only_ours.join(", ")));
    out.push_str(&format!("\n- reference only: {}", only_rec.join(", ")));
    if ours.byes != rec.byes {
        out.push_str(&format!(
            "\n- bye: ours {:?}, reference {:?}",
            ours.byes, rec.byes
        ));
    }
    let names: Vec<String> = (0..ours_v.len()).map(|i| label(spec, i)).collect();
    out.push_str(&format!("\n- tiers:              {}", names.join(" ")));
    out.push_str(&format!("\n- ours:               {ours_v:?}"));
    match evald {
        Some(Ok(v)) => {
            out.push_str(&format!("\n- reference (model):  {v:?}"));
            if let Some(i) = first_diff(ours_v, v) {
                out.push_str(&format!(
                    " -> first difference: {} ({} better)",
                    label(spec, i),
                    if ours_v[i] < v[i] {
                        "ours"
                    } else {
                        "reference"
                    }
                ));
            } else {
                out.push_str(" -> equal on every tier");
            }
        }
        Some(Err(bad)) => out.push_str(&format!(
            "\n- reference breaks a hard rule of our model: {bad:?} are not candidates"
        )),
        None => {}
    }
    out.push_str(&format!("\n- reference (own colours): {rec_exact:?}"));
    if !rec_bad_colours.is_empty() {
        out.push_str(&format!(
            "\n- reference colours break C.04.1 f/g in our model: {rec_bad_colours:?}"
        ));
    }
    for v in flags {
        out.push_str(&format!("\n- our verifier on the reference: {}", v.message));
    }
    match dutch {
        None => out.push_str("\n- bracket by bracket (reference criteria): equal up to the in-bracket order"),
        Some((g, c, ours_better)) => out.push_str(&format!(
            "\n- bracket by bracket (reference criteria): first difference in bracket {} (score {}): {c}, {} better",
            g,
            f.scores[f.groups()[*g].start],
            if *ours_better { "ours" } else { "reference" }
        )),
    }
    let _ = spec;
    out.push('\n');
    out
}

fn print_table(all: &[FileStats]) {
    println!("| file | players | rounds | identical | same pairs, other colours | other pairs | first differing tier (ours better / reference better) | equal tiers | reference breaks a hard rule | mean s | max s |");
    println!("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|");
    let mut tot = FileStats::default();
    for s in all {
        let mean = s.seconds.iter().sum::<f64>() / s.seconds.len().max(1) as f64;
        let max = s.seconds.iter().cloned().fold(0.0, f64::max);
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.3} |",
            s.name,
            s.players,
            s.rounds,
            s.identical,
            s.other_colours,
            s.differing,
            tiers_cell(&s.first),
            s.ties,
            s.hard,
            mean,
            max
        );
        tot.players += s.players;
        tot.rounds += s.rounds;
        tot.identical += s.identical;
        tot.other_colours += s.other_colours;
        tot.differing += s.differing;
        tot.ties += s.ties;
        tot.hard += s.hard;
        tot.unproved += s.unproved;
        tot.verifier_flags += s.verifier_flags;
        for (k, v) in &s.first {
            let e = tot.first.entry(k.clone()).or_default();
            e.0 += v.0;
            e.1 += v.1;
        }
        tot.seconds.extend(&s.seconds);
    }
    let mean = tot.seconds.iter().sum::<f64>() / tot.seconds.len().max(1) as f64;
    let max = tot.seconds.iter().cloned().fold(0.0, f64::max);
    println!(
        "| **total ({} files)** | | {} | {} ({:.0}%) | {} | {} | {} | {} | {} | {:.3} | {:.3} |",
        all.len(),
        tot.rounds,
        tot.identical,
        100.0 * tot.identical as f64 / tot.rounds.max(1) as f64,
        tot.other_colours,
        tot.differing,
        tiers_cell(&tot.first),
        tot.ties,
        tot.hard,
        mean,
        max
    );
    println!(
        "\nRounds not proved optimal: {}. Recorded rounds flagged by our verifier: {}.",
        tot.unproved, tot.verifier_flags
    );
    let mut dutch: BTreeMap<(String, bool), usize> = BTreeMap::new();
    let mut fl = 0;
    for s in all {
        fl += s.float_history_diffs;
        for (k, v) in &s.dutch {
            *dutch.entry(k.clone()).or_default() += v;
        }
    }
    println!("\nThe {} non-identical rounds judged bracket by bracket from the top with the reference engine's criteria (first criterion where the two pairings differ):\n", tot.other_colours + tot.differing);
    println!("| first difference | reference better | ours better |");
    println!("|---|---:|---:|");
    let mut names: Vec<&String> = dutch.keys().map(|k| &k.0).collect();
    names.dedup();
    for n in names {
        let r = dutch.get(&(n.clone(), true)).copied().unwrap_or(0);
        let o = dutch.get(&(n.clone(), false)).copied().unwrap_or(0);
        if n == "-" {
            println!(
                "| none: equal up to the in-bracket order (transpositions, exchanges) | {} | |",
                r + o
            );
        } else {
            println!("| {n} | {r} | {o} |");
        }
    }
    println!(
        "\nRounds where our float history (absent players always downfloat) differs from the reference reading of art. 1.4.3: {fl} of {}.",
        tot.rounds
    );
}

fn tiers_cell(m: &BTreeMap<(usize, String), (usize, usize)>) -> String {
    if m.is_empty() {
        return "-".into();
    }
    m.iter()
        .map(|(k, (o, r))| format!("{}: {o}/{r}", k.1))
        .collect::<Vec<_>>()
        .join(", ")
}
