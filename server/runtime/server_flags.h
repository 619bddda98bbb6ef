// The flags of gridstar-server (server_flags.cc lists them with their help)
// and the options they make: main parses them; in-process tests set them
// (absl::FlagSaver restores them) and start a Server from the same options.
#ifndef GRIDSTAR_SERVER_RUNTIME_SERVER_FLAGS_H_
#define GRIDSTAR_SERVER_RUNTIME_SERVER_FLAGS_H_

#include "absl/time/time.h"
#include "runtime/server.h"

namespace gridstar::server {

// The options the flags say, as parsed (defaults where unset).
ServerOptions ServerOptionsFromFlags();
// --shutdown_grace: what main gives calls in flight on SIGTERM or SIGINT.
absl::Duration ShutdownGraceFromFlags();

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_RUNTIME_SERVER_FLAGS_H_
