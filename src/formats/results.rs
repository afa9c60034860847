//! Result entry: `board result` or `white black result` lines.
