//! How far a round's solve has got, for a progress line: the library reports steps, the
//! caller decides whether and where to show them (a terminal, never a pipe or a log).

use std::sync::Arc;

/// One step of a round's solve begun.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The exact FIDE Dutch procedure began bracket `done + 1` of about `of` (the score
    /// groups; players moved down can end the procedure early).
    Bracket {
        /// Brackets before this one.
        done: usize,
        /// About how many brackets the round has (its score groups).
        of: usize,
    },
    /// The tier model began tier group `done + 1` of `of`.
    Tier {
        /// Tier groups before this one.
        done: usize,
        /// Tier groups in the program.
        of: usize,
    },
}

/// A callback told of each [`Step`] (from the solving thread; it should be quick).
#[derive(Clone)]
pub struct Progress(Arc<dyn Fn(Step) + Send + Sync>);

impl Progress {
    /// A hook calling `f` at each step.
    pub fn new(f: impl Fn(Step) + Send + Sync + 'static) -> Self {
        Progress(Arc::new(f))
    }

    /// Tells the hook of `step`.
    pub fn report(&self, step: Step) {
        (self.0)(step)
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress(..)")
    }
}

/// Tells `progress` of `step`, if there is a hook.
pub fn report(progress: Option<&Progress>, step: Step) {
    if let Some(p) = progress {
        p.report(step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn the_hook_hears_each_step_in_order() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        let p = Progress::new(move |step| s.lock().unwrap().push(step));
        report(Some(&p), Step::Bracket { done: 0, of: 3 });
        report(None, Step::Tier { done: 9, of: 9 });
        report(Some(&p), Step::Tier { done: 1, of: 2 });
        assert_eq!(
            *seen.lock().unwrap(),
            vec![
                Step::Bracket { done: 0, of: 3 },
                Step::Tier { done: 1, of: 2 }
            ]
        );
    }
}
