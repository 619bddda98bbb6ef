// Fuzzes the directory store's world files (server/store/world_codec.h):
// the bytes are either a `.gsworld` file as it may be found on disk, or
// (first byte odd) the recipe of a world and a run of edits, written step by
// step as the store writes them and then damaged at one byte. Replaying
// never crashes; what replays is a world whose whole record round-trips; an
// undamaged file replays to the last version written, and a damaged one to
// a version written or not at all.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz_util.h"
#include "store/world_codec.h"

namespace {

using gridstar::server::StoredLink;
using gridstar::server::StoredWorld;
namespace codec = gridstar::server::codec;

using gridstar::fuzz::Bytes;

// What replays must be: a world whose whole record decodes to itself.
void CheckRoundTrip(const StoredWorld& w) {
  absl::StatusOr<StoredWorld> back =
      codec::DecodeWorldRecord(codec::EncodeWorldRecord(w));
  FUZZ_CHECK(back.ok() && *back == w);
}

StoredLink MakeLink(Bytes& in, const StoredWorld& w, int serial) {
  StoredLink link;
  link.id = absl::StrCat("l", in.Next() % 16, ".", serial);
  link.from_map = w.maps[in.Next() % w.maps.size()];
  link.to_map = w.maps[in.Next() % w.maps.size()];
  link.from = {in.Next(), in.Next()};
  link.to = {in.Next(), in.Next()};
  link.cost = in.Next() / 3.0;
  link.both_ways = in.Next() % 2 == 0;
  link.open = in.Next() % 3 != 0;
  return link;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  codec::WorldFileShape shape;
  if (data[0] % 2 == 0) {
    absl::string_view file(reinterpret_cast<const char*>(data) + 1, size - 1);
    absl::StatusOr<StoredWorld> w = codec::ReplayWorldFile(file, &shape);
    if (w.ok()) {
      FUZZ_CHECK(shape.valid_bytes <= file.size() && shape.records >= 1);
      CheckRoundTrip(*w);
    }
    return 0;
  }
  Bytes in(data + 1, size - 1);
  StoredWorld w;
  w.id = "w";
  w.version = 1;
  for (int m = 0, n = 1 + in.Next() % 3; m < n; ++m) {
    w.maps.push_back(absl::StrCat("m", m));
  }
  int serial = 0;
  for (int i = 0, n = in.Next() % 12; i < n; ++i) {
    w.links.push_back(MakeLink(in, w, serial++));
  }
  std::vector<StoredWorld> versions = {w};
  bool whole = true;
  std::string file = codec::EncodeWorldStep(nullptr, w, &whole);
  for (int step = 0, steps = in.Next() % 16; step < steps; ++step) {
    StoredWorld next = versions.back();
    ++next.version;
    const uint8_t op = in.Next();
    const size_t k = next.links.empty() ? 0 : in.Next() % next.links.size();
    if (op % 5 == 0 || next.links.empty()) {
      next.links.insert(next.links.begin() + static_cast<ptrdiff_t>(k),
                        MakeLink(in, next, serial++));
    } else if (op % 5 == 1) {
      next.links.erase(next.links.begin() + static_cast<ptrdiff_t>(k));
    } else if (op % 5 == 2) {
      next.links[k].open = !next.links[k].open;
    } else if (op % 5 == 3) {
      next.links[k].cost = in.Next() / 7.0;
    } else {
      next.maps.push_back(absl::StrCat("m", next.maps.size()));
    }
    file += codec::EncodeWorldStep(&versions.back(), next, &whole);
    versions.push_back(next);
  }
  absl::StatusOr<StoredWorld> last = codec::ReplayWorldFile(file, &shape);
  FUZZ_CHECK(last.ok() && *last == versions.back() &&
             shape.valid_bytes == file.size());
  // One byte damaged: a version written, or an error; never a crash.
  const size_t at =
      (static_cast<size_t>(in.Next()) << 8 | in.Next()) % file.size();
  file[at] = static_cast<char>(file[at] ^ (1 | in.Next()));
  absl::StatusOr<StoredWorld> damaged = codec::ReplayWorldFile(file, &shape);
  if (damaged.ok()) {
    bool written = false;
    for (const StoredWorld& v : versions) written = written || v == *damaged;
    FUZZ_CHECK(written);
    CheckRoundTrip(*damaged);
  }
  return 0;
}
