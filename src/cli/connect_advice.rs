//! What a failed connection means, in a sentence that says what to do:
//! the usual mistakes with TLS (a certificate authority's certificate used
//! as a server's, one the client has no reason to trust, one for another
//! name, `https://` to a cleartext server, `http://` to a TLS one), for
//! `puzzled client` and `puzzled healthcheck` alike. Everything else is
//! left to the error's own words.

use std::error::Error;
use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio_rustls::rustls;

/// Where the openssl command for a server certificate is.
const TLS_DOCS: &str = "docs/operations.md#tls";

/// The advice for `error`, met while connecting to `addr` (`https://…`
/// or `http://…`) with `ca_cert` given or not; `None` when it is not one
/// of the mistakes this knows.
pub fn advice(addr: &str, ca_cert: bool, error: &(dyn Error + 'static)) -> Option<String> {
    let rustls_error = chain(error).find_map(|e| {
        e.downcast_ref::<rustls::Error>().or_else(|| {
            e.downcast_ref::<std::io::Error>()
                .and_then(std::io::Error::get_ref)
                .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        })
    })?;
    let host = host_of(addr);
    Some(match rustls_error {
        rustls::Error::InvalidCertificate(certificate) => {
            certificate_advice(certificate, host, ca_cert)
        }
        rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => {
            format!(
                "the server does not answer in TLS: if it runs without --tls-cert, use \
                 http://{}",
                authority_of(addr)
            )
        }
        _ => return None,
    })
}

fn certificate_advice(error: &rustls::CertificateError, host: &str, ca_cert: bool) -> String {
    use rustls::CertificateError as E;
    match error {
        E::UnknownIssuer if ca_cert => "the server's certificate is signed neither by a root \
                                        authority of the web nor by --ca-cert: give the \
                                        server's own certificate (or its authority's) as \
                                        --ca-cert"
            .to_owned(),
        E::UnknownIssuer => "the server's certificate is not signed by an authority this \
                             client trusts: give the server's certificate (self-signed) or \
                             its authority's with --ca-cert PATH"
            .to_owned(),
        E::BadSignature => "the server's certificate does not verify against --ca-cert: \
                            --ca-cert is another certificate, with another key"
            .to_owned(),
        E::NotValidForName | E::NotValidForNameContext { .. } => format!(
            "the server's certificate is not for {host}: its subjectAltName must list the \
             name or address the client dials (see {TLS_DOCS})"
        ),
        E::Expired | E::ExpiredContext { .. } => {
            "the server's certificate has expired: renew it (SIGHUP makes the server read it \
             again)"
                .to_owned()
        }
        E::NotValidYet | E::NotValidYetContext { .. } => {
            "the server's certificate is not valid yet: check the clocks".to_owned()
        }
        // rustls passes webpki's verdicts through as `Other`; this one is
        // what `openssl req -x509` makes unless told otherwise.
        E::Other(other) if format!("{other:?}").contains("CaUsedAsEndEntity") => format!(
            "the server's certificate is a certificate authority's (basicConstraints \
             CA:TRUE), which TLS clients refuse as a server's own: make it with \
             basicConstraints=critical,CA:FALSE and the server's names in subjectAltName \
             (the openssl command is in {TLS_DOCS})"
        ),
        other => format!("the server's certificate is refused: {other:?} (see {TLS_DOCS})"),
    }
}

/// Whether the server at `addr` (`http://HOST:PORT`) speaks TLS: it is
/// sent the start of a cleartext HTTP/2 connection, and a TLS server
/// answers that with a TLS alert record (content type 21, version 3.x).
/// Asked only after a cleartext call failed, to say why.
async fn speaks_tls(addr: &str) -> bool {
    let authority = authority_of(addr).to_owned();
    let probe = async move {
        let mut stream = tokio::net::TcpStream::connect(authority).await.ok()?;
        stream
            .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
            .await
            .ok()?;
        let mut head = [0u8; 2];
        stream.read_exact(&mut head).await.ok()?;
        Some(head == [0x15, 0x03])
    };
    tokio::time::timeout(Duration::from_secs(2), probe)
        .await
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// The advice for a cleartext call to a TLS server.
fn use_https(addr: &str) -> String {
    format!(
        "the server speaks TLS: use https://{} (with --ca-cert for a private or self-signed \
         certificate)",
        authority_of(addr)
    )
}

/// The advice for a call to `addr` that ended with `status`: a refused
/// certificate found in its source, or, for a cleartext address whose
/// server answered in something else than HTTP/2, a TLS server (asked
/// once more to be sure).
pub async fn advice_for_status(
    addr: &str,
    ca_cert: bool,
    status: &tonic::Status,
) -> Option<String> {
    if let Some(advised) = status
        .source()
        .and_then(|source| advice(addr, ca_cert, source))
    {
        return Some(advised);
    }
    if addr.starts_with("http://") && may_be_protocol_error(status) && speaks_tls(addr).await {
        return Some(use_https(addr));
    }
    None
}

/// Whether `status` may be how a cleartext call ends when the other end
/// answers in something else than HTTP/2: hyper's protocol and transport
/// errors surface as INTERNAL, UNKNOWN or UNAVAILABLE.
fn may_be_protocol_error(status: &tonic::Status) -> bool {
    matches!(
        status.code(),
        tonic::Code::Internal | tonic::Code::Unknown | tonic::Code::Unavailable
    )
}

fn chain<'a>(error: &'a (dyn Error + 'static)) -> impl Iterator<Item = &'a (dyn Error + 'static)> {
    std::iter::successors(Some(error), |&e| e.source())
}

/// `HOST:PORT` of `scheme://HOST:PORT/…`.
fn authority_of(addr: &str) -> &str {
    let rest = addr.split_once("://").map_or(addr, |(_, rest)| rest);
    rest.split('/').next().unwrap_or(rest)
}

/// `HOST` of `scheme://HOST:PORT/…` (an IPv6 address keeps its brackets).
fn host_of(addr: &str) -> &str {
    let authority = authority_of(addr);
    match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_authorities_come_from_the_address() {
        assert_eq!(authority_of("https://localhost:50051"), "localhost:50051");
        assert_eq!(authority_of("http://[::1]:50051/x"), "[::1]:50051");
        assert_eq!(host_of("https://localhost:50051"), "localhost");
        assert_eq!(host_of("https://[::1]:50051"), "[::1]");
        assert_eq!(host_of("https://example.org"), "example.org");
    }

    #[test]
    fn each_certificate_mistake_gets_its_own_sentence() {
        let wrap =
            |error: rustls::Error| std::io::Error::new(std::io::ErrorKind::InvalidData, error);
        let said = |error: rustls::Error, ca: bool| {
            advice("https://localhost:1", ca, &wrap(error)).expect("advice")
        };
        use rustls::CertificateError as E;
        assert!(
            said(rustls::Error::InvalidCertificate(E::UnknownIssuer), false)
                .contains("--ca-cert PATH")
        );
        assert!(
            said(rustls::Error::InvalidCertificate(E::UnknownIssuer), true).contains("neither")
        );
        assert!(
            said(rustls::Error::InvalidCertificate(E::NotValidForName), false)
                .contains("not for localhost")
        );
        assert!(said(rustls::Error::InvalidCertificate(E::Expired), false).contains("expired"));
        assert!(
            said(
                rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType),
                false
            )
            .contains("use http://localhost:1")
        );
        assert!(
            advice(
                "https://localhost:1",
                false,
                &std::io::Error::other("refused")
            )
            .is_none()
        );
    }
}
