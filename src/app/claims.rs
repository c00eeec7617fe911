//! One computation per verdict across replicas: servers sharing a database
//! compute each verdict once. The one holding the claim solves; the others
//! wait for the verdict it stores, or for its claim to lapse if it dies.
//! A database of one server's own takes no claims: there the flights
//! (`app::flights`) already join identical solves.

use std::sync::Arc;
use std::time::Duration;

use crate::store::Store;

/// How long a claim on computing a verdict lasts unless renewed: a server
/// that dies mid-solve holds the others up at most this long.
pub const CLAIM_TTL: Duration = Duration::from_secs(30);
/// How often a solving server renews its claim.
const CLAIM_RENEWAL: Duration = Duration::from_secs(10);
/// How often a server waiting for another's verdict looks for it.
pub const CLAIM_POLL: Duration = Duration::from_millis(100);

/// This server's claim on computing one verdict, renewed in the background
/// while it is held; dropped (the flight abandoned) it is released too.
pub struct SolveClaim {
    store: Store,
    hash: Arc<str>,
    options: &'static str,
    renewing: Option<tokio::task::JoinHandle<()>>,
}

impl SolveClaim {
    /// The claim on the verdict of `hash` with `options`, or `None` while
    /// another server holds it. A store that cannot record claims (a
    /// failing disk) does not stop the solve: this server then computes
    /// without one.
    pub async fn take(store: &Store, hash: &str, options: &'static str) -> Option<SolveClaim> {
        let hash: Arc<str> = hash.into();
        match store.claim_solve(&hash, options, CLAIM_TTL).await {
            Ok(false) => return None,
            Ok(true) => {}
            Err(error) => {
                tracing::warn!(%error, "could not claim a solve; computing it without a claim");
            }
        }
        let renewing = tokio::spawn({
            let (store, hash) = (store.clone(), hash.clone());
            async move {
                let mut every = tokio::time::interval(CLAIM_RENEWAL);
                every.tick().await;
                loop {
                    every.tick().await;
                    if let Err(error) = store.claim_solve(&hash, options, CLAIM_TTL).await {
                        tracing::warn!(%error, "could not renew a solve claim");
                    }
                }
            }
        });
        Some(SolveClaim {
            store: store.clone(),
            hash,
            options,
            renewing: Some(renewing),
        })
    }

    /// Releases the claim now (the verdict is stored).
    pub async fn release(mut self) {
        if let Some(renewing) = self.renewing.take() {
            renewing.abort();
        }
        if let Err(error) = self.store.release_claim(&self.hash, self.options).await {
            tracing::debug!(%error, "could not release a solve claim; it expires by itself");
        }
    }
}

impl Drop for SolveClaim {
    fn drop(&mut self) {
        // Abandoned before `release`: stop renewing and release on the side.
        if let Some(renewing) = self.renewing.take() {
            renewing.abort();
            let (store, hash, options) = (self.store.clone(), self.hash.clone(), self.options);
            tokio::spawn(async move {
                let _ = store.release_claim(&hash, options).await;
            });
        }
    }
}
