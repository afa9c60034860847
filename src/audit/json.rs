//! The audit as JSON: the [`Audit`] as serialised, beside what the caller adds.

use super::model::Audit;

/// The audit as JSON: `{"audit": …}` and the caller's `extra` members after it (the command
/// line adds the exit status it returns).
pub fn json(a: &Audit, extra: &[(&str, serde_json::Value)]) -> String {
    let mut top = serde_json::Map::new();
    top.insert("audit".into(), serde_json::json!(a));
    for (k, v) in extra {
        top.insert((*k).to_string(), v.clone());
    }
    serde_json::to_string_pretty(&top).expect("json of plain data")
}
