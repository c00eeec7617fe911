//! A canonical labelling stopped at its budget gives its memory back: the
//! same over-budget labelling twenty times leaves the process about as
//! large as before the first. Its own test binary, so that no other test
//! shares the process whose memory it reads.

use std::time::{Duration, Instant};

use puzzled::canon::{self, SORTED_EDGES};
use puzzled::puzzle::{Game, Limits, RawSpec, Spec};
use puzzled_testkit::families::{copies_on_a_hub, petersen};

/// The process's resident set, in bytes (Linux).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Waits until more than `count` searches have been stopped: the caller
/// is answered at its budget, before its search has stopped. A hang
/// guard, not a bound on how soon.
fn wait_for_stopped_searches(count: u64) {
    let guard = Instant::now() + Duration::from_secs(120);
    while canon::searches_stopped() <= count {
        assert!(Instant::now() < guard, "no search stopped");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_stopped_labelling_gives_its_memory_back() {
    if resident_bytes().is_none() {
        eprintln!("skipped: no /proc/self/status to read the resident set from");
        return;
    }
    let copies = 1600;
    let raw = RawSpec::new(
        Game::Geography,
        (10 * copies + 1).into(),
        copies_on_a_hub(&petersen(), 10, copies),
    );
    let puzzle = Spec::validate(raw, Limits::NONE).unwrap();
    let budget = Duration::from_millis(300);
    let mut resident = Vec::new();
    let mut stop_lags = Vec::new();
    for _ in 0..20 {
        let stopped = canon::searches_stopped();
        let canonical = canon::canonicalize(&puzzle, budget);
        let answered = Instant::now();
        if canonical.canonicaliser != SORTED_EDGES {
            eprintln!("skipped: this machine labels the graph within {budget:?}");
            return;
        }
        wait_for_stopped_searches(stopped);
        stop_lags.push(answered.elapsed());
        // The search thread gives the memory back after its search stops:
        // the least of a few readings is the process at rest.
        let at_rest = (0..20)
            .map(|_| {
                std::thread::sleep(Duration::from_millis(10));
                resident_bytes().unwrap()
            })
            .min()
            .unwrap();
        resident.push(at_rest);
    }
    // A search's working set (docs/performance.md) is freed when
    // it stops and handed back to the system; a leak grows the process by
    // as much at every search. After the first, what stays is the search
    // threads' stacks and what the allocator keeps at hand.
    let (first, last) = (resident[0], resident[19]);
    let mib = |b: u64| b as f64 / (1 << 20) as f64;
    eprintln!(
        "resident after each stopped labelling: {:?} MiB",
        resident.iter().map(|&b| mib(b).round()).collect::<Vec<_>>()
    );
    // For docs/performance.md: how long after its caller was answered at
    // the budget each search had stopped (polled, so a few ms late).
    stop_lags.sort();
    eprintln!(
        "search stopped after the answer: median {:?}, most {:?}",
        stop_lags[stop_lags.len() / 2],
        stop_lags.last().unwrap()
    );
    assert!(
        last <= first + (64 << 20),
        "the process grew from {:.0} MiB to {:.0} MiB over 19 stopped labellings",
        mib(first),
        mib(last)
    );
}
