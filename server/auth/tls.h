// Transport security of the gRPC port: plaintext (the default, for local
// use), TLS with the server's certificate, or mutual TLS that also requires
// and verifies a client certificate signed by a given CA. The metrics port
// is plain HTTP in every case.
//
// Thread-safety: a pure function.
#ifndef GRIDSTAR_SERVER_AUTH_TLS_H_
#define GRIDSTAR_SERVER_AUTH_TLS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/security/server_credentials.h"

namespace gridstar::server {

// PEM file paths, as the flags --tls_cert, --tls_key, --tls_client_ca give
// them; all empty = plaintext.
struct TlsFiles {
  std::string cert;
  std::string key;
  std::string client_ca;
};

// The credentials of the listening port. REQUIRES nothing: a key without a
// certificate (or the reverse), a client CA without a certificate, a file
// that cannot be read or holds no PEM block is InvalidArgument or
// FailedPrecondition, naming the flag.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsOf(
    const TlsFiles& files);

// Reads a PEM file (at least one "-----BEGIN" block); `flag` names it in
// errors. Shared with the client's TLS options.
absl::StatusOr<std::string> ReadPemFile(const std::string& path,
                                        const std::string& flag);

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_AUTH_TLS_H_
