#include "component_tiles.h"

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

void ComponentTiles::Relabel() {
  const size_t n = tile_count_;
  first_.resize(n);
  uint32_t nodes = 0;
  for (size_t t = 0; t < n; ++t) {
    first_[t] = nodes;
    nodes += tile(t).count;
  }
  // Union-find over the tile components, joined by their border pairs.
  std::vector<uint32_t> parent(nodes);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  auto join = [&](uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  };
  for (size_t t = 0; t < n; ++t) {
    for (const auto& [a, b] : tile(t).east) {
      join(first_[t] + a - 1, first_[t + 1] + b - 1);
    }
    for (const auto& [a, b] : tile(t).south) {
      join(first_[t] + a - 1, first_[t + tiles_x_] + b - 1);
    }
  }
  // Canonical labels: roots numbered in node order (a root is its set's
  // smallest node, so every node's root comes before or at it).
  global_.assign(nodes, 0);
  count_ = 0;
  for (uint32_t i = 0; i < nodes; ++i) {
    const uint32_t r = find(i);
    global_[i] = r == i ? ++count_ : global_[r];
  }
}

ComponentTiles ComponentTiles::Build(const uint8_t* padded, int32_t width,
                                     int32_t height) {
  ComponentTiles c;
  c.width_ = width;
  c.height_ = height;
  c.tiles_x_ = static_cast<size_t>((width + kTile - 1) / kTile);
  c.tiles_y_ = static_cast<size_t>((height + kTile - 1) / kTile);
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
  c.Relabel();
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
  c.tile_count_ = tile_count_;
  c.pages_ = pages_;  // Relabel makes first_ and global_ anew.
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
  // Bytes follow the tiles replaced (labels shared between a tile's
  // versions are counted once per version, as the map reports them).
  size_t bytes = memory_bytes_ - (first_.capacity() + global_.capacity()) *
                                     sizeof(uint32_t);
  for (size_t t : touched) {
    auto tile = std::make_shared<Tile>();
    tile->labels = c.LabelTile(padded, t, &tile->count);
    bytes -= TileBytes(c.tile(t));
    bytes += TileBytes(*tile);
    c.SetTile(t, std::move(tile));
    bordering.push_back(t);
    if (t % tiles_x_ > 0) bordering.push_back(t - 1);
    if (t >= tiles_x_) bordering.push_back(t - tiles_x_);
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
  c.Relabel();
  c.memory_bytes_ =
      bytes + (c.first_.capacity() + c.global_.capacity()) * sizeof(uint32_t);
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
  for (size_t t = 0; t < tile_count_; ++t) {
    for (uint16_t local : *tile(t).labels) {
      if (local != 0) ++sizes[global_[first_[t] + local - 1]];
    }
  }
  return sizes;
}

size_t ComponentTiles::TileBytes(const Tile& t) {
  return sizeof(Tile) + t.labels->capacity() * sizeof(uint16_t) +
         (t.east.capacity() + t.south.capacity()) *
             sizeof(std::pair<uint16_t, uint16_t>);
}

size_t ComponentTiles::CountBytes() const {
  size_t bytes = sizeof(*this) + (first_.capacity() + global_.capacity()) *
                                     sizeof(uint32_t);
  for (size_t t = 0; t < tile_count_; ++t) bytes += TileBytes(tile(t));
  return bytes;
}

}  // namespace gridstar::internal
