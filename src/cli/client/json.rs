//! The API's messages to and from the proto3 JSON mapping (camelCase
//! names, enums by name, 64-bit integers as strings, default values left
//! out), as grpcurl prints them: each prost message is encoded, decoded as
//! a dynamic message of its descriptor in the API's descriptor set, and
//! written by prost-reflect, so the JSON can never drift from the `.proto`
//! files.

use std::sync::LazyLock;

use prost::Message as _;
use prost_reflect::{DescriptorPool, DeserializeOptions, DynamicMessage, MessageDescriptor};

use crate::api::proto;

/// The API's descriptors and the health service's.
static POOL: LazyLock<DescriptorPool> = LazyLock::new(|| {
    let mut pool = DescriptorPool::new();
    for set in [
        crate::api::FILE_DESCRIPTOR_SET,
        tonic_health::pb::FILE_DESCRIPTOR_SET,
    ] {
        pool.decode_file_descriptor_set(set)
            .expect("the descriptor sets compiled into the binary decode");
    }
    pool
});

/// A message of the API with its full protobuf name.
pub trait ApiMessage: prost::Message + Default {
    const NAME: &'static str;
}

macro_rules! api_messages {
    ($($type:ty => $name:literal),* $(,)?) => {
        $(impl ApiMessage for $type {
            const NAME: &'static str = $name;
        })*
    };
}

api_messages! {
    proto::Puzzle => "puzzled.v1.Puzzle",
    proto::PuzzleSpec => "puzzled.v1.PuzzleSpec",
    proto::ListPuzzlesResponse => "puzzled.v1.ListPuzzlesResponse",
    proto::Solution => "puzzled.v1.Solution",
    proto::PositionAnalysis => "puzzled.v1.PositionAnalysis",
    proto::PlayResponse => "puzzled.v1.PlayResponse",
    proto::ImportResult => "puzzled.v1.ImportResult",
    proto::ImportPuzzlesResponse => "puzzled.v1.ImportPuzzlesResponse",
    proto::GeneratedPuzzle => "puzzled.v1.GeneratedPuzzle",
    () => "google.protobuf.Empty",
    tonic_health::pb::HealthCheckResponse => "grpc.health.v1.HealthCheckResponse",
}

fn descriptor<M: ApiMessage>() -> MessageDescriptor {
    POOL.get_message_by_name(M::NAME)
        .unwrap_or_else(|| panic!("{} is in the descriptor set", M::NAME))
}

/// `message` as one line of JSON.
pub fn to_json<M: ApiMessage>(message: &M) -> String {
    let dynamic = DynamicMessage::decode(descriptor::<M>(), message.encode_to_vec().as_slice())
        .expect("a message decodes as its own descriptor");
    let mut out = serde_json::Serializer::new(Vec::new());
    dynamic
        .serialize_with_options(&mut out, &Default::default())
        .expect("serialising to memory cannot fail");
    String::from_utf8(out.into_inner()).expect("serde_json writes UTF-8")
}

/// Why a text is not a message of the API in JSON.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct JsonError(String);

/// The message `text` holds in the proto3 JSON mapping (camelCase or the
/// `.proto` field names, enums by name or number); an unknown field is an
/// error, not silently dropped.
pub fn from_json<M: ApiMessage>(text: &str) -> Result<M, JsonError> {
    let mut input = serde_json::Deserializer::from_str(text);
    let dynamic = DynamicMessage::deserialize_with_options(
        descriptor::<M>(),
        &mut input,
        &DeserializeOptions::new().deny_unknown_fields(true),
    )
    .map_err(|e| JsonError(e.to_string()))?;
    input.end().map_err(|e| JsonError(e.to_string()))?;
    M::decode(dynamic.encode_to_vec().as_slice()).map_err(|e| JsonError(e.to_string()))
}

/// The JSON field names of the message `M` (each field's JSON name and its
/// `.proto` name), to tell which message a JSON object is.
pub fn field_names<M: ApiMessage>() -> Vec<String> {
    descriptor::<M>()
        .fields()
        .flat_map(|field| [field.json_name().to_owned(), field.name().to_owned()])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_named_here_is_in_the_descriptor_set() {
        for name in [
            proto::Puzzle::NAME,
            proto::PuzzleSpec::NAME,
            proto::ListPuzzlesResponse::NAME,
            proto::Solution::NAME,
            proto::PositionAnalysis::NAME,
            proto::PlayResponse::NAME,
            proto::ImportResult::NAME,
            proto::ImportPuzzlesResponse::NAME,
            proto::GeneratedPuzzle::NAME,
            <()>::NAME,
            tonic_health::pb::HealthCheckResponse::NAME,
        ] {
            assert!(POOL.get_message_by_name(name).is_some(), "{name}");
        }
    }

    #[test]
    fn a_puzzle_is_written_as_grpcurl_writes_it_and_read_back() {
        let puzzle = proto::Puzzle {
            name: "puzzles/x".into(),
            spec: Some(proto::PuzzleSpec {
                game: proto::Game::TreePaint as i32,
                graph: Some(proto::Graph {
                    vertex_count: 3,
                    edges: vec![0, 1, 1, 2],
                }),
                black: Some(0),
                white: Some(2),
                ..Default::default()
            }),
            edge_count: 2,
            create_time: Some(prost_types::Timestamp {
                seconds: 0,
                nanos: 0,
            }),
            ..Default::default()
        };
        let json = to_json(&puzzle);
        assert_eq!(
            json,
            r#"{"name":"puzzles/x","spec":{"game":"GAME_TREE_PAINT","graph":{"vertexCount":3,"edges":[0,1,1,2]},"black":0,"white":2},"createTime":"1970-01-01T00:00:00Z","edgeCount":"2"}"#
        );
        assert_eq!(from_json::<proto::Puzzle>(&json).unwrap(), puzzle);
        // The .proto names are read too, as the mapping asks of a parser.
        let spec: proto::PuzzleSpec =
            from_json(r#"{"game":"GAME_GEOGRAPHY","graph":{"vertex_count":2,"edges":[0,1]}}"#)
                .unwrap();
        assert_eq!(spec.graph.unwrap().vertex_count, 2);
    }

    #[test]
    fn unknown_fields_and_trailing_text_are_errors() {
        let error = from_json::<proto::PuzzleSpec>(r#"{"game":"GAME_GEOGRAPHY","colour":1}"#)
            .unwrap_err()
            .to_string();
        assert!(error.contains("colour"), "{error}");
        assert!(from_json::<proto::PuzzleSpec>(r#"{} {}"#).is_err());
        assert!(from_json::<proto::PuzzleSpec>(r#"{"game":"GAME_CHESS"}"#).is_err());
    }
}
