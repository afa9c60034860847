//! Wording the text and HTML renderers share: players, verdicts, the optimum's status, and
//! why a board is marked.

use super::model::{Audit, Verdict};
use crate::solve::Status;
use crate::tournament::Tournament;
use std::collections::BTreeMap;

/// `Name (id)`, or the id alone for an unknown player.
pub(super) use crate::report::label as name;

/// A verifier finding as the audit prints it, for the round the audit is about: without the
/// message's `round N: `, and its rule cited once — at the end, unless the message already
/// cites it (or one of its articles, `FIDE Dutch 2025 5.2.1` for `FIDE Dutch 2025 5.2`).
pub(super) fn finding(v: &crate::verify::Violation) -> String {
    let m = finding_body(v);
    if m.contains(&v.rule) {
        m.to_string()
    } else {
        format!("{m} — {}", v.rule)
    }
}

/// The finding's words alone (the HTML report gives its rule a column of its own).
pub(super) fn finding_body(v: &crate::verify::Violation) -> &str {
    let m = v.message.as_str();
    let m = m.strip_prefix(&format!("round {}: ", v.round)).unwrap_or(m);
    m.strip_suffix(&format!(" — {}", v.rule)).unwrap_or(m)
}

/// Player ids as a list: `3, 7`.
pub(super) fn ids(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

/// The optimum's status in words.
pub(super) fn status_words(s: Status) -> &'static str {
    match s {
        Status::Optimal => "proved optimal",
        Status::Feasible => "found, not proved optimal",
        Status::Fallback => "from the greedy fallback, not proved optimal",
        Status::Rejected => "rejected by the verifier",
        Status::Unverified => "not fully verified within the time limit, not called optimal",
    }
}

/// The heading of the bracket-by-bracket comparison: with the Dutch pairing itself, or with
/// the legal pairing found instead when the exact procedure did not pair the round.
pub(super) fn dutch_heading(a: &Audit) -> &'static str {
    if a.dutch_exact {
        "Compared with the FIDE Dutch 2025 pairing, bracket by bracket"
    } else {
        "Compared with the legal pairing found instead (the exact Dutch procedure did not pair this round), bracket by bracket"
    }
}

/// The verdict in words.
pub(super) fn verdict_words(v: Verdict) -> &'static str {
    match v {
        Verdict::Optimal => "legal and optimal",
        Verdict::NotOptimal => "legal, not optimal",
        Verdict::Unproved => "legal, optimality not proved",
        Verdict::BreaksRule => "BREAKS A RULE",
    }
}

/// Per board of yours: why it is marked (differs from the optimum, a verifier finding). The
/// verifier names players by pairing number, the boards by id: compared by number.
pub(super) fn marks(a: &Audit, t: &Tournament) -> BTreeMap<usize, String> {
    let number = |id: u32| t.player(id).map_or(id, |p| p.number());
    let mut m: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for b in &a.differences.only_yours {
        m.entry(b.board)
            .or_default()
            .push("differs: pair not in the optimum".into());
    }
    for (y, o) in &a.differences.colours_reversed {
        m.entry(y.board).or_default().push(format!(
            "differs: colours reversed (optimum board {})",
            o.board
        ));
    }
    for v in &a.violations {
        for b in &a.yours {
            if v.players.contains(&number(b.white)) || v.players.contains(&number(b.black)) {
                let tag = format!("breaks {}", v.rule);
                let e = m.entry(b.board).or_default();
                if !e.contains(&tag) {
                    e.push(tag);
                }
            }
        }
    }
    m.into_iter().map(|(k, v)| (k, v.join("; "))).collect()
}
