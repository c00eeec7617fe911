//! What each caller may spend of the solve workers: a budget of worker
//! time per caller, refilled at a steady rate.
//!
//! Every job on the solve pool (a solve, a position's analysis, an engine
//! move, a generated candidate) and every canonical labelling is timed
//! while it holds its worker or its CPU slot, and that time is taken from
//! the balance of the caller it runs for. Answers from memory cost nothing.
//! A call whose caller's balance is spent is refused before its work
//! starts (RESOURCE_EXHAUSTED, `WORK_BUDGET_EXCEEDED`, with the time until
//! the balance is positive again); a job already running is never stopped
//! for the budget, so a balance may go below zero by the job that crossed
//! it, and that debt is paid off before the next job starts.
//!
//! Time is what is scarce: a budget of calls let one caller run the most
//! expensive question the limits admit as often as a cheap one.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::AppError;
use super::access::{Caller, describe, whole_seconds};
use crate::app::Reason;

/// Who pays for one call's work, or for one step of a stream the client
/// drives (a Play move, a generated candidate): its caller's budget is
/// checked once, before the call's first work, and the call's later jobs
/// run on that check, charged but not refused, so that a call let in is
/// never cut off between its jobs.
#[derive(Debug)]
pub struct Payer {
    caller: Caller,
    let_in: AtomicBool,
}

impl Payer {
    pub fn new(caller: Caller) -> Payer {
        Payer {
            caller,
            let_in: AtomicBool::new(false),
        }
    }

    pub fn caller(&self) -> &Caller {
        &self.caller
    }

    /// Passes when this call was let in before, or `budget` lets it in now.
    pub fn let_in(&self, budget: &WorkBudget) -> Result<(), AppError> {
        if self.let_in.load(Ordering::Relaxed) {
            return Ok(());
        }
        budget.check(&self.caller)?;
        self.let_in.store(true, Ordering::Relaxed);
        Ok(())
    }
}

/// One caller's balance, in worker-seconds, as of `at`.
#[derive(Debug, Clone, Copy)]
struct Balance {
    seconds: f64,
    at: Instant,
}

/// Worker time per caller: `burst` seconds at most in hand, refilled at
/// `per_minute` seconds a minute. The admin is never charged.
#[derive(Debug)]
pub struct WorkBudget {
    per_second: f64,
    burst: f64,
    per_minute: u32,
    balances: Mutex<HashMap<Caller, Balance>>,
    checks: AtomicU64,
}

/// How often (in checks) callers whose balance is full again are forgotten,
/// so that the table stays as large as the set of recent callers.
const FORGET_EVERY: u64 = 4096;

impl WorkBudget {
    /// `None` when `per_minute` is 0 (no budget). With a `burst` of 0 a
    /// caller may start one job whenever its balance is full, and waits
    /// for what that job took to be refilled before the next.
    pub fn new(per_minute: u32, burst: u32) -> Option<WorkBudget> {
        (per_minute > 0).then(|| WorkBudget {
            per_second: f64::from(per_minute) / 60.0,
            burst: f64::from(burst),
            per_minute,
            balances: Mutex::new(HashMap::new()),
            checks: AtomicU64::new(0),
        })
    }

    /// Passes when `caller` has worker time left (or a full balance);
    /// otherwise says when it will.
    pub fn check(&self, caller: &Caller) -> Result<(), AppError> {
        self.check_at(caller, Instant::now())
    }

    /// Takes `spent` from `caller`'s balance.
    pub fn charge(&self, caller: &Caller, spent: Duration) {
        self.charge_at(caller, spent, Instant::now());
    }

    fn check_at(&self, caller: &Caller, now: Instant) -> Result<(), AppError> {
        if *caller == Caller::Admin {
            return Ok(());
        }
        let mut balances = self.lock();
        if self.checks.fetch_add(1, Ordering::Relaxed) % FORGET_EVERY == FORGET_EVERY - 1 {
            balances.retain(|_, balance| self.refilled(*balance, now).seconds < self.burst);
            balances.shrink_to_fit();
        }
        let Some(&balance) = balances.get(caller) else {
            return Ok(());
        };
        let balance = self.refilled(balance, now);
        if balance.seconds > 0.0 || balance.seconds >= self.burst {
            return Ok(());
        }
        // Positive (or full, for a burst of 0) once this long has passed.
        let retry_after =
            Duration::from_secs_f64(-balance.seconds / self.per_second) + Duration::from_millis(1);
        Err(AppError::RateLimited {
            reason: Reason::WorkBudgetExceeded,
            retry_after,
            message: format!(
                "{} has used its solve workers' time ({} worker-seconds a minute, \
                 --work-secs-per-minute); try again in {} s",
                describe(caller),
                self.per_minute,
                whole_seconds(retry_after)
            ),
        })
    }

