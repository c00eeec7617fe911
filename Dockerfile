# Build stage: compile the release binary (protox compiles the protos, so no
# protoc is needed; SQLite is bundled).
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin puzzled

# Runtime stage: the binary alone, as a non-root user.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /data --create-home puzzled
COPY --from=build /src/target/release/puzzled /usr/local/bin/puzzled
USER puzzled
WORKDIR /data
ENV PUZZLED_LISTEN=0.0.0.0:50051 \
    PUZZLED_DATABASE_URL=sqlite:///data/puzzled.db
EXPOSE 50051
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["puzzled", "healthcheck", "--addr", "http://127.0.0.1:50051"]
ENTRYPOINT ["puzzled"]
CMD ["serve"]
