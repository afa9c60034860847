//! FIDE TRF (TRF16 layout; CR, LF or CRLF line endings).

use crate::tournament::Tournament;
use crate::{Error, Result};

pub fn parse(_text: &str) -> Result<Tournament> {
    Err(Error::input("TRF reading is not built yet"))
}

pub fn write(t: &Tournament) -> String {
    let _ = t;
    String::new()
}
