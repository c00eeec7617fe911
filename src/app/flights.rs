//! One computation per key in this process: callers that ask for the same
//! key while its computation runs join it (a *flight*) instead of starting
//! their own, and each receives its outcome.
//!
//! Each waiter's deadline bounds its own wait alone. The flight is
//! abandoned (its [`Cancel`] fired, its [`Flight::abandoned`] future
//! resolved) when its last waiter has gone, so work nobody waits for stops.
//! Across replicas sharing one database the same is done by claims
//! (`app::claims`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{Notify, watch};

use super::pool::{Counted, Gauge};
use crate::solver::cancel::Cancel;

/// The flights running now, by key. Clones share the map.
pub struct Flights<T> {
    map: Arc<Mutex<HashMap<String, Slot<T>>>>,
    /// Callers waiting for a flight, started or joined.
    waiting: Gauge,
}

impl<T> Clone for Flights<T> {
    fn clone(&self) -> Self {
        Flights {
            map: self.map.clone(),
            waiting: self.waiting.clone(),
        }
    }
}

impl<T> Default for Flights<T> {
    fn default() -> Self {
        Flights {
            map: Arc::default(),
            waiting: Gauge::default(),
        }
    }
}

/// One computation in progress, shared by every caller that asks for its
/// key while it runs.
pub struct Flight<T> {
    outcome: watch::Sender<Option<T>>,
    /// Fired, with `abandoned` notified, when the last waiter leaves.
    cancel: Cancel,
    abandoned: Notify,
}

/// A flight and how many callers wait for it. Invariant: `waiters` counts
/// the live [`Waiter`]s of `flight`; both change under the map's lock.
struct Slot<T> {
    flight: Arc<Flight<T>>,
    waiters: usize,
}

/// What [`Flights::join`] found.
pub enum Joined<T> {
    /// A flight already ran for the key: the caller waits for it.
    Joined(Waiter<T>),
    /// None ran: the caller waits for the one it must now compute, and
    /// ends with [`Flights::land`].
    Started(Waiter<T>, Arc<Flight<T>>),
}

/// One caller waiting for a flight. Dropping it (the call finished, its
/// deadline passed, or the client went away) leaves the flight; the last
/// one to leave abandons it.
pub struct Waiter<T> {
    flights: Flights<T>,
    key: String,
    flight: Arc<Flight<T>>,
    _counted: Counted,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl<T: Clone> Flights<T> {
    /// The live count of callers waiting for a flight.
    pub fn waiting(&self) -> Gauge {
        self.waiting.clone()
    }

    /// Joins the flight for `key`, or starts one if there is none.
    pub fn join(&self, key: &str) -> Joined<T> {
        let mut map = lock(&self.map);
        if let Some(slot) = map.get_mut(key) {
            slot.waiters += 1;
            let flight = slot.flight.clone();
            drop(map);
            return Joined::Joined(self.waiter(key, flight));
        }
        let flight = Arc::new(Flight {
            outcome: watch::channel(None).0,
            cancel: Cancel::new(),
            abandoned: Notify::new(),
        });
        map.insert(
            key.to_owned(),
            Slot {
                flight: flight.clone(),
                waiters: 1,
            },
        );
        drop(map);
        Joined::Started(self.waiter(key, flight.clone()), flight)
    }

    fn waiter(&self, key: &str, flight: Arc<Flight<T>>) -> Waiter<T> {
        Waiter {
            flights: self.clone(),
            key: key.to_owned(),
            flight,
            _counted: self.waiting.enter(),
        }
    }

    /// Ends `flight` with `outcome`: it leaves the map first, so a caller
    /// arriving from here on starts afresh (or finds what the computation
    /// left behind, such as a cache entry), then its waiters receive it.
    pub fn land(&self, key: &str, flight: &Arc<Flight<T>>, outcome: T) {
        let mut map = lock(&self.map);
        if map
            .get(key)
            .is_some_and(|slot| Arc::ptr_eq(&slot.flight, flight))
        {
            map.remove(key);
        }
        drop(map);
        flight.outcome.send_replace(Some(outcome));
    }

    /// Abandons every flight running now (for shutdown).
    pub fn abandon_all(&self) {
        let flights = std::mem::take(&mut *lock(&self.map));
        for (_, slot) in flights {
            slot.flight.abandon();
        }
    }
}

impl<T> Flight<T> {
    /// Fired when the flight is abandoned: the computation's cooperative
    /// stop (see `solver::cancel`).
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }

    /// Resolves when the flight is abandoned.
    pub async fn abandoned(&self) {
        self.abandoned.notified().await
    }

    fn abandon(&self) {
        self.cancel.fire();
        // `notify_one` keeps the permit when nobody waits yet, so a
        // computation that starts waiting later still sees it.
        self.abandoned.notify_one();
    }
}

impl<T: Clone> Waiter<T> {
    /// The flight's outcome, once it has landed.
    pub async fn outcome(&self) -> T {
        let mut outcome = self.flight.outcome.subscribe();
        // The sender lives in the flight this waiter holds, so the channel
        // cannot close while it waits.
        let landed = outcome
            .wait_for(Option::is_some)
            .await
            .expect("a flight's sender outlives its waiters");
        landed.clone().expect("waited for an outcome")
    }
}

impl<T> Drop for Waiter<T> {
    fn drop(&mut self) {
        let mut map = lock(&self.flights.map);
        let Some(slot) = map.get_mut(&self.key) else {
            return;
        };
        if !Arc::ptr_eq(&slot.flight, &self.flight) {
            return;
        }
        slot.waiters -= 1;
        if slot.waiters == 0 {
            map.remove(&self.key);
            drop(map);
            self.flight.abandon();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn callers_of_one_key_share_one_flight_and_its_outcome() {
        let flights = Flights::<u32>::default();
        let Joined::Started(first, flight) = flights.join("k") else {
            panic!("the first caller starts the flight");
        };
        let Joined::Joined(second) = flights.join("k") else {
            panic!("the second caller joins it");
        };
        assert_eq!(flights.waiting().get(), 2);
        flights.land("k", &flight, 7);
        assert_eq!((first.outcome().await, second.outcome().await), (7, 7));
        drop((first, second));
        assert_eq!(flights.waiting().get(), 0);
        assert!(
            matches!(flights.join("k"), Joined::Started(..)),
            "landed flights leave the map"
        );
    }

    #[tokio::test]
    async fn the_last_waiter_to_leave_abandons_the_flight() {
        let flights = Flights::<u32>::default();
        let Joined::Started(first, flight) = flights.join("k") else {
            panic!("the first caller starts the flight");
        };
        let Joined::Joined(second) = flights.join("k") else {
            panic!("the second caller joins it");
        };
        drop(first);
        assert!(!flight.cancel().is_fired(), "one waiter is left");
        drop(second);
        assert!(flight.cancel().is_fired());
        flight.abandoned().await;
        assert!(
            matches!(flights.join("k"), Joined::Started(..)),
            "abandoned flights leave the map"
        );
    }
}
