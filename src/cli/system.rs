//! The clap side of [`SystemKind`]: the library names the systems, the command line lists them
//! in `--help` and names its own flag when a name is unknown.

use optipair::SystemKind;

/// The clap parser of `--system`: the systems listed in `--help`, and an unknown name refused
/// with the same message as one read from a file, naming the flag (`field --system: unknown
/// system …`).
#[derive(Clone)]
pub struct SystemParser;

impl clap::builder::TypedValueParser for SystemParser {
    type Value = SystemKind;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> std::result::Result<SystemKind, clap::Error> {
        let text = value.to_string_lossy();
        SystemKind::parse_field(&text, "--system")
            .map_err(|e| clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{e}\n")))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            SystemKind::ALL
                .into_iter()
                .map(|k| clap::builder::PossibleValue::new(k.name())),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::builder::TypedValueParser;

    #[test]
    fn help_lists_every_system_by_its_name_and_an_unknown_one_names_the_flag() {
        let names: Vec<String> = SystemParser
            .possible_values()
            .unwrap()
            .map(|v| v.get_name().to_string())
            .collect();
        let all: Vec<String> = SystemKind::ALL.map(|k| k.name().to_string()).to_vec();
        assert_eq!(names, all);
        let cmd = clap::Command::new("t");
        for k in SystemKind::ALL {
            let got = SystemParser
                .parse_ref(&cmd, None, std::ffi::OsStr::new(k.name()))
                .unwrap();
            assert_eq!(got, k);
        }
        let e = SystemParser
            .parse_ref(&cmd, None, std::ffi::OsStr::new("dutchh"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("field --system") && e.contains("unknown system 'dutchh'"),
            "{e}"
        );
    }
}
