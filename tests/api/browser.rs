//! The puzzle page in a real browser: headless Chromium, driven by
//! `web/tests/browser.mjs` (puppeteer-core over the DevTools protocol),
//! against a server on an ephemeral port. A bad edge list gets an error
//! message, a puzzle submitted through the form opens with its verdict, a
//! game against the engine is played to the end, and the list shows the
//! verdict; then a directed edge Geography the same way (its arcs drawn as
//! arrows, its search evidence, a game played by clicking the drawing); then
//! the Generate form: a request no puzzle meets shows the server's advice, a
//! tree painting puzzle generated from a fixed seed opens with its verdict
//! and difficulty, the list shows the difficulty, and the same request again
//! opens the stored copy; a screenshot of each step lands in
//! `target/tmp/browser-screenshots/`.
//!
//! Needs Node, `npm ci` run in `web/` (for puppeteer-core) and Chromium
//! (`apt-get install chromium`, or `PUZZLED_CHROMIUM=PATH`); skipped with
//! one line without them, unless `PUZZLED_TEST_BROWSER=1` makes their
//! absence an error. `.ci/run` provides them all.
//!
//! Also without a browser: the page's paths are served (HTML, script,
//! styles) and other GETs are not found.

use std::path::Path;
use std::process::Command;

use crate::helpers::*;

const ENABLE: &str = "PUZZLED_TEST_BROWSER";
const WEB: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/web");

fn chromium() -> String {
    std::env::var("PUZZLED_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

/// Whether Node, puppeteer-core and Chromium are all there (one line on
/// stderr when not).
fn browser_available() -> bool {
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let puppeteer = Path::new(WEB).join("node_modules/puppeteer-core").exists();
    let browser = Path::new(&chromium()).exists();
    let found = node && puppeteer && browser;
    if std::env::var(ENABLE).is_ok_and(|v| v == "1") && !found {
        panic!(
            "{ENABLE}=1 but node ({node}), web/node_modules/puppeteer-core ({puppeteer}) \
             or Chromium at {} ({browser}) is missing",
            chromium()
        );
    }
    if !found {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "skipped: the browser test needs node, `npm ci` in web/ and Chromium (apt-get install chromium; {ENABLE}=1 makes their absence an error)"
        );
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_submits_generates_shows_and_plays_puzzles_in_chromium() {
    if !browser_available() {
        return;
    }
    let app = spawn_app().await;
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-screenshots");
    let _ = std::fs::remove_dir_all(&out);
    let base = format!("http://{}", app.addr());
    // The server runs on this test's runtime: the script waits on a thread.
    let script = {
        let out = out.clone();
        tokio::task::spawn_blocking(move || {
            Command::new("node")
                .arg("tests/browser.mjs")
                .arg(&base)
                .arg(&out)
                .current_dir(WEB)
                .env("PUZZLED_CHROMIUM", chromium())
                .output()
        })
        .await
        .unwrap()
        .unwrap()
    };
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&script.stdout),
        String::from_utf8_lossy(&script.stderr)
    );
    assert!(
        script.status.success(),
        "the browser script failed:\n{said}"
    );
    let shots = std::fs::read_dir(&out).unwrap().count();
    assert!(shots >= 16, "screenshots of each step: {shots}\n{said}");
    app.stop().await;
}

/// The page's files over plain HTTP/1.1, as a browser fetches them.
#[tokio::test]
async fn the_page_is_served_beside_the_calls() {
    let app = spawn_app().await;
    let addr = app.addr().parse().unwrap();
    for (path, kind) in [
        ("/", "<!doctype html>"),
        ("/puzzles/0123456789abcdef0123", "<!doctype html>"),
        ("/assets/app.js", "application/grpc-web"),
        ("/assets/style.css", "--accent"),
    ] {
        let (status, body) = http_get(addr, path).await;
        assert!(status.contains("200"), "{path}: {status}");
        assert!(body.contains(kind), "{path}");
    }
    let (status, _) = http_get(addr, "/puzzles/not-an-id").await;
    assert!(status.contains("404"), "{status}");
    // The calls still work on the same port.
    let solved = app.solve(geography(2, &[0, 1], 0)).await;
    assert_eq!(solved.winner, proto::Player::First as i32);
    app.stop().await;
}