    fn charge_at(&self, caller: &Caller, spent: Duration, now: Instant) {
        if *caller == Caller::Admin {
            return;
        }
        let mut balances = self.lock();
        let full = Balance {
            seconds: self.burst,
            at: now,
        };
        let balance = balances.entry(caller.clone()).or_insert(full);
        let mut refilled = self.refilled(*balance, now);
        refilled.seconds -= spent.as_secs_f64();
        *balance = refilled;
    }

    /// `balance` brought forward to `now`, never above the burst.
    fn refilled(&self, balance: Balance, now: Instant) -> Balance {
        let elapsed = now.saturating_duration_since(balance.at).as_secs_f64();
        Balance {
            seconds: (balance.seconds + elapsed * self.per_second).min(self.burst),
            at: now.max(balance.at),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Caller, Balance>> {
        self.balances
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    fn refused_for(budget: &WorkBudget, caller: &Caller, now: Instant) -> Duration {
        match budget.check_at(caller, now).unwrap_err() {
            AppError::RateLimited {
                reason,
                retry_after,
                ..
            } => {
                assert_eq!(reason, Reason::WorkBudgetExceeded);
                retry_after
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_caller_spends_its_burst_then_waits_for_the_refill() {
        // Six worker-seconds a minute (one every 10 s), ten in hand.
        let budget = WorkBudget::new(6, 10).unwrap();
        let alice = Caller::Writer("alice".into());
        let bob = Caller::Address("192.0.2.7".parse().unwrap());
        let t0 = Instant::now();
        budget.check_at(&alice, t0).unwrap();
        budget.charge_at(&alice, secs(4.0), t0);
        budget.check_at(&alice, t0).unwrap();
        // The job that crosses the budget runs; the debt is then paid off.
        budget.charge_at(&alice, secs(8.0), t0);
        let wait = refused_for(&budget, &alice, t0);
        assert!(wait > secs(20.0) && wait < secs(20.1), "{wait:?}");
        let AppError::RateLimited { message, .. } = budget.check_at(&alice, t0).unwrap_err() else {
            panic!()
        };
        assert_eq!(
            message,
            "writer alice has used its solve workers' time (6 worker-seconds a minute, \
             --work-secs-per-minute); try again in 21 s"
        );
        // Another caller has a balance of its own; the admin none at all.
        budget.check_at(&bob, t0).unwrap();
        budget.charge_at(&Caller::Admin, secs(1000.0), t0);
        budget.check_at(&Caller::Admin, t0).unwrap();
        assert!(refused_for(&budget, &alice, t0 + secs(19.0)) < secs(1.01));
        budget.check_at(&alice, t0 + secs(20.1)).unwrap();
    }

    #[test]
    fn a_balance_refills_no_further_than_the_burst() {
        let budget = WorkBudget::new(60, 2).unwrap();
        let alice = Caller::Writer("alice".into());
        let t0 = Instant::now();
        budget.charge_at(&alice, secs(1.0), t0);
        // An hour idle refills two seconds, not 3600.
        let later = t0 + secs(3600.0);
        budget.charge_at(&alice, secs(2.5), later);
        assert!(refused_for(&budget, &alice, later) > secs(0.49));
    }

    #[test]
    fn without_a_burst_each_job_waits_for_the_one_before_to_be_refilled() {
        let budget = WorkBudget::new(60, 0).unwrap();
        let alice = Caller::Writer("alice".into());
        let t0 = Instant::now();
        budget.check_at(&alice, t0).unwrap();
        budget.charge_at(&alice, secs(0.5), t0);
        let wait = refused_for(&budget, &alice, t0);
        assert!(wait > secs(0.5) && wait < secs(0.51), "{wait:?}");
        budget.check_at(&alice, t0 + secs(0.5)).unwrap();
    }

    #[test]
    fn no_rate_no_budget() {
        assert!(WorkBudget::new(0, 30).is_none());
    }
}
