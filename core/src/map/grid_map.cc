#include "gridstar/grid_map.h"

#include <algorithm>
#include <cassert>
#include <string>

#include "absl/strings/str_cat.h"
#include "map/attachment.h"
#include "map/component_tiles.h"
#include "storage/cow_buffer.h"

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
        absl::StrCat("got ", costs.size(),
                     " bytes, expected width x height = ", width * height));
  }
  GridMap map;
  map.width_ = static_cast<int32_t>(width);
  map.height_ = static_cast<int32_t>(height);
  const size_t pw = static_cast<size_t>(width) + 2;
  const size_t padded = pw * (static_cast<size_t>(height) + 2);
  absl::StatusOr<internal::CowBuffer> buffer =
      internal::CowBuffer::Create(padded, kTileBytes);
  if (!buffer.ok()) return buffer.status();
  map.cost_counts_.assign(256, 0);
  for (int64_t y = 0; y < height; ++y) {
    const uint8_t* src = costs.data() + y * width;
    std::copy(src, src + width, buffer->mutable_data() + (y + 1) * pw + 1);
    for (int64_t x = 0; x < width; ++x) ++map.cost_counts_[src[x]];
  }
  if (absl::Status s = buffer->Seal(); !s.ok()) return s;
  map.padded_size_ = padded;
  map.SetCosts(std::make_shared<const internal::CowBuffer>(*std::move(buffer)));
  map.StatsFromCounts();
  map.components_ = std::make_shared<const internal::ComponentTiles>(
      internal::ComponentTiles::Build(map.padded_costs_, map.width_,
                                      map.height_));
  if (map.uniform_cost()) {
    if (absl::Status s = map.BuildBitLines(); !s.ok()) return s;
  }
  return map;
}

void GridMap::StatsFromCounts() {
  passable_count_ = cell_count() - cost_counts_[0];
  min_cost_ = max_cost_ = 0;
  for (int c = 1; c < 256; ++c) {
    if (cost_counts_[c] == 0) continue;
    if (min_cost_ == 0) min_cost_ = static_cast<uint8_t>(c);
    max_cost_ = static_cast<uint8_t>(c);
  }
}

void GridMap::SetCosts(std::shared_ptr<const internal::CowBuffer> costs) {
  costs_buffer_ = std::move(costs);
  padded_costs_ = costs_buffer_->data();
}

void GridMap::SetBitLines(std::shared_ptr<const internal::CowBuffer> rows,
                          std::shared_ptr<const internal::CowBuffer> columns) {
  row_bits_buffer_ = std::move(rows);
  column_bits_buffer_ = std::move(columns);
  row_bits_ = row_bits_buffer_ == nullptr
                  ? nullptr
                  : reinterpret_cast<const uint64_t*>(row_bits_buffer_->data());
  column_bits_ = column_bits_buffer_ == nullptr
                     ? nullptr
                     : reinterpret_cast<const uint64_t*>(
                           column_bits_buffer_->data());
  if (row_bits_ == nullptr) row_bit_words_ = column_bit_words_ = 0;
}

void GridMap::Attach(Algorithm owner,
                     std::shared_ptr<const internal::MapAttachment> structure) {
  attachments_[SlotOf(owner)] = std::move(structure);
}

absl::Status GridMap::BuildBitLines() {
  const size_t pw = static_cast<size_t>(width_) + 2;
  const size_t ph = static_cast<size_t>(height_) + 2;
  // 64 leading zero bits, the line, and at least 64 trailing zero bits.
  row_bit_words_ = (pw + 63) / 64 + 2;
  column_bit_words_ = (ph + 63) / 64 + 2;
  absl::StatusOr<internal::CowBuffer> rows = internal::CowBuffer::Create(
      ph * row_bit_words_ * sizeof(uint64_t), kTileBytes);
  if (!rows.ok()) return rows.status();
  absl::StatusOr<internal::CowBuffer> columns = internal::CowBuffer::Create(
      pw * column_bit_words_ * sizeof(uint64_t), kTileBytes);
  if (!columns.ok()) return columns.status();
  uint64_t* row_bits = reinterpret_cast<uint64_t*>(rows->mutable_data());
  uint64_t* column_bits = reinterpret_cast<uint64_t*>(columns->mutable_data());
  for (size_t y = 1; y + 1 < ph; ++y) {
    const uint8_t* row = padded_costs_ + y * pw;
    uint64_t* rbits = row_bits + y * row_bit_words_;
    for (size_t x = 1; x + 1 < pw; ++x) {
      if (row[x] == 0) continue;
      rbits[(x + 64) / 64] |= uint64_t{1} << ((x + 64) % 64);
      column_bits[x * column_bit_words_ + (y + 64) / 64] |= uint64_t{1}
                                                             << ((y + 64) % 64);
    }
  }
  if (absl::Status s = rows->Seal(); !s.ok()) return s;
  if (absl::Status s = columns->Seal(); !s.ok()) return s;
  SetBitLines(std::make_shared<const internal::CowBuffer>(*std::move(rows)),
              std::make_shared<const internal::CowBuffer>(*std::move(columns)));
  return absl::OkStatus();
}

