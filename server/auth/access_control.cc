#include "auth/access_control.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gridstar/map_io.h"

namespace gridstar::server {
namespace {

constexpr absl::string_view kScheme = "Bearer ";

bool IsTokenChar(char c) { return c > ' ' && c <= '~'; }

}  // namespace

absl::StatusOr<std::unique_ptr<AccessControl>> AccessControl::Create(
    std::string admin_token_file, std::string query_token_file) {
  std::unique_ptr<AccessControl> access(new AccessControl(
      std::move(admin_token_file), std::move(query_token_file)));
  if (absl::Status s = access->Reload(); !s.ok()) return s;
  return access;
}

absl::StatusOr<std::vector<std::string>> AccessControl::ReadTokenFile(
    const std::string& path, absl::string_view flag) {
  absl::StatusOr<std::string> text = ReadFile(path, size_t{1} << 20);
  if (!text.ok()) {
    // Core's message names the path and says why (missing, too large).
    return absl::FailedPreconditionError(
        absl::StrCat("--", flag, ": cannot read ", text.status().message()));
  }
  std::vector<std::string> tokens;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    bool printable = true;
    for (char c : line) printable = printable && IsTokenChar(c);
    // The message names the line, never the token.
    if (!printable || line.size() < kMinTokenBytes ||
        line.size() > kMaxTokenBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, ": line ", line_number, " of '", path,
          "' is not a token (", kMinTokenBytes, " to ", kMaxTokenBytes,
          " printable ASCII characters without spaces)"));
    }
    tokens.emplace_back(line);
  }
  if (tokens.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": '", path, "' holds no token"));
  }
  return tokens;
}

absl::StatusOr<std::shared_ptr<const AccessControl::Keys>>
AccessControl::ReadKeys() const {
  auto keys = std::make_shared<Keys>();
  const std::pair<const std::string*, AccessLevel> files[] = {
      {&admin_file_, AccessLevel::kAdmin}, {&query_file_, AccessLevel::kQuery}};
  for (const auto& [path, level] : files) {
    if (path->empty()) continue;
    absl::StatusOr<std::vector<std::string>> tokens =
        ReadTokenFile(*path, level == AccessLevel::kAdmin ? "admin_token_file"
                                                          : "query_token_file");
    if (!tokens.ok()) return tokens.status();
    for (const std::string& t : *tokens) {
      Token token;
      token.size = t.size();
      token.level = level;
      std::copy(t.begin(), t.end(), token.bytes.begin());
      keys->push_back(token);
    }
  }
  return std::shared_ptr<const Keys>(std::move(keys));
}

absl::Status AccessControl::Reload() {
  if (!enabled_) return absl::OkStatus();
  absl::StatusOr<std::shared_ptr<const Keys>> keys = ReadKeys();
  if (!keys.ok()) return keys.status();
  std::lock_guard<std::mutex> lock(mu_);
  keys_ = *std::move(keys);
  return absl::OkStatus();
}

std::shared_ptr<const AccessControl::Keys> AccessControl::keys() const {
  std::lock_guard<std::mutex> lock(mu_);
  return keys_;
}

size_t AccessControl::admin_tokens() const {
  size_t n = 0;
  if (auto k = keys()) {
    for (const Token& t : *k) n += t.level == AccessLevel::kAdmin;
  }
  return n;
}

size_t AccessControl::query_tokens() const {
  size_t n = 0;
  if (auto k = keys()) {
    for (const Token& t : *k) n += t.level == AccessLevel::kQuery;
  }
  return n;
}

absl::Status AccessControl::Authorize(
    absl::optional<absl::string_view> authorization, AccessLevel need,
    absl::string_view method) const {
  if (!enabled_ || need == AccessLevel::kNone) return absl::OkStatus();
  if (!authorization.has_value()) {
    return absl::UnauthenticatedError(absl::StrCat(
        method,
        " needs a key: send the metadata 'authorization: Bearer <token>'"));
  }
  absl::string_view value = *authorization;
  if (value.size() < kScheme.size() ||
      !absl::EqualsIgnoreCase(value.substr(0, kScheme.size()), kScheme)) {
    return absl::UnauthenticatedError(absl::StrCat(
        method, ": the authorization metadata is not 'Bearer <token>'"));
  }
  const absl::string_view given =
      absl::StripAsciiWhitespace(value.substr(kScheme.size()));
  // The level of the token that matched, found without stopping early.
  int matched = 0;  // 0 none, 1 query, 2 admin.
  if (given.size() <= kMaxTokenBytes) {
    Padded padded{};
    std::copy(given.begin(), given.end(), padded.begin());
    const std::shared_ptr<const Keys> keys = this->keys();
    for (const Token& t : *keys) {
      unsigned diff = static_cast<unsigned>(t.size != given.size());
      for (size_t i = 0; i < kMaxTokenBytes; ++i)
        diff |= padded[i] ^ t.bytes[i];
      const int level = t.level == AccessLevel::kAdmin ? 2 : 1;
      // Branch-free: equal is 1 when diff is 0.
      const int equal = static_cast<int>(((diff | (0u - diff)) >> 31) ^ 1u);
      matched |= equal * level;
    }
  }
  if (matched == 0) {
    return absl::UnauthenticatedError(
        absl::StrCat(method, ": the bearer token is not a known key"));
  }
  if (need == AccessLevel::kAdmin && (matched & 2) == 0) {
    return absl::PermissionDeniedError(absl::StrCat(
        method,
        " changes maps and needs an admin token; the call carried a "
        "query token"));
  }
  return absl::OkStatus();
}

}  // namespace gridstar::server
