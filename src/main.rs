//! The `puzzled` command line.

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "puzzled", version, about = "Solves two-player graph games exactly, with evidence")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the gRPC service.
    Serve(puzzled::config::Config),
    /// Ask a running service whether it is SERVING (exit 0) or not (exit 1),
    /// through the gRPC health service; for container health checks.
    Healthcheck(HealthcheckArgs),
}

#[derive(Debug, clap::Args)]
struct HealthcheckArgs {
    /// The service's address.
    #[arg(long, env = "PUZZLED_HEALTHCHECK_ADDR", default_value = "http://127.0.0.1:50051")]
    addr: String,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 3)]
    timeout_secs: u64,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(config) => serve(config),
        Command::Healthcheck(args) => healthcheck(args),
    }
}

fn healthcheck(args: HealthcheckArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let timeout = std::time::Duration::from_secs(args.timeout_secs);
    let serving = runtime.block_on(puzzled::service::health_check(&args.addr, timeout))?;
    if serving {
        println!("SERVING");
        Ok(())
    } else {
        anyhow::bail!("{} is not serving", args.addr)
    }
}

fn serve(config: puzzled::config::Config) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("PUZZLED_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_target(false)
        .init();
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async {
            let app = puzzled::service::Application::build(config).await?;
            app.run_until_stopped().await
        })
}
