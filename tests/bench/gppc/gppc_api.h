// The entry points of the Grid-based Path Planning Competition's harnesses,
// declared as their headers declare them (gppc-dev/startkit-classic
// Entry.h and GPPC.h; gppc-dev/startkit-dynamic Entry.h), so that gridstar's
// entries (classic_entry.cc, dynamic_entry.cc) build without a startkit and
// link into one: the classic harness calls C++ functions on GPPC::xyLoc,
// the dynamic one C functions on gppc_point, gppc_path and gppc_patch.
//
// Thread-safety: as the harnesses use them, one thread.
#ifndef GRIDSTAR_TESTS_BENCH_GPPC_GPPC_API_H_
#define GRIDSTAR_TESTS_BENCH_GPPC_GPPC_API_H_

#include <cstdint>
#include <string>
#include <vector>

// ---- Classic track.
namespace GPPC {
struct xyLoc {
  int16_t x;
  int16_t y;
};
}  // namespace GPPC

void PreprocessMap(const std::vector<bool>& bits, int width, int height,
                   const std::string& filename);
void* PrepareForSearch(const std::vector<bool>& bits, int width, int height,
                       const std::string& filename);
// True when done (a path, or none: empty).
bool GetPath(void* data, GPPC::xyLoc s, GPPC::xyLoc g,
             std::vector<GPPC::xyLoc>& path);
std::string GetName();

// ---- Dynamic track.
extern "C" {
struct gppc_point {
  uint16_t x;
  uint16_t y;
};
struct gppc_path {
  const struct gppc_point* path;
  uint32_t length;
  uint8_t incomplete;
};
// Bits row-major, least significant first: 1 passable, 0 blocked; placed
// at `pos` of the map.
struct gppc_patch {
  const uint8_t* bitarray;
  uint16_t width;
  uint16_t height;
  struct gppc_point pos;
};
void gppc_preprocess_init_map(struct gppc_patch init_map,
                              const char* preprocess_filename);
void* gppc_search_init(struct gppc_patch active_map,
                       const char* preprocess_filename);
void gppc_map_change(void* data, const struct gppc_patch* changes,
                     uint32_t changes_length);
struct gppc_path gppc_get_path(void* data, struct gppc_point start,
                               struct gppc_point goal);
void gppc_free_data(void* data);
const char* gppc_get_name();
}

#endif  // GRIDSTAR_TESTS_BENCH_GPPC_GPPC_API_H_
