#include "auth/tls.h"


#include "absl/strings/str_cat.h"
#include "gridstar/map_io.h"
#include "grpcpp/security/server_credentials.h"

namespace gridstar::server {

absl::StatusOr<std::string> ReadPemFile(const std::string& path,
                                        const std::string& flag) {
  absl::StatusOr<std::string> text = ReadFile(path, size_t{1} << 20);
  if (!text.ok()) {
    // Core's message names the path and says why (missing, too large).
    return absl::FailedPreconditionError(
        absl::StrCat("--", flag, ": cannot read ", text.status().message()));
  }
  if (text->find("-----BEGIN ") == std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": '", path, "' holds no PEM block"));
  }
  return text;
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsOf(
    const TlsFiles& files) {
  if (files.cert.empty() && files.key.empty() && files.client_ca.empty()) {
    return grpc::InsecureServerCredentials();
  }
  if (files.cert.empty() || files.key.empty()) {
    return absl::InvalidArgumentError(
        "--tls_cert and --tls_key: TLS needs both the certificate and its key");
  }
  absl::StatusOr<std::string> cert = ReadPemFile(files.cert, "tls_cert");
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadPemFile(files.key, "tls_key");
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({*key, *cert});
  if (!files.client_ca.empty()) {
    absl::StatusOr<std::string> ca =
        ReadPemFile(files.client_ca, "tls_client_ca");
    if (!ca.ok()) return ca.status();
    options.pem_root_certs = *ca;
    options.client_certificate_request =
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

}  // namespace gridstar::server
