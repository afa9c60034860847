//! The report as JSON: what `simulate --merge` reads back.

use super::model::Report;

/// The report as pretty-printed JSON (no final newline).
pub fn json(r: &Report) -> String {
    serde_json::to_string_pretty(r).expect("json of plain data")
}
