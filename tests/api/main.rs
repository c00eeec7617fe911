//! Integration tests: a real server on an ephemeral port with a temporary
//! database, driven through real clients (the generated tonic client, the
//! reflection clients, and grpcurl when it is enabled).

mod access;
mod admission;
mod authorization;
mod backup;
mod binary;
mod browser;
mod cancel;
mod canon;
mod checker;
mod client;
mod cluster;
mod crud;
mod errors;
mod export;
mod fair_share;
mod generate;
mod generate_share;
mod grpc_web;
mod grpcio;
mod grpcurl;
mod helpers;
mod import;
mod import_pace;
mod metrics;
mod positions;
mod postgres;
mod reflection;
mod request_ids;
mod retention;
#[path = "../common/run.rs"]
mod run;
mod search_games;
mod secrets;
mod solve;
mod store_faults;
mod tls;
mod transport;
mod views;
