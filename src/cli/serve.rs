//! `puzzled serve` (logging set up, the runtime built, the service run until
//! a signal), `puzzled healthcheck` (one health call to a running one) and
//! `puzzled backup` (a copy of its SQLite store, taken while it runs).

use anyhow::{Result, bail};

use super::args::{BackupArgs, HealthcheckArgs};
use crate::config::Config;
use crate::server::ServerError;

/// The log filter without `PUZZLED_LOG`.
pub const DEFAULT_LOG_FILTER: &str = "info,sqlx::postgres::notice=warn";

pub fn serve(config: Config) -> Result<()> {
    // PostgreSQL's notices ("relation … already exists, skipping" on every
    // start of a replica) come through sqlx at INFO; they are the database
    // talking about itself, so by default only its warnings are shown.
    let filter = tracing_subscriber::EnvFilter::try_from_env("PUZZLED_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_LOG_FILTER));
    // A line a call: written by a thread of its own, so that a call's
    // thread only formats it. That thread writes the lines queued while it
    // wrote the last ones in one go (it flushes when the queue is empty),
    // not one write per line. Lines are never dropped (a full queue makes
    // the call wait), and the guard flushes them when `serve` returns.
    let stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout());
    let (writer, _flush_at_exit) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .finish(stdout);
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_target(false);
    // `PUZZLED_LOG_FORMAT=json`: one JSON object a line, the call's span
    // fields (method, request id, puzzle, hash, cache, solve time) in it.
    match std::env::var("PUZZLED_LOG_FORMAT").as_deref() {
        Ok("json") => logs
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
        Ok("text") | Err(std::env::VarError::NotPresent) => logs
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
            .init(),
        Ok(other) => anyhow::bail!("PUZZLED_LOG_FORMAT={other:?}: use text (the default) or json"),
        Err(std::env::VarError::NotUnicode(_)) => {
            anyhow::bail!("PUZZLED_LOG_FORMAT is not UTF-8: use text (the default) or json")
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(async {
        let app = crate::server::Application::build(config).await?;
        app.run_until_stopped().await
    });
    // The grace period is over: solves were told to stop, and whatever
    // still runs on the blocking pool must not hold the exit.
    runtime.shutdown_timeout(std::time::Duration::from_millis(500));
    served?;
    Ok(())
}

pub fn healthcheck(args: HealthcheckArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let timeout = std::time::Duration::from_secs(args.timeout_secs);
    let ca =
        match &args.ca_cert {
            Some(path) => Some(std::fs::read(path).map_err(|error| {
                anyhow::anyhow!("reading --ca-cert {}: {error}", path.display())
            })?),
            None => None,
        };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(args.wait_secs);
    let serving = runtime.block_on(async {
        loop {
            let checked =
                crate::server::health_check_with(&args.addr, timeout, ca.as_deref()).await;
            if matches!(checked, Ok(true)) || std::time::Instant::now() >= until {
                break match checked {
                    Err(error) => Err(explained(&args.addr, ca.is_some(), error).await),
                    Ok(serving) => Ok(serving),
                };
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    })?;
    if serving {
        println!("SERVING");
        Ok(())
    } else {
        bail!("{} is not serving", args.addr)
    }
}

/// A failed health check, said better when it is a mistake of the
/// connection's (TLS; see `connect_advice`).
async fn explained(addr: &str, ca_cert: bool, error: ServerError) -> anyhow::Error {
    use super::connect_advice::{advice, advice_for_status};
    let advised = match &error {
        ServerError::Connect { source, .. } => advice(addr, ca_cert, source),
        ServerError::HealthCheck { source, .. } => advice_for_status(addr, ca_cert, source).await,
        _ => None,
    };
    match advised {
        Some(advised) => anyhow::anyhow!("cannot reach {addr}: {advised}"),
        None => error.into(),
    }
}

pub fn backup(args: BackupArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let summary = runtime.block_on(crate::store::backup_sqlite(
        &args.database_url,
        &args.destination,
    ))?;
    println!(
        "backed up {} and {} to {}",
        super::report::counted(summary.puzzles as usize, "puzzle", "puzzles"),
        super::report::counted(summary.verdicts as usize, "verdict", "verdicts"),
        args.destination.display()
    );
    Ok(())
}
