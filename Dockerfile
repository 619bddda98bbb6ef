# gridstar-server in a container. Every step is a script the tests run on a
# plain Debian machine (scripts/test.sh runs install-deps.sh and build.sh;
# tests/deploy checks this file calls them and copies what they build).
#
#   docker build -t gridstar .          (podman: podman build --format docker -t gridstar .)
#   docker run -p 50051:50051 -p 9464:9464 -v gridstar-maps:/var/lib/gridstar/maps \
#       -e FLAGS_workers=4 gridstar
#
# Every server flag can come from the environment as FLAGS_<name> (the server
# reads them itself; see gridstar-server --help), e.g. FLAGS_preload=
# dungeon=/usr/share/gridstar/sample/dungeon.map for the bundled sample.
# Maps live in the volume (FLAGS_data_dir): a restart keeps them and their
# updates, and a preloaded id already stored there keeps its stored version.

# --- build: the README's install and build scripts -------------------------
FROM debian:bookworm AS build
WORKDIR /src
COPY scripts/ scripts/
RUN scripts/install-deps.sh --build
COPY . .
# The compiler cache outlives the image (a cache mount): a rebuild after a
# small change recompiles only what it touched.
ENV CCACHE_DIR=/ccache
RUN --mount=type=cache,target=/ccache scripts/build.sh build/release -DGRIDSTAR_BUILD_TESTS=OFF

# --- runtime: only the shared libraries, a non-root user --------------------
FROM debian:bookworm-slim AS runtime
COPY scripts/install-deps.sh /tmp/install-deps.sh
RUN /tmp/install-deps.sh --runtime && rm -rf /var/lib/apt/lists/* /tmp/install-deps.sh \
    && useradd --system --uid 10001 --create-home --home-dir /var/lib/gridstar gridstar
COPY --from=build /src/build/release/server/gridstar-server /usr/local/bin/gridstar-server
COPY --from=build /src/build/release/client/gridstar /usr/local/bin/gridstar
COPY --from=build /src/data/sample/ /usr/share/gridstar/sample/
USER gridstar
WORKDIR /var/lib/gridstar
VOLUME /var/lib/gridstar/maps
ENV FLAGS_port=50051 \
    FLAGS_metrics_port=9464 \
    FLAGS_data_dir=/var/lib/gridstar/maps \
    FLAGS_shutdown_grace=10s
EXPOSE 50051 9464
# Asks the gRPC health service: SERVING exits 0, anything else 1. With TLS on
# (FLAGS_tls_cert), set GRIDSTAR_TLS_CA (and GRIDSTAR_TLS_SERVER_NAME when the
# certificate does not name 127.0.0.1) for the CLI; health needs no key.
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
    CMD gridstar --server=127.0.0.1:${FLAGS_port} --deadline=2s health || exit 1
ENTRYPOINT ["gridstar-server"]
