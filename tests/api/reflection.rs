//! Server reflection (v1 and v1alpha) and the health service, through their
//! own clients.

use prost::Message as _;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use super::helpers::*;

macro_rules! reflection_checks {
    ($name:ident, $pb:path) => {
        #[tokio::test]
        async fn $name() {
            use pb::server_reflection_client::ServerReflectionClient;
            use pb::server_reflection_request::MessageRequest;
            use pb::server_reflection_response::MessageResponse;
            use $pb as pb;

            let app = spawn_app().await;
            let mut client = ServerReflectionClient::new(app.channel.clone());
            let requests = [
                MessageRequest::ListServices(String::new()),
                MessageRequest::FileContainingSymbol("puzzled.v1.PuzzleService".into()),
            ]
            .map(|r| pb::ServerReflectionRequest {
                host: String::new(),
                message_request: Some(r),
            });
            let mut responses = client
                .server_reflection_info(tokio_stream::iter(requests.to_vec()))
                .await
                .unwrap()
                .into_inner();
            let first = responses.message().await.unwrap().unwrap();
            let Some(MessageResponse::ListServicesResponse(list)) = first.message_response else {
                panic!("{first:?}")
            };
            let names: Vec<_> = list.service.iter().map(|s| s.name.as_str()).collect();
            for expected in [
                "puzzled.v1.PuzzleService",
                "grpc.health.v1.Health",
                "grpc.reflection.v1.ServerReflection",
                "grpc.reflection.v1alpha.ServerReflection",
            ] {
                assert!(
                    names.contains(&expected),
                    "{expected} missing from {names:?}"
                );
            }
            let second = responses.message().await.unwrap().unwrap();
            let Some(MessageResponse::FileDescriptorResponse(files)) = second.message_response
            else {
                panic!("{second:?}")
            };
            let files: Vec<prost_types::FileDescriptorProto> = files
                .file_descriptor_proto
                .iter()
                .map(|b| prost_types::FileDescriptorProto::decode(b.as_slice()).unwrap())
                .collect();
            let service = files
                .iter()
                .flat_map(|f| f.service.iter())
                .find(|s| s.name() == "PuzzleService")
                .expect("the service descriptor");
            let methods: Vec<_> = service.method.iter().map(|m| m.name()).collect();
            assert_eq!(
                methods,
                [
                    "CreatePuzzle",
                    "GetPuzzle",
                    "ListPuzzles",
                    "ExportPuzzles",
                    "ImportPuzzles",
                    "GeneratePuzzles",
                    "DeletePuzzle",
                    "SolvePuzzle",
                    "Solve",
                    "AnalyzePosition",
                    "Play"
                ]
            );
        }
    };
}

reflection_checks!(reflection_v1_lists_and_describes, tonic_reflection::pb::v1);
reflection_checks!(
    reflection_v1alpha_lists_and_describes,
    tonic_reflection::pb::v1alpha
);

#[tokio::test]
async fn health_reports_serving() {
    let app = spawn_app().await;
    let mut health = HealthClient::new(app.channel.clone());
    for service in ["", "puzzled.v1.PuzzleService"] {
        let status = health
            .check(tonic_health::pb::HealthCheckRequest {
                service: service.into(),
            })
            .await
            .unwrap()
            .into_inner()
            .status;
        assert_eq!(status, ServingStatus::Serving as i32, "service {service:?}");
    }
}

/// An open `Health/Watch` stream does not hold the shutdown: the watcher
/// sees NOT_SERVING, then its stream ends UNAVAILABLE (reason
/// SHUTTING_DOWN), and the server stops well within a grace period of an
/// hour. (A hang guard bounds the waits: without the ending the watch
/// would hold the drain for the whole hour.)
#[tokio::test]
async fn an_open_health_watch_ends_at_shutdown() {
    let app = app_with(|config| config.shutdown_grace_secs = 3600).await;
    let mut health = HealthClient::new(app.channel.clone());
    let mut watch = health
        .watch(tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    let first = watch.message().await.unwrap().unwrap();
    assert_eq!(first.status, ServingStatus::Serving as i32);

    let guard = std::time::Duration::from_secs(60);
    let stopping = app.request_stop();
    let ended = tokio::time::timeout(guard, async {
        let mut statuses = Vec::new();
        loop {
            match watch.message().await {
                Ok(Some(update)) => statuses.push(update.status),
                Ok(None) => panic!("the watch ended without a status"),
                Err(status) => return (statuses, status),
            }
        }
    })
    .await
    .expect("the watch stayed open");
    assert_eq!(ended.0.last(), Some(&(ServingStatus::NotServing as i32)));
    assert_eq!(ended.1.code(), tonic::Code::Unavailable, "{:?}", ended.1);
    assert_eq!(error_reason(&ended.1), "SHUTTING_DOWN");
    drop(watch);
    tokio::time::timeout(guard, stopping.finish())
        .await
        .expect("the shutdown waited for the watch");
}
