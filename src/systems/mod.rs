//! Pairing systems: tournament state → [`RoundSpec`] (the contract in [`crate::spec`]). One
//! module per system; no system imports the solver: a small program a system needs answered
//! while it states a round (NSC06's quad membership, TSH07's perfect matchings) comes in as [`Programs`].

pub mod baku;
pub mod colour;
pub mod dutch;
pub mod ecf;
pub mod nsc2006;
pub mod prog;
pub mod swiss;
pub mod tsh;
pub mod uscf;
pub mod uscf_swiss;
pub mod virtual_points;

use crate::spec::{ExactProcedure, Programs, RoundPlan, RoundSpec, SparseSpec, Strategy, Tiers};
use crate::tournament::{show_points, Tournament};
use crate::SystemKind;
use crate::{Error, Result};

/// A pairing system.
pub trait System {
    /// Which system this is.
    fn kind(&self) -> SystemKind;
    /// The system's name (as files and commands spell it).
    fn name(&self) -> &'static str {
        self.kind().name()
    }
    /// The integer program's specification for pairing round `round` of `t`, from the rounds
    /// before it.
    fn spec(&self, t: &Tournament, round: u32) -> Result<RoundSpec>;
    /// The same program with only some candidates listed and the rest priced in by the solver
    /// (see [`crate::spec::PairSource`]), for systems that can describe their pairs lazily and
    /// fields of at least `from` players; `None` means the listed specification of
    /// [`System::spec`] is the one to solve.
    fn sparse_spec(
        &self,
        _t: &Tournament,
        _round: u32,
        _from: usize,
    ) -> Result<Option<SparseSpec>> {
        Ok(None)
    }
    /// Whether games keep scores (Scrabble): standings by wins then spread, first/second in
    /// place of colours.
    fn game_scores(&self) -> bool {
        false
    }
    /// The last round whose results pairing round `round` reads: the round before it, unless
    /// the system pairs from lagged standings (tsh), so that `pair` can pair ahead while the
    /// latest results are still coming in.
    fn results_needed(&self, _t: &Tournament, round: u32) -> Result<u32> {
        Ok(round.saturating_sub(1))
    }
    /// Whether round `round` is paired by the FIDE Dutch procedure itself (bracket by
    /// bracket, exact matchings) on the pairing scores of [`pairing_field`],
    /// rather than by this system's own specification.
    fn dutch_round(&self, _t: &Tournament, _round: u32) -> Result<bool> {
        Ok(false)
    }
    /// The rule a Dutch round is paired under, opening its certificate's summary when the
    /// system is not the Dutch system itself (e.g. "ECF basic 5, the standard Swiss after
    /// acceleration: ").
    fn dutch_basis(&self) -> String {
        String::new()
    }
    /// The notes of [`System::spec`] (the system's checks of the field and the rules it
    /// applies) without stating the whole program, for a round the Dutch procedure pairs.
    fn notes(&self, t: &Tournament, round: u32) -> Result<Vec<String>> {
        Ok(self.spec(t, round)?.notes)
    }
    /// The document whose groups, batches or virtual points are counted in 1-½-0 points, if
    /// the system's is; `None` when any scoring may be used (the Dutch system's score
    /// groups work in any units).
    fn one_half_zero(&self) -> Option<&'static str> {
        None
    }
    /// How round `round` of `t` is paired: the strategies in the order to try them. By
    /// default, from the methods above: a Dutch round ([`System::dutch_round`]) as
    /// [`dutch_plan`] says, any other the tier program then the legal fallback.
    fn plan<'a>(&'a self, t: &'a Tournament, round: u32) -> Result<RoundPlan<'a>> {
        if self.dutch_round(t, round)? {
            return Ok(dutch_plan(self, t, round));
        }
        Ok(RoundPlan {
            strategies: vec![
                Strategy::Tiers(Box::new(move |from| tiers_of(self, t, round, from))),
                Strategy::Fallback,
            ],
        })
    }
}

