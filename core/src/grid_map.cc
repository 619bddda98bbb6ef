#include "gridstar/grid_map.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "jps.h"

namespace gridstar {

absl::Status GridMap::CheckDimensions(int64_t width, int64_t height,
                                      const MapLimits& limits) {
  // A side below 1 is malformed; one beyond the limits is a limit.
  if (width < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("width: ", width, " is out of range [1, ",
                     limits.max_width, "]"));
  }
  if (height < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("height: ", height, " is out of range [1, ",
                     limits.max_height, "]"));
  }
  if (width > limits.max_width) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "width: ", width, " is over the limit of ", limits.max_width));
  }
  if (height > limits.max_height) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "height: ", height, " is over the limit of ", limits.max_height));
  }
  // Both factors are at most int32-sized here, so the product cannot overflow.
  if (width * height > limits.max_cells) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "width x height: ", width, " x ", height, " = ", width * height,
        " cells is over the limit of ", limits.max_cells));
  }
  return absl::OkStatus();
}

absl::StatusOr<GridMap> GridMap::FromCosts(int64_t width, int64_t height,
                                           absl::Span<const uint8_t> costs,
                                           const MapLimits& limits) {
  if (absl::Status s = CheckDimensions(width, height, limits); !s.ok()) {
    return s;
  }
  if (static_cast<int64_t>(costs.size()) != width * height) {
    return absl::InvalidArgumentError(
        absl::StrCat("cells: got ", costs.size(),
                     " bytes, expected width x height = ", width * height));
  }
  GridMap map;
  map.width_ = static_cast<int32_t>(width);
  map.height_ = static_cast<int32_t>(height);
  const size_t pw = static_cast<size_t>(width) + 2;
  map.padded_costs_.assign(pw * (static_cast<size_t>(height) + 2), 0);
  uint8_t lo = 255, hi = 0;
  int64_t passable = 0;
  for (int64_t y = 0; y < height; ++y) {
    const uint8_t* src = costs.data() + y * width;
    uint8_t* dst = map.padded_costs_.data() + (y + 1) * pw + 1;
    std::copy(src, src + width, dst);
    for (int64_t x = 0; x < width; ++x) {
      const uint8_t c = src[x];
      if (c == 0) continue;
      ++passable;
      lo = std::min(lo, c);
      hi = std::max(hi, c);
    }
  }
  map.passable_count_ = passable;
  map.min_cost_ = passable > 0 ? lo : 0;
  map.max_cost_ = hi;
  map.LabelComponents();
  if (map.uniform_cost()) map.BuildBitLines();
  return map;
}

void GridMap::BuildBitLines() {
  const size_t pw = static_cast<size_t>(width_) + 2;
  const size_t ph = static_cast<size_t>(height_) + 2;
  // 64 leading zero bits, the line, and at least 64 trailing zero bits.
  row_bit_words_ = (pw + 63) / 64 + 2;
  column_bit_words_ = (ph + 63) / 64 + 2;
  row_bits_.assign(ph * row_bit_words_, 0);
  column_bits_.assign(pw * column_bit_words_, 0);
  for (size_t y = 1; y + 1 < ph; ++y) {
    const uint8_t* row = padded_costs_.data() + y * pw;
    uint64_t* rbits = row_bits_.data() + y * row_bit_words_;
    for (size_t x = 1; x + 1 < pw; ++x) {
      if (row[x] == 0) continue;
      rbits[(x + 64) / 64] |= uint64_t{1} << ((x + 64) % 64);
      column_bits_[x * column_bit_words_ + (y + 64) / 64] |= uint64_t{1}
                                                              << ((y + 64) % 64);
    }
  }
}

void GridMap::LabelComponents() {
  const size_t n = static_cast<size_t>(width_) * height_;
  components_.assign(n, 0);
  std::vector<uint32_t> stack;
  uint32_t label = 0;
  for (size_t start = 0; start < n; ++start) {
    if (components_[start] != 0) continue;
    const Cell sc{static_cast<int32_t>(start % width_),
                  static_cast<int32_t>(start / width_)};
    if (cost(sc) == 0) continue;
    ++label;
    components_[start] = label;
    stack.push_back(static_cast<uint32_t>(start));
    while (!stack.empty()) {
      const uint32_t i = stack.back();
      stack.pop_back();
      const int32_t x = static_cast<int32_t>(i % width_);
      const int32_t y = static_cast<int32_t>(i / width_);
      const Cell next[4] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
      for (Cell c : next) {
        if (!Passable(c)) continue;
        const size_t j = static_cast<size_t>(c.y) * width_ + c.x;
        if (components_[j] != 0) continue;
        components_[j] = label;
        stack.push_back(static_cast<uint32_t>(j));
      }
    }
  }
  component_count_ = label;
}

std::vector<uint8_t> GridMap::CopyCosts() const {
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(cell_count()));
  const size_t pw = static_cast<size_t>(width_) + 2;
  for (int32_t y = 0; y < height_; ++y) {
    const uint8_t* row = padded_costs_.data() + (y + 1) * pw + 1;
    out.insert(out.end(), row, row + width_);
  }
  return out;
}

size_t GridMap::MemoryBytes() const {
  return sizeof(GridMap) + padded_costs_.capacity() +
         components_.capacity() * sizeof(uint32_t) +
         (row_bits_.capacity() + column_bits_.capacity()) * sizeof(uint64_t) +
         JumpTableBytes() + LandmarkBytes();
}

absl::Status GridMap::BuildJumpTable() {
  if (!uniform_cost()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "jump_table: needs a map whose passable cells all cost the same (this "
        "one's costs are ",
        min_cost_, "..", max_cost_, ")"));
  }
  jump_table_ = internal::ComputeJumpTable(*this);
  return absl::OkStatus();
}

absl::Status GridMap::CheckPassable(absl::string_view field, Cell c) const {
  if (Passable(c)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      field, ": (", c.x, ", ", c.y, ") ",
      InBounds(c) ? std::string("is blocked")
                  : absl::StrCat("is outside the ", width_, " x ", height_,
                                 " map")));
}

}  // namespace gridstar
