//! Progress of the long commands (import, export, generate)
//! on standard error: a bar with its rate and time left when the total is
//! known, a spinner with the count and rate when it is not, and nothing at
//! all when standard error is not a terminal, so that logs and scripts get
//! only what the command says.

use std::io::IsTerminal as _;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// No progress shown.
    pub fn hidden() -> Progress {
        Progress { bar: None }
    }

    /// `what` names the items (`puzzles`); `total` is how many there will be.
    pub fn new(total: Option<u64>, what: &str) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress::hidden();
        }
        let (bar, template) = match total {
            Some(total) => (
                ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()),
                format!("{{bar:30}} {{pos}}/{{len}} {what} ({{rate}}, {{eta}} left)"),
            ),
            None => (
                ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
                format!("{{spinner}} {{pos}} {what} ({{rate}})"),
            ),
        };
        let style = ProgressStyle::with_template(&template)
            .expect("the template is valid")
            .with_key(
                "rate",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{:.0}/s", state.per_sec());
                },
            );
        let bar = bar.with_style(style);
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        Progress { bar: Some(bar) }
    }

    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    /// A line on standard error, above the bar when there is one.
    pub fn line(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// A line on standard output, the bar kept clear of it.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| println!("{line}")),
            None => println!("{line}"),
        }
    }

    /// Takes the bar off the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
