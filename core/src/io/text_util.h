// Internal helpers for the text formats: line splitting and strict numbers.

#ifndef GRIDSTAR_SRC_IO_TEXT_UTIL_H_
#define GRIDSTAR_SRC_IO_TEXT_UTIL_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace gridstar::internal {

// Walks text line by line; a trailing '\r' is dropped from each line.
class LineReader {
 public:
  explicit LineReader(absl::string_view text) : rest_(text) {}
  // Sets *line to the next line and returns true, or returns false at the end.
  bool Next(absl::string_view* line) {
    if (rest_.empty()) return false;
    const size_t nl = rest_.find('\n');
    absl::string_view l = rest_.substr(0, nl);
    rest_ = nl == absl::string_view::npos ? absl::string_view()
                                          : rest_.substr(nl + 1);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    *line = l;
    ++line_number_;
    return true;
  }
  int line_number() const { return line_number_; }

 private:
  absl::string_view rest_;
  int line_number_ = 0;
};

// Parses an optionally signed decimal integer made only of digits, at most
// 18 of them, so it can never overflow int64. False otherwise.
inline bool ParseStrictInt(absl::string_view s, int64_t* out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 18) return false;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = negative ? -v : v;
  return true;
}

// Input echoed in an error message, cut short and with control bytes escaped
// so a message stays one readable line.
inline std::string Quote(absl::string_view s) {
  constexpr size_t kMax = 40;
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (s.size() > kMax) out += "...";
  out += "'";
  return out;
}

}  // namespace gridstar::internal

#endif  // GRIDSTAR_SRC_IO_TEXT_UTIL_H_