/// Refuses an event whose scoring the system's document does not count in (a win 1, a draw
/// ½, a loss 0), naming the field: its groups and batches would be read in the wrong units.
pub fn check_scoring(sys: &dyn System, t: &Tournament) -> Result<()> {
    let Some(doc) = sys.one_half_zero() else {
        return Ok(());
    };
    let sc = &t.scoring;
    for (field, v, want) in [
        ("win", sc.win, 1.0),
        ("draw", sc.draw, 0.5),
        ("loss", sc.loss, 0.0),
    ] {
        if v != want {
            return Err(Error::field(
                &format!("scoring.{field}"),
                format!(
                    "{} counts a win as 1 point, a draw as ½ and a loss as 0 ({doc}); this event scores {}-{}-{}: use that scoring, or pair with swiss",
                    sys.name(),
                    show_points(sc.win),
                    show_points(sc.draw),
                    show_points(sc.loss)
                ),
            ));
        }
    }
    Ok(())
}

/// The model of system `kind`; `programs` answer the small programs a system may need while it
/// states a round (NSC06's quad membership), so that no system imports the solver.
pub fn model(kind: SystemKind, programs: &Programs) -> Box<dyn System> {
    match kind {
        SystemKind::Swiss => Box::new(swiss::Swiss),
        SystemKind::EcfBasic => Box::new(ecf::Ecf { advanced: false }),
        SystemKind::EcfAdvanced => Box::new(ecf::Ecf { advanced: true }),
        SystemKind::Prog => Box::new(prog::Prog),
        SystemKind::UscfBatches => Box::new(uscf::Uscf::new(uscf::Method::Batches)),
        SystemKind::UscfThirds => Box::new(uscf::Uscf::new(uscf::Method::Thirds)),
        SystemKind::UscfAddedScore => Box::new(uscf::Uscf::new(uscf::Method::AddedScore)),
        SystemKind::Uscf => Box::new(uscf_swiss::UscfSwiss),
        SystemKind::Baku => Box::new(baku::Baku),
        SystemKind::Nsc2006 => Box::new(nsc2006::Nsc2006 {
            programs: *programs,
        }),
        SystemKind::TshCp => Box::new(tsh::TshCp {
            programs: *programs,
        }),
    }
}

/// `t` with each player's `virtual_points` filled for the rounds paired so far (and the next
/// one when every result is in) under an acceleration by virtual points (`prog`, `baku`,
/// `uscf-added-score`), so that TRF `XXA` lines let another engine replay the event. `None`
/// for other systems or when the points cannot be computed (the error shows when pairing).
pub fn with_virtual_points(t: &Tournament) -> Option<Tournament> {
    let system: SystemKind = t.system.as_deref()?.parse().ok()?;
    if !matches!(
        system,
        SystemKind::Prog | SystemKind::Baku | SystemKind::UscfAddedScore
    ) {
        return None;
    }
    let last = t.last_paired_round();
    let complete = t.round(last).is_none_or(|r| {
        r.games
            .iter()
            .all(|g| g.result != crate::tournament::GameResult::Pending)
    });
    let mut upto = if complete { last + 1 } else { last };
    if let Some(n) = t.rounds_planned {
        upto = upto.min(n);
    }
    let mut per_round = Vec::new();
    for r in 1..=upto {
        per_round.push(virtual_points(system, t, r)?.ok()?);
    }
    let mut out = t.clone();
    for p in &mut out.players {
        let v: Vec<f64> = per_round
            .iter()
            .map(|m| m.get(&p.id).copied().unwrap_or(0.0))
            .collect();
        if v.iter().any(|&x| x != 0.0) {
            p.virtual_points = v;
        } else {
            p.virtual_points.clear();
        }
    }
    Some(out)
}

/// The virtual points of round `r` under `system`'s acceleration by virtual points, by
/// player id (PROG's fictitious score, FIDE Baku's virtual points, US Chess's added score);
/// `None` for a system with none. The one place they are computed: the pairing field of a
/// Dutch round ([`pairing_field`]) and the TRF `XXA` lines ([`with_virtual_points`]) read them.
pub fn virtual_points(
    system: SystemKind,
    t: &Tournament,
    r: u32,
) -> Option<Result<std::collections::BTreeMap<u32, f64>>> {
    match system {
        SystemKind::Prog => Some(prog::virtual_points(t, r)),
        SystemKind::Baku => Some(baku::virtual_points(t, r)),
        SystemKind::UscfAddedScore => Some(uscf::added_points(t, r)),
        _ => None,
    }
}

