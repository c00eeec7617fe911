//! The methods this server serves (ours, health, reflection), read once
//! from their descriptors: what the metrics label a call with, and which
//! requests are streams of messages timed one by one.

/// A method this server serves, as its descriptor says.
pub struct ServedMethod {
    pub service: String,
    pub name: String,
    /// Whether the client sends a stream of messages.
    pub client_streaming: bool,
}

/// Every method this server serves (ours, health, reflection), by path.
pub fn served_methods() -> &'static std::collections::HashMap<String, ServedMethod> {
    static SERVED: std::sync::LazyLock<std::collections::HashMap<String, ServedMethod>> =
        std::sync::LazyLock::new(|| {
            use prost::Message as _;
            [
                crate::api::FILE_DESCRIPTOR_SET,
                tonic_health::pb::FILE_DESCRIPTOR_SET,
                tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
                tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
            ]
            .into_iter()
            .filter_map(|bytes| prost_types::FileDescriptorSet::decode(bytes).ok())
            .flat_map(|set| set.file)
            .flat_map(|file| {
                let package = file.package().to_owned();
                file.service.into_iter().flat_map(move |service| {
                    let service_name = format!("{package}.{}", service.name());
                    service.method.into_iter().map(move |method| {
                        let path = format!("/{service_name}/{}", method.name());
                        let served = ServedMethod {
                            service: service_name.clone(),
                            name: method.name().to_owned(),
                            client_streaming: method.client_streaming(),
                        };
                        (path, served)
                    })
                })
            })
            .collect()
        });
    &SERVED
}
