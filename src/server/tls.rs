//! TLS on the serving port: a certificate chain and its key from PEM files,
//! read again on SIGHUP so that a renewed certificate is served without a
//! restart. Connections already open keep the certificate they began with.
//!
//! ALPN offers `h2` and `http/1.1`: gRPC clients take HTTP/2, browsers
//! (the page, gRPC-Web) may take either.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::pki_types::pem::PemObject as _;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{self, ServerConfig};

/// Why the certificate or its key could not be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("--tls-cert and --tls-key go together: give both, or neither")]
    HalfConfigured,
    #[error("reading the certificate chain {path}")]
    Certificates {
        path: PathBuf,
        #[source]
        source: rustls::pki_types::pem::Error,
    },
    #[error("{path} holds no certificate (PEM, `-----BEGIN CERTIFICATE-----`)")]
    NoCertificate { path: PathBuf },
    #[error("reading the private key {path}")]
    Key {
        path: PathBuf,
        #[source]
        source: rustls::pki_types::pem::Error,
    },
    #[error("the certificate {cert} and the key {key} do not make a TLS configuration")]
    Config {
        cert: PathBuf,
        key: PathBuf,
        #[source]
        source: rustls::Error,
    },
}

/// The serving port's TLS configuration, reloadable.
pub struct ServingTls {
    cert: PathBuf,
    key: PathBuf,
    config: RwLock<Arc<ServerConfig>>,
}

impl ServingTls {
    /// TLS from `cert` (a PEM chain, the server's certificate first) and
    /// `key` (a PEM private key), when both are given.
    pub fn from_files(
        cert: Option<&Path>,
        key: Option<&Path>,
    ) -> Result<Option<ServingTls>, TlsError> {
        match (cert, key) {
            (None, None) => Ok(None),
            (Some(cert), Some(key)) => Ok(Some(ServingTls {
                config: RwLock::new(Arc::new(server_config(cert, key)?)),
                cert: cert.to_owned(),
                key: key.to_owned(),
            })),
            _ => Err(TlsError::HalfConfigured),
        }
    }

    /// Reads the files again; on an error the configuration before stays.
    pub fn reload(&self) -> Result<(), TlsError> {
        let config = Arc::new(server_config(&self.cert, &self.key)?);
        *self
            .config
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = config;
        Ok(())
    }

    /// An acceptor with the configuration now.
    pub fn acceptor(&self) -> TlsAcceptor {
        TlsAcceptor::from(
            self.config
                .read()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .clone(),
        )
    }
}

fn server_config(cert: &Path, key: &Path) -> Result<ServerConfig, TlsError> {
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|source| TlsError::Certificates {
            path: cert.to_owned(),
            source,
        })?;
    if chain.is_empty() {
        return Err(TlsError::NoCertificate {
            path: cert.to_owned(),
        });
    }
    let private_key = PrivateKeyDer::from_pem_file(key).map_err(|source| TlsError::Key {
        path: key.to_owned(),
        source,
    })?;
    let config_error = |source| TlsError::Config {
        cert: cert.to_owned(),
        key: key.to_owned(),
        source,
    };
    // ring: the provider sqlx's and tonic's TLS use here too, so the tree
    // holds one cryptography library (its post-quantum key exchange is
    // aws-lc-rs's alone, hence the deprecation).
    #[allow(deprecated)]
    let provider = rustls::crypto::ring::default_provider();
    let mut config = ServerConfig::builder_with_provider(Arc::new(provider))
        .with_safe_default_protocol_versions()
        .map_err(config_error)?
        .with_no_client_auth()
        .with_single_cert(chain, private_key)
        .map_err(config_error)?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}
