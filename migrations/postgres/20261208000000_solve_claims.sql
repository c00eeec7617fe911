-- Which server is computing a verdict, so that servers sharing a database
-- compute each verdict once: the first to insert the row solves, the
-- others wait for its verdict. A claim holds until `expires_us` (renewed
-- while the solve runs), so a server that died mid-solve stops blocking
-- the others once its claim expires.
CREATE TABLE solve_claims (
    canonical_hash TEXT    NOT NULL,
    options        TEXT    NOT NULL,
    owner          TEXT    NOT NULL,
    expires_us     BIGINT  NOT NULL,
    PRIMARY KEY (canonical_hash, options)
);