/// `t` with the virtual points of rounds `1..=round` that an acceleration on the Dutch
/// system adds to the pairing score ("FIDE C.04.5.1", "PROG global score GS = RS + FS"); the
/// standard Swiss keeps the file's own (TRF `XXA`), and the other systems have none (ECF's
/// score groups are of real points, "ECF basic 5", as its model and verifier read them; US
/// Chess's added score is no Dutch round's).
pub fn pairing_field(t: &Tournament, round: u32, system: SystemKind) -> Result<Tournament> {
    let mut out = t.clone();
    if system != SystemKind::Swiss {
        for p in &mut out.players {
            p.virtual_points.clear();
        }
    }
    if !matches!(system, SystemKind::Prog | SystemKind::Baku) {
        return Ok(out);
    }
    for r in 1..=round {
        let Some(vp) = virtual_points(system, t, r).transpose()? else {
            return Ok(out);
        };
        for p in &mut out.players {
            p.virtual_points.resize(r as usize, 0.0);
            p.virtual_points[r as usize - 1] = vp.get(&p.id).copied().unwrap_or(0.0);
        }
    }
    Ok(out)
}

/// The plan of a round the FIDE Dutch procedure pairs (the standard Swiss, its accelerations
/// and ECF's later rounds): the exact procedure on the pairing field, then the tier program
/// of `sys` (sparse for large fields), then the legal fallback on it.
pub fn dutch_plan<'a, S: System + ?Sized>(
    sys: &'a S,
    t: &'a Tournament,
    round: u32,
) -> RoundPlan<'a> {
    let kind = sys.kind();
    let exact = move || -> Result<ExactProcedure<'a>> {
        // The system's own checks of the field (groups, rounds planned) and notes first.
        let notes = sys.notes(t, round)?;
        let field = pairing_field(t, round, kind)?;
        Ok(dutch::exact_procedure(
            field,
            round,
            sys.dutch_basis(),
            notes,
        ))
    };
    RoundPlan {
        strategies: vec![
            Strategy::Exact(Box::new(exact)),
            Strategy::Tiers(Box::new(move |from| tiers_of(sys, t, round, from))),
            Strategy::Fallback,
        ],
    }
}

/// The tier program of `sys` for round `round`: sparse when the system has one for fields of
/// at least `from` players (`None`: every pair listed).
pub fn tiers_of<S: System + ?Sized>(
    sys: &S,
    t: &Tournament,
    round: u32,
    from: Option<usize>,
) -> Result<Tiers> {
    if let Some(from) = from {
        if let Some(sparse) = sys.sparse_spec(t, round, from)? {
            return Ok(Tiers::Sparse(sparse));
        }
    }
    Ok(Tiers::Listed(sys.spec(t, round)?))
}

/// How far around a player's natural opponent, and into the neighbouring groups, the sparse
/// specifications of the Swiss systems list candidates (the rest are priced in from duals).
const NEAR_WINDOW: usize = 6;

/// The pairs a sparse Swiss specification lists for score groups `groups` (rank ranges over
/// `n` players): for each player, those within [`NEAR_WINDOW`] of his natural opponent in the
/// other half of his group, of his own rank and of the group's mirror position, and the edges
/// of the groups above and below (floaters). Pairs as (lower index, higher index).
pub(crate) fn near_pairs(
    groups: &[std::ops::Range<usize>],
    n: usize,
) -> std::collections::BTreeSet<(usize, usize)> {
    let mut chosen = std::collections::BTreeSet::new();
    for (gi, g) in groups.iter().enumerate() {
        let half = g.len() / 2;
        for i in g.clone() {
            let pos = i - g.start;
            let mut near: Vec<usize> = Vec::new();
            for centre in [pos + half, pos.saturating_sub(half), pos] {
                let lo = centre.saturating_sub(NEAR_WINDOW);
                let hi = (centre + NEAR_WINDOW + 1).min(g.len());
                near.extend((lo..hi).map(|p| g.start + p));
            }
            if gi > 0 {
                let up = &groups[gi - 1];
                near.extend(up.end.saturating_sub(NEAR_WINDOW).max(up.start)..up.end);
            }
            if let Some(down) = groups.get(gi + 1) {
                near.extend(down.start..(down.start + NEAR_WINDOW).min(down.end));
            }
            for j in near {
                if j != i && j < n {
                    chosen.insert((i.min(j), i.max(j)));
                }
            }
        }
    }
    chosen
}
