//! The puzzle page on the gRPC port: `/` (the list and the submit form) and
//! `/puzzles/{id}` (one puzzle) load the same HTML, whose script calls the
//! service through gRPC-Web. The files are built from `web/` with npm and
//! embedded in the binary, so there is nothing to deploy beside it.
//!
//! gRPC and gRPC-Web calls are POSTs; only GET and HEAD requests come here,
//! so a page path can never shadow a method.

use std::convert::Infallible;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::Full;
use tonic::body::Body;

const INDEX_HTML: &[u8] = include_bytes!("../../web/static/index.html");
const STYLE_CSS: &[u8] = include_bytes!("../../web/static/style.css");
const APP_JS: &[u8] = include_bytes!("../../web/dist/app.js");

/// The page's own files and nothing else: scripts, styles and calls all
/// stay on this origin (no third-party requests).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The file for a GET of `path`, with its media type.
fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    match path {
        "/" | "/index.html" => Some(("text/html; charset=utf-8", INDEX_HTML)),
        "/assets/app.js" => Some(("text/javascript; charset=utf-8", APP_JS)),
        "/assets/style.css" => Some(("text/css; charset=utf-8", STYLE_CSS)),
        _ => path
            .strip_prefix("/puzzles/")
            .filter(|id| crate::store::is_well_formed_id(id))
            .map(|_| ("text/html; charset=utf-8", INDEX_HTML)),
    }
}

/// Answers the page's GET and HEAD requests and passes every other request
/// to `inner` (the gRPC and gRPC-Web calls).
#[derive(Clone)]
pub(super) struct WithPage<S> {
    pub(super) inner: S,
}

impl<S> tower::Service<Request<Body>> for WithPage<S>
where
    S: tower::Service<Request<Body>, Response = Response<Body>, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Response<Body>, Infallible>> + Send>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let method = request.method();
        if method != Method::GET && method != Method::HEAD {
            return Box::pin(self.inner.call(request));
        }
        let response = page_response(request.uri().path(), method == Method::HEAD);
        Box::pin(std::future::ready(Ok(response)))
    }
}

/// The response to a GET (or, without its body, a HEAD) of `path`.
fn page_response(path: &str, head: bool) -> Response<Body> {
    let (status, content_type, content): (_, _, &'static [u8]) = match asset(path) {
        Some((content_type, content)) => (StatusCode::OK, content_type, content),
        None => (
            StatusCode::NOT_FOUND,
            "text/plain; charset=utf-8",
            b"Not found. The puzzle page is at /; gRPC and gRPC-Web calls are POSTs.\n",
        ),
    };
    let body = if head {
        Body::empty()
    } else {
        Body::new(Full::new(Bytes::from_static(content)))
    };
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(content.len()));
    // The files change with the binary and are small: always revalidated.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_paths_load_the_page_and_others_are_not_found() {
        for path in ["/", "/puzzles/0123456789abcdef0123"] {
            assert_eq!(asset(path).unwrap().1, INDEX_HTML, "{path}");
        }
        for path in [
            "/puzzles/nope",
            "/puzzles/",
            "/assets/other.js",
            "/puzzled.v1.PuzzleService/Solve",
        ] {
            assert!(asset(path).is_none(), "{path}");
            assert_eq!(page_response(path, false).status(), StatusCode::NOT_FOUND);
        }
        let script = page_response("/assets/app.js", false);
        assert_eq!(
            script.headers()[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            script.headers()[header::CONTENT_LENGTH],
            APP_JS.len().to_string().as_str()
        );
    }
}
