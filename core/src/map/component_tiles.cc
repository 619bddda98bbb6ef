#include "map/component_tiles.h"

#include <algorithm>
#include <numeric>

namespace gridstar::internal {

std::shared_ptr<const std::vector<uint16_t>> ComponentTiles::LabelTile(
    const uint8_t* padded, size_t t, uint16_t* count) const {
  auto labels = std::make_shared<std::vector<uint16_t>>(kTile * kTile, 0);
  const int32_t x0 = static_cast<int32_t>(t % tiles_x_) * kTile;
  const int32_t y0 = static_cast<int32_t>(t / tiles_x_) * kTile;
  const int32_t w = std::min(kTile, width_ - x0);
  const int32_t h = std::min(kTile, height_ - y0);
  const size_t pw = static_cast<size_t>(width_) + 2;
  auto free = [&](int32_t lx, int32_t ly) {
    return padded[static_cast<size_t>(y0 + ly + 1) * pw +
                  static_cast<size_t>(x0 + lx + 1)] != 0;
  };
  std::vector<uint16_t> stack;
  uint16_t label = 0;
  for (int32_t ly = 0; ly < h; ++ly) {
    for (int32_t lx = 0; lx < w; ++lx) {
      const uint16_t start = static_cast<uint16_t>(ly * kTile + lx);
      if ((*labels)[start] != 0 || !free(lx, ly)) continue;
      (*labels)[start] = ++label;
      stack.push_back(start);
      while (!stack.empty()) {
        const uint16_t i = stack.back();
        stack.pop_back();
        const int32_t x = i % kTile, y = i / kTile;
        const int32_t nx[4] = {x - 1, x + 1, x, x};
        const int32_t ny[4] = {y, y, y - 1, y + 1};
        for (int k = 0; k < 4; ++k) {
          if (nx[k] < 0 || ny[k] < 0 || nx[k] >= w || ny[k] >= h) continue;
          const uint16_t j = static_cast<uint16_t>(ny[k] * kTile + nx[k]);
          if ((*labels)[j] != 0 || !free(nx[k], ny[k])) continue;
          (*labels)[j] = label;
          stack.push_back(j);
        }
      }
    }
  }
  *count = label;
  return labels;
}

void ComponentTiles::BorderPairs(size_t t, Tile* out) const {
  const size_t tx = t % tiles_x_, ty = t / tiles_x_;
  const std::vector<uint16_t>& mine = *out->labels;
  auto collect = [](std::vector<std::pair<uint16_t, uint16_t>>* pairs) {
    std::sort(pairs->begin(), pairs->end());
    pairs->erase(std::unique(pairs->begin(), pairs->end()), pairs->end());
    pairs->shrink_to_fit();
  };
  out->east.clear();
  out->south.clear();
  if (tx + 1 < tiles_x_) {
    const std::vector<uint16_t>& east = *tile(t + 1).labels;
    for (int32_t y = 0; y < kTile; ++y) {
      const uint16_t a = mine[static_cast<size_t>(y) * kTile + kTile - 1];
      const uint16_t b = east[static_cast<size_t>(y) * kTile];
      if (a != 0 && b != 0) out->east.emplace_back(a, b);
    }
    collect(&out->east);
  }
  if (ty + 1 < tiles_y_) {
    const std::vector<uint16_t>& south = *tile(t + tiles_x_).labels;
    for (int32_t x = 0; x < kTile; ++x) {
      const uint16_t a = mine[static_cast<size_t>(kTile - 1) * kTile + x];
      const uint16_t b = south[static_cast<size_t>(x)];
      if (a != 0 && b != 0) out->south.emplace_back(a, b);
    }
    collect(&out->south);
  }
}

namespace {

// Union-find over nodes 0..n-1 whose roots are their sets' smallest nodes,
// so that numbering roots in node order is canonical.
class Joiner {
 public:
  explicit Joiner(size_t n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  uint32_t Find(uint32_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void Join(uint32_t a, uint32_t b) {
    a = Find(a);
    b = Find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }
  // Per node its set's number, sets numbered 0.. in order of their
  // smallest nodes; returns the number of sets.
  uint32_t Number(std::vector<uint32_t>* out) {
    out->assign(parent_.size(), 0);
    uint32_t count = 0;
    for (uint32_t i = 0; i < parent_.size(); ++i) {
      const uint32_t r = Find(i);
      (*out)[i] = r == i ? count++ : (*out)[r];
    }
    return count;
  }

 private:
  std::vector<uint32_t> parent_;
};

constexpr size_t kOffMap = ~size_t{0};

}  // namespace

size_t ComponentTiles::TileOfSlot(size_t r, size_t slot) const {
  const size_t side = size_t{1} << region_shift_;
  const size_t tx = (r % regions_x_) * side + slot % side;
  const size_t ty = (r / regions_x_) * side + slot / side;
  if (tx >= tiles_x_ || ty >= tiles_y_) return kOffMap;
  return ty * tiles_x_ + tx;
}

std::shared_ptr<ComponentTiles::Region> ComponentTiles::JoinRegion(
    size_t r) const {
  auto region = std::make_shared<Region>();
  const size_t side = size_t{1} << region_shift_;
  const size_t slots = side * side;
  region->first.assign(slots, 0);
  uint32_t nodes = 0;
  for (size_t slot = 0; slot < slots; ++slot) {
    region->first[slot] = nodes;
    const size_t t = TileOfSlot(r, slot);
    if (t != kOffMap) nodes += tile(t).count;
  }
  Joiner joiner(nodes);
  for (size_t slot = 0; slot < slots; ++slot) {
    const size_t t = TileOfSlot(r, slot);
    if (t == kOffMap) continue;
    const Tile& here = tile(t);
    // A tile's pairs name an east / south tile only when it is on the map.
    if (slot % side + 1 < side) {
      for (const auto& [a, b] : here.east) {
        joiner.Join(region->first[slot] + a - 1,
                    region->first[slot + 1] + b - 1);
      }
    }
    if (slot / side + 1 < side) {
      for (const auto& [a, b] : here.south) {
        joiner.Join(region->first[slot] + a - 1,
                    region->first[slot + side] + b - 1);
      }
    }
  }
  region->count = joiner.Number(&region->comp);
  return region;
}

void ComponentTiles::RegionEdges(size_t r, Region* region) const {
  const size_t side = size_t{1} << region_shift_;
  region->edges.clear();
  const size_t rx = r % regions_x_, ry = r / regions_x_;
  if (rx + 1 < regions_x_) {
    const Region& east = *regions_[r + 1];
    for (size_t row = 0; row < side; ++row) {
      const size_t slot = row * side + side - 1;
      const size_t t = TileOfSlot(r, slot);
      if (t == kOffMap) continue;
      for (const auto& [a, b] : tile(t).east) {
        region->edges.push_back(
            {region->comp[region->first[slot] + a - 1],
             static_cast<uint32_t>(r + 1),
             east.comp[east.first[row * side] + b - 1]});
      }
    }
  }
  if (ry + 1 < regions_y_) {
    const Region& south = *regions_[r + regions_x_];
    for (size_t column = 0; column < side; ++column) {
      const size_t slot = (side - 1) * side + column;
      const size_t t = TileOfSlot(r, slot);
      if (t == kOffMap) continue;
      for (const auto& [a, b] : tile(t).south) {
        region->edges.push_back(
            {region->comp[region->first[slot] + a - 1],
             static_cast<uint32_t>(r + regions_x_),
             south.comp[south.first[column] + b - 1]});
      }
    }
  }
  std::sort(region->edges.begin(), region->edges.end());
  region->edges.erase(std::unique(region->edges.begin(), region->edges.end()),
                      region->edges.end());
  region->edges.shrink_to_fit();
}

void ComponentTiles::JoinRegions() {
  const size_t n = regions_.size();
  region_base_.resize(n);
  uint32_t nodes = 0;
  for (size_t r = 0; r < n; ++r) {
    region_base_[r] = nodes;
    nodes += regions_[r]->count;
  }
  Joiner joiner(nodes);
  for (size_t r = 0; r < n; ++r) {
    for (const auto& [a, neighbour, b] : regions_[r]->edges) {
      joiner.Join(region_base_[r] + a, region_base_[neighbour] + b);
    }
  }
  count_ = joiner.Number(&top_);
  for (uint32_t& label : top_) ++label;  // Labels start at 1.
}

ComponentTiles ComponentTiles::Build(const uint8_t* padded, int32_t width,
                                     int32_t height, int region_shift) {
  ComponentTiles c;
  c.width_ = width;
  c.height_ = height;
  c.tiles_x_ = static_cast<size_t>((width + kTile - 1) / kTile);
  c.tiles_y_ = static_cast<size_t>((height + kTile - 1) / kTile);
  c.region_shift_ = region_shift;
  const size_t side = size_t{1} << region_shift;
  c.regions_x_ = (c.tiles_x_ + side - 1) / side;
  c.regions_y_ = (c.tiles_y_ + side - 1) / side;
  const size_t n = c.tiles_x_ * c.tiles_y_;
  std::vector<std::shared_ptr<Tile>> tiles(n);
  c.tile_count_ = n;
  c.pages_.resize((n + kPageTiles - 1) >> kPageShift);
  for (auto& page : c.pages_) page = std::make_shared<Page>(kPageTiles);
  for (size_t t = 0; t < n; ++t) {
    tiles[t] = std::make_shared<Tile>();
    tiles[t]->labels = c.LabelTile(padded, t, &tiles[t]->count);
    c.SetTile(t, tiles[t]);
  }
  for (size_t t = 0; t < n; ++t) c.BorderPairs(t, tiles[t].get());
  const size_t regions = c.regions_x_ * c.regions_y_;
  std::vector<std::shared_ptr<Region>> joined(regions);
  c.regions_.resize(regions);
  for (size_t r = 0; r < regions; ++r) {
    joined[r] = c.JoinRegion(r);
    c.regions_[r] = joined[r];
  }
  for (size_t r = 0; r < regions; ++r) c.RegionEdges(r, joined[r].get());
  c.JoinRegions();
  c.memory_bytes_ = c.CountBytes();
  return c;
}

ComponentTiles ComponentTiles::Repaired(
    const uint8_t* padded, const std::vector<CellRect>& rects) const {
  ComponentTiles c;
  c.width_ = width_;
  c.height_ = height_;
  c.tiles_x_ = tiles_x_;
  c.tiles_y_ = tiles_y_;
  c.region_shift_ = region_shift_;
  c.regions_x_ = regions_x_;
  c.regions_y_ = regions_y_;
  c.tile_count_ = tile_count_;
  c.pages_ = pages_;
  c.regions_ = regions_;  // JoinRegions makes region_base_ and top_ anew.
  std::vector<size_t> touched;
  for (const CellRect& r : rects) {
    if (r.min.x >= r.max.x || r.min.y >= r.max.y) continue;
    for (int32_t ty = r.min.y / kTile; ty <= (r.max.y - 1) / kTile; ++ty) {
      for (int32_t tx = r.min.x / kTile; tx <= (r.max.x - 1) / kTile; ++tx) {
        touched.push_back(static_cast<size_t>(ty) * tiles_x_ +
                          static_cast<size_t>(tx));
      }
    }
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  // New labels for the touched tiles; then border pairs for them and for
  // the tiles west and north of them, whose east / south pairs name them.
  std::vector<size_t> bordering;
  // Bytes follow the tiles and regions replaced (labels shared between a
  // tile's versions are counted once per version, as the map reports them).
  size_t bytes = memory_bytes_ - (region_base_.capacity() + top_.capacity()) *
                                     sizeof(uint32_t);
  std::vector<size_t> rejoined;  // Regions of touched tiles.
  const int shift = region_shift_;
  auto region_of = [&](size_t t) {
    return ((t / tiles_x_) >> shift) * regions_x_ + ((t % tiles_x_) >> shift);
  };
  for (size_t t : touched) {
    auto tile = std::make_shared<Tile>();
    tile->labels = c.LabelTile(padded, t, &tile->count);
    bytes -= TileBytes(c.tile(t));
    bytes += TileBytes(*tile);
    c.SetTile(t, std::move(tile));
    bordering.push_back(t);
    if (t % tiles_x_ > 0) bordering.push_back(t - 1);
    if (t >= tiles_x_) bordering.push_back(t - tiles_x_);
    rejoined.push_back(region_of(t));
  }
  std::sort(bordering.begin(), bordering.end());
  bordering.erase(std::unique(bordering.begin(), bordering.end()),
                  bordering.end());
  for (size_t t : bordering) {
    auto tile = std::make_shared<Tile>(c.tile(t));
    c.BorderPairs(t, tile.get());
    bytes -= TileBytes(c.tile(t));
    bytes += TileBytes(*tile);
    c.SetTile(t, std::move(tile));
  }
  std::sort(rejoined.begin(), rejoined.end());
  rejoined.erase(std::unique(rejoined.begin(), rejoined.end()),
                 rejoined.end());
  // Rejoined regions first (their neighbours' edges read their numbering),
  // then the crossing edges of them and of the regions west and north.
  std::vector<std::pair<size_t, std::shared_ptr<Region>>> changed;
  for (size_t r : rejoined) {
    std::shared_ptr<Region> region = c.JoinRegion(r);
    c.regions_[r] = region;
    changed.emplace_back(r, std::move(region));
  }
  std::vector<size_t> edged = rejoined;
  for (size_t r : rejoined) {
    if (r % regions_x_ > 0) edged.push_back(r - 1);
    if (r >= regions_x_) edged.push_back(r - regions_x_);
  }
  std::sort(edged.begin(), edged.end());
  edged.erase(std::unique(edged.begin(), edged.end()), edged.end());
  for (size_t r : edged) {
    if (!std::binary_search(rejoined.begin(), rejoined.end(), r)) {
      auto region = std::make_shared<Region>(*c.regions_[r]);
      c.regions_[r] = region;
      changed.emplace_back(r, std::move(region));
    }
  }
  for (auto& [r, region] : changed) {
    c.RegionEdges(r, region.get());
    bytes -= RegionBytes(*regions_[r]);
    bytes += RegionBytes(*region);
  }
  c.JoinRegions();
  c.memory_bytes_ = bytes + (c.region_base_.capacity() + c.top_.capacity()) *
                                sizeof(uint32_t);
  return c;
}

void ComponentTiles::SetTile(size_t t, std::shared_ptr<const Tile> tile) {
  std::shared_ptr<Page>& page = pages_[t >> kPageShift];
  // Another labelling holds the page: copy it first (copy-on-write).
  if (page.use_count() > 1) page = std::make_shared<Page>(*page);
  (*page)[t & (kPageTiles - 1)] = std::move(tile);
}

std::vector<int64_t> ComponentTiles::Sizes() const {
  std::vector<int64_t> sizes(count_ + 1, 0);
  const size_t side = size_t{1} << region_shift_;
  for (size_t r = 0; r < regions_.size(); ++r) {
    const Region& region = *regions_[r];
    for (size_t slot = 0; slot < side * side; ++slot) {
      const size_t t = TileOfSlot(r, slot);
      if (t == kOffMap) continue;
      for (uint16_t local : *tile(t).labels) {
        if (local == 0) continue;
        ++sizes[top_[region_base_[r] +
                     region.comp[region.first[slot] + local - 1]]];
      }
    }
  }
  return sizes;
}

size_t ComponentTiles::TileBytes(const Tile& t) {
  return sizeof(Tile) + t.labels->capacity() * sizeof(uint16_t) +
         (t.east.capacity() + t.south.capacity()) *
             sizeof(std::pair<uint16_t, uint16_t>);
}

size_t ComponentTiles::RegionBytes(const Region& r) {
  return sizeof(Region) +
         (r.first.capacity() + r.comp.capacity()) * sizeof(uint32_t) +
         r.edges.capacity() * sizeof(r.edges[0]);
}

size_t ComponentTiles::CountBytes() const {
  size_t bytes = sizeof(*this) + (region_base_.capacity() + top_.capacity()) *
                                     sizeof(uint32_t);
  for (size_t t = 0; t < tile_count_; ++t) bytes += TileBytes(tile(t));
  for (const auto& r : regions_) bytes += RegionBytes(*r);
  return bytes;
}

}  // namespace gridstar::internal
