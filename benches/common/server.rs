//! `puzzled serve` as a child process on an ephemeral port, for the bench
//! targets that measure a real server (`load` and `round_trip`).
//!
//! Each bench target is a crate of its own and benches have no shared
//! library crate, so this file is included with `#[path]` by each of them.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `puzzled serve`, killed when dropped.
pub struct ChildServer {
    child: Child,
    /// `http://ADDRESS`, the address the server said it listens on.
    pub url: String,
}

impl ChildServer {
    /// Starts `puzzled serve` on the SQLite file `database`, with `args`
    /// after the bench's own flags, and waits until it listens. With
    /// `echo_log` its log is copied to this process's stderr.
    pub fn start(puzzled: &Path, database: &Path, args: &[String], echo_log: bool) -> ChildServer {
        let mut child = Command::new(puzzled)
            // Port 0: runs in parallel never collide, and the log says
            // which port the kernel chose.
            .args(["serve", "--listen", "127.0.0.1:0", "--database"])
            .arg(format!("sqlite://{}", database.display()))
            .args(args)
            .env("PUZZLED_LOG", "info")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(if echo_log {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", puzzled.display()));
        let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
        let addr = loop {
            let Some(Ok(line)) = lines.next() else {
                panic!("puzzled serve exited before listening: {:?}", child.wait());
            };
            if echo_log {
                eprintln!("[server] {line}");
            }
            if let Some(rest) = line.split("listening on ").nth(1) {
                break rest.split([',', ' ']).next().unwrap_or_default().to_owned();
            }
        };
        // Keep draining the log so that the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                if echo_log {
                    eprintln!("[server] {line}");
                }
            }
        });
        ChildServer {
            child,
            url: format!("http://{addr}"),
        }
    }

    /// The process id, for reading the server's figures in `/proc`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        // Nothing is kept across servers: no need for a graceful stop.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
