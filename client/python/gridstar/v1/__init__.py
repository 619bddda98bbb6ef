"""Generated gRPC stubs of the gridstar.v1 API (client/python/gen_stubs.sh)."""
