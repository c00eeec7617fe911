//! Every call carries an id: the client's `x-request-id`, or a fresh one,
//! echoed in the response headers of answers and errors alike.

use tonic::Request;

use super::helpers::*;

const HEADER: &str = "x-request-id";

#[tokio::test]
async fn the_clients_request_id_is_echoed() {
    let mut app = spawn_app().await;
    let mut request = Request::new(solve_request(geography(3, &[0, 1, 1, 2], 0)));
    request
        .metadata_mut()
        .insert(HEADER, "site-7f3a/42".parse().unwrap());
    let response = app.client.solve(request).await.unwrap();
    assert_eq!(response.metadata().get(HEADER).unwrap(), "site-7f3a/42");

    // An error (a malformed name) carries it too.
    let mut request = Request::new(proto::GetPuzzleRequest {
        name: "puzzles/not a puzzle id".into(),
        view: 0,
    });
    request
        .metadata_mut()
        .insert(HEADER, "site-7f3a/43".parse().unwrap());
    let status = app.client.get_puzzle(request).await.unwrap_err();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert_eq!(status.metadata().get(HEADER).unwrap(), "site-7f3a/43");
    app.stop().await;
}

#[tokio::test]
async fn a_call_without_a_usable_id_gets_a_fresh_one() {
    let mut app = spawn_app().await;
    let fresh = |metadata: &tonic::metadata::MetadataMap| {
        let id = metadata
            .get(HEADER)
            .expect("an id is always sent back")
            .to_str()
            .unwrap()
            .to_owned();
        assert_eq!(id.len(), 16, "{id}");
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
        id
    };
    let spec = || solve_request(geography(3, &[0, 1, 1, 2], 0));
    let first = fresh(app.client.solve(spec()).await.unwrap().metadata());
    let second = fresh(app.client.solve(spec()).await.unwrap().metadata());
    assert_ne!(first, second, "ids are not reused");
    // Too long to be a client's id: replaced, not echoed.
    let mut request = Request::new(spec());
    request
        .metadata_mut()
        .insert(HEADER, "x".repeat(200).parse().unwrap());
    fresh(app.client.solve(request).await.unwrap().metadata());
    app.stop().await;
}
