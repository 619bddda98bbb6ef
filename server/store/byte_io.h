// Little-endian integers in and out of byte strings, for the store's
// codecs (map_codec.h, world_codec.h).
//
// Thread-safety: pure functions.
#ifndef GRIDSTAR_SERVER_STORE_BYTE_IO_H_
#define GRIDSTAR_SERVER_STORE_BYTE_IO_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace gridstar::server::codec {

inline void PutU64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
inline void PutU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}
// A u32 length, then the bytes.
inline void PutString(std::string* out, absl::string_view s) {
  PutU32(out, static_cast<uint32_t>(s.size()));
  out->append(s.data(), s.size());
}

// Each reads from the front of *in and advances it; false (nothing read)
// when too few bytes are left.
inline bool GetU64(absl::string_view* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = 0;
  for (int i = 0; i < 8; ++i) {
    *v |= static_cast<uint64_t>(static_cast<unsigned char>((*in)[i]))
          << (8 * i);
  }
  in->remove_prefix(8);
  return true;
}
inline bool GetU32(absl::string_view* in, uint32_t* v) {
  if (in->size() < 4) return false;
  *v = 0;
  for (int i = 0; i < 4; ++i) {
    *v |= static_cast<uint32_t>(static_cast<unsigned char>((*in)[i]))
          << (8 * i);
  }
  in->remove_prefix(4);
  return true;
}
// At most max_length bytes.
inline bool GetString(absl::string_view* in, size_t max_length,
                      std::string* s) {
  uint32_t n = 0;
  absl::string_view rest = *in;
  if (!GetU32(&rest, &n) || n > max_length || rest.size() < n) return false;
  s->assign(rest.data(), n);
  rest.remove_prefix(n);
  *in = rest;
  return true;
}

}  // namespace gridstar::server::codec

#endif  // GRIDSTAR_SERVER_STORE_BYTE_IO_H_
