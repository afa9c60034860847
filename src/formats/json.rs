//! The native JSON format (`"format": "optipair/1"`), documented in README.

use crate::tournament::Tournament;
use crate::{Error, Result};

/// Parses native JSON; errors carry serde's line and the field path where known.
pub fn parse(text: &str) -> Result<Tournament> {
    let t = serde_json::from_str::<Tournament>(text).map_err(|e| {
        let msg = e.to_string();
        // serde_json appends " at line L column C"; keep the message, report the line.
        let field = msg
            .split('`')
            .nth(1)
            .map(|f| f.to_string())
            .unwrap_or_else(|| "json".to_string());
        let clean = match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg.clone(),
        };
        Error::at(e.line(), &field, clean)
    })?;
    t.check_rounds()?;
    // Zero rounds planned cannot be paired or written as TRF (XXR needs 1 or more).
    if t.rounds_planned == Some(0) {
        return Err(Error::field(
            "rounds_planned",
            "rounds planned must be 1 or more",
        ));
    }
    Ok(t)
}

/// The tournament as native JSON, pretty-printed, with a final newline.
pub fn write(t: &Tournament) -> String {
    let mut s = serde_json::to_string_pretty(t).expect("tournament serialises");
    s.push('\n');
    s
}
