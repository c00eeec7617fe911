//! Running the `puzzled` binary to its end and keeping what it gave: its
//! exit code, standard output and standard error. Shared by the test
//! binaries that run it (`tests/cli.rs`, and `tests/api/` for the client),
//! each pulling this file in as a module of its own; each uses a part.
#![allow(dead_code)]

use std::io::Write as _;
use std::process::{Command, Stdio};

use serde_json::Value;

/// What a run of the binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    /// How writing the input to its standard input went (`Ok` when there
    /// was none): a program that ends before reading it all breaks the pipe.
    pub input_written: std::io::Result<()>,
}

impl Run {
    /// Whether it exited with 0.
    pub fn success(&self) -> bool {
        self.code == 0
    }

    #[track_caller]
    pub fn ok(self) -> Run {
        assert_eq!(self.code, 0, "{self}");
        self
    }

    #[track_caller]
    pub fn failed_with(self, code: i32) -> Run {
        assert_eq!(self.code, code, "{self}");
        self
    }

    /// Standard output as JSON Lines.
    #[track_caller]
    pub fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|line| {
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?}: {e}\n{self}"))
            })
            .collect()
    }

    /// Standard output as one JSON document on one line.
    #[track_caller]
    pub fn json(&self) -> Value {
        let lines = self.json_lines();
        assert_eq!(lines.len(), 1, "{self}");
        lines.into_iter().next().unwrap()
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// The binary under test as a command, run from the repository's root.
pub fn puzzled() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_puzzled"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// Runs `command` to its end, `input` on its standard input (none: nothing
/// to read), its outputs kept.
pub fn run(mut command: Command, input: Option<String>) -> Run {
    let mut child = command
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command runs");
    let writer = input.map(|input| {
        let mut stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || stdin.write_all(input.as_bytes()))
    });
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        input_written: writer.map_or(Ok(()), |writer| writer.join().unwrap()),
    }
}
