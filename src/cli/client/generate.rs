//! `puzzled client generate`: the GeneratePuzzles stream, printed and
//! written as `puzzled generate` prints and writes puzzles made locally.
//! A call sends at most 100 puzzles, so more are asked for in turns, each
//! going on after the last candidate received.

use super::args::GenerateArgs;
use super::commands::Output;
use super::connect::Connection;
use super::error::Result;
use crate::app::generate::MAX_COUNT;
use crate::cli::generate::Delivered;

pub async fn generate(connection: &Connection, output: Output, args: GenerateArgs) -> Result<()> {
    let wanted = args.generation.count;
    let mut delivered = Delivered::open(&args.generation, output.json)?;
    let mut next_candidate = args.generation.first_candidate;
    let mut sent = std::collections::HashSet::new();
    while delivered.count < wanted {
        let count = (wanted - delivered.count).min(MAX_COUNT);
        let mut request = args.generation.request(count, next_candidate)?;
        request.store = args.store;
        request.author = args.author.clone().unwrap_or_default();
        let mut stream = connection
            .puzzles()
            .await?
            .generate_puzzles(connection.stream(request))
            .await?
            .into_inner();
        let mut received = 0;
        while let Some(generated) = stream.message().await? {
            received += 1;
            next_candidate = generated.candidate + 1;
            // Each call passes over copies of its own puzzles; the turns
            // together pass over copies of earlier turns' too.
            let hash = generated
                .solution
                .as_ref()
                .map(|s| s.canonical_hash.clone());
            if sent.insert(hash.unwrap_or_default()) {
                delivered.put(&generated)?;
            }
        }
        // A graph6 family ends with its lines.
        if received < count {
            break;
        }
    }
    delivered.finish();
    Ok(())
}
