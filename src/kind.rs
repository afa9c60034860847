//! The pairing systems by name: the one list behind `--system`, a file's `system` field, the
//! models of [`crate::systems`] and the rule sets of [`crate::verify`].

use crate::{Error, Result};

/// A pairing system. Its name (`Display`, `FromStr`, serde) is the one the command line's
/// system option takes and a file's `system` field holds.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum SystemKind {
    /// The standard Swiss (FIDE Dutch as reference).
    Swiss,
    /// ECF accelerated pairings, basic.
    EcfBasic,
    /// ECF accelerated pairings, advanced.
    EcfAdvanced,
    /// The Swiss with progressive acceleration (PROG).
    Prog,
    /// US Chess accelerated pairings by batches.
    UscfBatches,
    /// US Chess accelerated pairings by thirds.
    UscfThirds,
    /// US Chess accelerated pairings by added score.
    UscfAddedScore,
    /// The US Chess Swiss (Official Rules of Chess, rules 27–29).
    Uscf,
    /// FIDE Baku acceleration (C.04.5.1).
    Baku,
    /// tsh contention pairing (2007 NSC).
    TshCp,
    /// The 2006 National SCRABBLE Championship schedule.
    #[serde(rename = "nsc2006")]
    Nsc2006,
}

impl SystemKind {
    /// Every system, in the order the command line's help lists them.
    pub const ALL: [SystemKind; 11] = [
        SystemKind::Swiss,
        SystemKind::EcfBasic,
        SystemKind::EcfAdvanced,
        SystemKind::Prog,
        SystemKind::UscfBatches,
        SystemKind::UscfThirds,
        SystemKind::UscfAddedScore,
        SystemKind::Uscf,
        SystemKind::Baku,
        SystemKind::TshCp,
        SystemKind::Nsc2006,
    ];

    /// The name a file's `system` field and the command line use.
    pub fn name(self) -> &'static str {
        match self {
            SystemKind::Swiss => "swiss",
            SystemKind::EcfBasic => "ecf-basic",
            SystemKind::EcfAdvanced => "ecf-advanced",
            SystemKind::Prog => "prog",
            SystemKind::UscfBatches => "uscf-batches",
            SystemKind::UscfThirds => "uscf-thirds",
            SystemKind::UscfAddedScore => "uscf-added-score",
            SystemKind::Uscf => "uscf",
            SystemKind::Baku => "baku",
            SystemKind::TshCp => "tsh-cp",
            SystemKind::Nsc2006 => "nsc2006",
        }
    }

    /// The names, comma-separated, for messages.
    pub fn known() -> String {
        Self::ALL.map(Self::name).join(", ")
    }

    /// Whether the system pairs Scrabble games (scores kept, first/second for colours).
    pub fn is_scrabble(self) -> bool {
        matches!(self, SystemKind::TshCp | SystemKind::Nsc2006)
    }

    /// The system called `name`; an unknown name is an error naming `field` (the flag or the
    /// file's field it came from).
    pub fn parse_field(name: &str, field: &str) -> Result<SystemKind> {
        Self::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                Error::field(
                    field,
                    format!("unknown system '{name}'; known: {}", Self::known()),
                )
            })
    }
}

impl std::fmt::Display for SystemKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SystemKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<SystemKind> {
        Self::parse_field(s, "system")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_through_display_and_serde() {
        for k in SystemKind::ALL {
            assert_eq!(k.to_string().parse::<SystemKind>().unwrap(), k);
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.name()));
            assert_eq!(serde_json::from_str::<SystemKind>(&json).unwrap(), k);
        }
        let e = "dutchh".parse::<SystemKind>().unwrap_err().to_string();
        assert!(e.contains("unknown system 'dutchh'"), "{e}");
    }
}