absl::Status GridMap::RepairBitLines(const GridMap& previous,
                                     absl::Span<const CellRect> rects) {
  absl::StatusOr<internal::CowBuffer> rows = previous.row_bits_buffer_->Fork();
  if (!rows.ok()) return rows.status();
  absl::StatusOr<internal::CowBuffer> columns =
      previous.column_bits_buffer_->Fork();
  if (!columns.ok()) return columns.status();
  row_bit_words_ = previous.row_bit_words_;
  column_bit_words_ = previous.column_bit_words_;
  const size_t pw = static_cast<size_t>(width_) + 2;
  // Sets bit number `bit` of buffer b (counted over its words) to `on`.
  auto set = [](internal::CowBuffer* b, size_t bit, bool on) -> absl::Status {
    // An unchanged bit copies nothing (the words are little-endian: bit k of
    // the buffer is bit k % 8 of byte k / 8).
    if (((b->Read(bit / 8) >> (bit % 8)) & 1) == static_cast<int>(on)) {
      return absl::OkStatus();
    }
    const size_t offset = (bit / 64) * sizeof(uint64_t);
    if (absl::Status s = b->MakeWritable(offset, sizeof(uint64_t)); !s.ok()) {
      return s;
    }
    uint64_t& w = reinterpret_cast<uint64_t*>(b->mutable_data())[bit / 64];
    const uint64_t mask = uint64_t{1} << (bit % 64);
    w = on ? (w | mask) : (w & ~mask);
    return absl::OkStatus();
  };
  for (const CellRect& r : rects) {
    for (int32_t y = r.min.y; y < r.max.y; ++y) {
      for (int32_t x = r.min.x; x < r.max.x; ++x) {
        const size_t px = static_cast<size_t>(x) + 1;
        const size_t py = static_cast<size_t>(y) + 1;
        const bool on = padded_costs_[py * pw + px] != 0;
        if (absl::Status s = set(&*rows, py * row_bit_words_ * 64 + px + 64, on);
            !s.ok()) {
          return s;
        }
        if (absl::Status s =
                set(&*columns, px * column_bit_words_ * 64 + py + 64, on);
            !s.ok()) {
          return s;
        }
      }
    }
  }
  if (absl::Status s = rows->Seal(); !s.ok()) return s;
  if (absl::Status s = columns->Seal(); !s.ok()) return s;
  SetBitLines(std::make_shared<const internal::CowBuffer>(*std::move(rows)),
              std::make_shared<const internal::CowBuffer>(*std::move(columns)));
  return absl::OkStatus();
}

uint32_t GridMap::component(Cell c) const { return components_->label(c); }

uint32_t GridMap::component_count() const { return components_->count(); }

std::vector<int64_t> GridMap::ComponentSizes() const {
  return components_->Sizes();
}

std::vector<uint8_t> GridMap::CopyCosts() const {
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(cell_count()));
  const size_t pw = static_cast<size_t>(width_) + 2;
  for (int32_t y = 0; y < height_; ++y) {
    const uint8_t* row = padded_costs_ + (y + 1) * pw + 1;
    out.insert(out.end(), row, row + width_);
  }
  return out;
}

size_t GridMap::MemoryBytes() const {
  auto bytes = [](const std::shared_ptr<const internal::CowBuffer>& b) {
    return b == nullptr ? size_t{0} : b->size();
  };
  return sizeof(GridMap) + bytes(costs_buffer_) +
         cost_counts_.capacity() * sizeof(int64_t) +
         (components_ == nullptr ? 0 : components_->MemoryBytes()) +
         bytes(row_bits_buffer_) + bytes(column_bits_buffer_) +
         AttachmentBytes();
}

size_t GridMap::AttachmentBytes() const {
  size_t bytes = 0;
  for (const auto& a : attachments_) {
    if (a != nullptr) bytes += a->HeldBytes();
  }
  return bytes;
}

size_t GridMap::UnsharedTileBytes() const {
  size_t bytes = 0;
  for (const auto* b :
       {&costs_buffer_, &row_bits_buffer_, &column_bits_buffer_}) {
    if (*b != nullptr) bytes += (*b)->private_chunks() * (*b)->chunk_bytes();
  }
  for (const auto& a : attachments_) {
    if (a != nullptr) bytes += a->UnsharedTileBytes();
  }
  return bytes;
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
