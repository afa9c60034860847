//! Independent rule checks, written from the rule documents. Shares no code with model
//! building (`systems`, `solve`).
