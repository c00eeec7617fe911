//! Compiles `proto/` without a system `protoc`: protox parses the files into a
//! descriptor set, which drives tonic's code generator and is also written
//! to `OUT_DIR` for server reflection.

use std::path::PathBuf;

use prost::Message as _;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    println!("cargo:rerun-if-changed=migrations");
    let fds = protox::compile(
        ["puzzled/v1/puzzle.proto", "puzzled/v1/puzzle_service.proto"],
        ["proto"],
    )?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("puzzled_descriptor.bin"), fds.encode_to_vec())?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .codec_path("crate::api::codec::WireCodec")
        .compile_fds(fds)?;
    Ok(())
}
