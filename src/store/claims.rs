//! Claims on computing a verdict, for servers that share one database
//! (see `app::claims`).

use std::time::Duration;

use super::db::Store;
use super::error::StoreError;

impl Store {
    /// Claims the computing of the verdict of `canonical_hash` with
    /// `options` (every shape and solver version) for this store until
    /// `ttl` from now, unless another store (another server on the same
    /// database) holds an unexpired claim on it: true when this store holds
    /// the claim now. Claiming again renews a claim this store holds.
    pub async fn claim_solve(
        &self,
        canonical_hash: &str,
        options: &str,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let now = self.clock.now_us();
        let expires = now.saturating_add(ttl.as_micros() as i64);
        let claimed = self
            .write(async |conn| {
                Ok(sqlx::query(
                    "INSERT INTO solve_claims (canonical_hash, options, owner, expires_us) \
                     VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (canonical_hash, options) DO UPDATE \
                     SET owner = excluded.owner, expires_us = excluded.expires_us \
                     WHERE solve_claims.owner = excluded.owner OR solve_claims.expires_us < $5",
                )
                .bind(canonical_hash)
                .bind(options)
                .bind(&*self.claimant)
                .bind(expires)
                .bind(now)
                .execute(&mut *conn)
                .await?
                .rows_affected())
            })
            .await?;
        Ok(claimed == 1)
    }

    /// Gives up this store's claim on `canonical_hash` with `options` (none
    /// held is fine).
    pub async fn release_claim(
        &self,
        canonical_hash: &str,
        options: &str,
    ) -> Result<(), StoreError> {
        self.write(async |conn| {
            sqlx::query(
                "DELETE FROM solve_claims WHERE canonical_hash = $1 AND options = $2 AND owner = $3",
            )
            .bind(canonical_hash)
            .bind(options)
            .bind(&*self.claimant)
            .execute(&mut *conn)
            .await?;
            Ok(())
        })
        .await
    }
}
