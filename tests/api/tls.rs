//! TLS both ways: the serving port with a certificate made here (gRPC and
//! the health check over TLS, cleartext and untrusting clients refused, a
//! renewed certificate served after SIGHUP), and the store's connections
//! to PostgreSQL (`sslmode=require`, seen encrypted in `pg_stat_ssl`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tonic::transport::{Certificate, Channel, ClientTlsConfig};

use crate::helpers::*;
use crate::postgres::PgSchema;

/// A certificate authority of the test's own, and a server certificate it
/// signed for `localhost` and 127.0.0.1, written as PEM files.
pub struct Certificates {
    pub ca_pem: String,
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl Certificates {
    pub fn make(dir: &Path, name: &str) -> Certificates {
        let ca_key = rcgen::KeyPair::generate().unwrap();
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, format!("{name} test authority"));
        let ca = ca_params.self_signed(&ca_key).unwrap();
        let issuer = rcgen::Issuer::new(ca_params, ca_key);
        let server_key = rcgen::KeyPair::generate().unwrap();
        let mut params =
            rcgen::CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
                .unwrap();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "localhost");
        let server = params.signed_by(&server_key, &issuer).unwrap();
        let (cert, key) = (
            dir.join(format!("{name}.crt")),
            dir.join(format!("{name}.key")),
        );
        std::fs::write(&cert, server.pem()).unwrap();
        std::fs::write(&key, server_key.serialize_pem()).unwrap();
        Certificates {
            ca_pem: ca.pem(),
            cert,
            key,
        }
    }
}

/// A TLS server on `dir` whose certificate is `cert` and `key` (PEM files).
pub async fn tls_server(dir: &Arc<tempfile::TempDir>, cert: PathBuf, key: PathBuf) -> TestApp {
    app_in(dir.clone(), |config| {
        config.tls_cert = Some(cert);
        config.tls_key = Some(key);
    })
    .await
}

/// A client of `https://localhost:PORT` that trusts `ca_pem` alone.
async fn tls_client(
    port: u16,
    ca_pem: &str,
) -> Result<proto::puzzle_service_client::PuzzleServiceClient<Channel>, tonic::transport::Error> {
    let channel = Channel::from_shared(format!("https://localhost:{port}"))
        .unwrap()
        .tls_config(
            ClientTlsConfig::new()
                .ca_certificate(Certificate::from_pem(ca_pem))
                .domain_name("localhost"),
        )?
        .connect()
        .await?;
    Ok(client_on(channel))
}

#[tokio::test]
async fn the_serving_port_speaks_tls_to_clients_that_trust_it() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let certificates = Certificates::make(dir.path(), "server");
    let app = tls_server(&dir, certificates.cert.clone(), certificates.key.clone()).await;
    let port = app.port;

    let mut client = tls_client(port, &certificates.ca_pem).await.unwrap();
    let created = client
        .create_puzzle(create_request(path(5)))
        .await
        .unwrap()
        .into_inner();
    let read = client
        .get_puzzle(proto::GetPuzzleRequest {
            name: created.name.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(read.name, created.name);
    assert!(
        puzzled::server::health_check_with(
            &format!("https://localhost:{port}"),
            Duration::from_secs(5),
            Some(certificates.ca_pem.as_bytes()),
        )
        .await
        .unwrap()
    );

    // A client that does not trust the authority, and a cleartext one,
    // get nothing.
    let stranger = Certificates::make(dir.path(), "stranger");
    assert!(tls_client(port, &stranger.ca_pem).await.is_err());
    let cleartext =
        puzzled::server::health_check(&format!("http://127.0.0.1:{port}"), Duration::from_secs(5))
            .await;
    assert!(!matches!(cleartext, Ok(true)), "{cleartext:?}");
    app.stop().await;
}

#[tokio::test]
async fn a_certificate_without_its_key_is_refused_at_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let certificates = Certificates::make(dir.path(), "server");
    let mut config = test_config(dir.path());
    config.tls_cert = Some(certificates.cert.clone());
    let Err(error) = puzzled::server::Application::build(config.clone()).await else {
        panic!("a server with half a TLS configuration started");
    };
    assert!(error.to_string().contains("setting up TLS"), "{error}");
    let cause = std::error::Error::source(&error).unwrap().to_string();
    assert!(
        cause.contains("--tls-cert and --tls-key go together"),
        "{cause}"
    );

    // A key that is not the certificate's names both files.
    let other = Certificates::make(dir.path(), "other");
    config.tls_key = Some(other.key.clone());
    let Err(error) = puzzled::server::Application::build(config).await else {
        panic!("a server with a mismatched key started");
    };
    let cause = std::error::Error::source(&error).unwrap().to_string();
    assert!(
        cause.contains("server.crt") && cause.contains("other.key"),
        "{cause}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sighup_serves_a_renewed_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let first = Certificates::make(dir.path(), "first");
    let (cert, key) = (
        dir.path().join("serving.crt"),
        dir.path().join("serving.key"),
    );
    std::fs::copy(&first.cert, &cert).unwrap();
    std::fs::copy(&first.key, &key).unwrap();
    let served = Served::start(
        dir.path(),
        &[
            ("PUZZLED_TLS_CERT", cert.to_str().unwrap()),
            ("PUZZLED_TLS_KEY", key.to_str().unwrap()),
        ],
    );
    let port: u16 = served.addr.rsplit_once(':').unwrap().1.parse().unwrap();
    tls_client(port, &first.ca_pem).await.unwrap();

    let renewed = Certificates::make(dir.path(), "renewed");
    std::fs::copy(&renewed.cert, &cert).unwrap();
    std::fs::copy(&renewed.key, &key).unwrap();
    served.hang_up();
    served.line_with("TLS certificate read again");
    let mut client = tls_client(port, &renewed.ca_pem).await.unwrap();
    client.create_puzzle(create_request(path(3))).await.unwrap();
    assert!(tls_client(port, &first.ca_pem).await.is_err());

    // A key file that no longer reads leaves the renewed certificate.
    std::fs::write(&key, "not a key").unwrap();
    served.hang_up();
    served.line_with("the TLS certificate could not be read");
    tls_client(port, &renewed.ca_pem).await.unwrap();
}

#[tokio::test]
async fn the_store_reaches_postgresql_over_tls() {
    let Some(schema) = PgSchema::create().await else {
        return;
    };
    let app = app_with(|config| {
        config.database_url = format!("{}&sslmode=require", schema.url());
    })
    .await;
    let created = app.create(path(4)).await;
    app.read(&created.name).await;
    assert!(
        schema.tls_sessions().await >= 1,
        "no session of the server's was encrypted"
    );
    app.stop().await;
}
