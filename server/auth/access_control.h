// AccessControl: who may call what. Two token files, one token per line:
// admin tokens may call everything, query tokens only the searching and
// reading RPCs. A call carries its token as `authorization: Bearer <token>`.
//
//   no token file given   every call is admitted (local use, as before keys);
//   a call without token  UNAUTHENTICATED;
//   an unknown token      UNAUTHENTICATED;
//   a query token on an
//   admin RPC             PERMISSION_DENIED.
// No message ever contains the token a call carried. A token is compared
// with every known token in time that depends on neither (each is padded to
// kMaxTokenBytes), so the time of an answer tells nothing about the keys.
//
// Token files: UTF-8 text, one token per line; blank lines and lines that
// start with '#' are skipped; spaces around a token are trimmed. A token is
// 16 to kMaxTokenBytes printable ASCII characters without spaces. A file that
// cannot be read, holds a malformed token or no token at all is an error (a
// server must not start locked by accident).
//
// Thread-safety: Authorize may be called from any thread at any time,
// Reload too (SIGHUP): a call sees the keys before or after a reload, never
// a mix. A failed Reload keeps the keys it had.
#ifndef GRIDSTAR_SERVER_AUTH_ACCESS_CONTROL_H_
#define GRIDSTAR_SERVER_AUTH_ACCESS_CONTROL_H_

#include <array>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"

namespace gridstar::server {

// What an RPC needs. kNone is for calls that need no key (none of
// gridstar.v1.Pathfinding's; health and reflection are other services).
enum class AccessLevel { kNone, kQuery, kAdmin };

class AccessControl {
 public:
  static constexpr size_t kMaxTokenBytes = 256;
  static constexpr size_t kMinTokenBytes = 16;

  // No files: everything is admitted. Otherwise Create reads them; an empty
  // path means "no tokens of that level" (e.g. a read-only server with query
  // tokens only: nobody may write).
  static absl::StatusOr<std::unique_ptr<AccessControl>> Create(
      std::string admin_token_file, std::string query_token_file);

  // Whether any token file was given (false: Authorize admits everything).
  bool enabled() const { return enabled_; }

  // Reads both files again; on error keeps the old keys and says why.
  absl::Status Reload();

  // OK when `authorization` (the call's metadata value, nullopt when it has
  // none) admits a call of `method` that needs `need`.
  absl::Status Authorize(absl::optional<absl::string_view> authorization,
                         AccessLevel need, absl::string_view method) const;

  // Tokens held now, for logs (never the tokens themselves).
  size_t admin_tokens() const;
  size_t query_tokens() const;

  // Reads one token file (exposed for tests).
  static absl::StatusOr<std::vector<std::string>> ReadTokenFile(
      const std::string& path, absl::string_view flag);

 private:
  using Padded = std::array<unsigned char, kMaxTokenBytes>;
  struct Token {
    Padded bytes{};
    size_t size = 0;
    AccessLevel level = AccessLevel::kQuery;
  };
  using Keys = std::vector<Token>;

  AccessControl(std::string admin_file, std::string query_file)
      : admin_file_(std::move(admin_file)),
        query_file_(std::move(query_file)),
        enabled_(!admin_file_.empty() || !query_file_.empty()) {}

  absl::StatusOr<std::shared_ptr<const Keys>> ReadKeys() const;
  std::shared_ptr<const Keys> keys() const;

  const std::string admin_file_;
  const std::string query_file_;
  const bool enabled_;
  // std::mutex, not absl::Mutex: TSan cannot see Debian's uninstrumented Abseil.
  mutable std::mutex mu_;
  std::shared_ptr<const Keys> keys_ ABSL_GUARDED_BY(mu_);
};

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_AUTH_ACCESS_CONTROL_H_
