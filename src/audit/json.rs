//! The audit as JSON: the [`Audit`] as serialised, with its exit code.

use super::model::Audit;

/// The audit as JSON.
pub fn json(a: &Audit) -> String {
    serde_json::to_string_pretty(&serde_json::json!({
        "audit": a,
        "exit_code": a.verdict.exit_code(),
    }))
    .expect("json of plain data")
}
