#include "gridstar/agents.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace gridstar {
namespace {

// A cell's worth in the square maxima: its effective cost 1..255, kBlocked
// for a cell the agent may not occupy (above every cost, so a square's
// maximum is kBlocked exactly when some cell of it is), kOverflow for a
// cost times its multiplier over 255.
constexpr uint16_t kBlocked = 256;
constexpr uint16_t kOverflow = 257;

std::string Field(absl::string_view prefix, absl::string_view name) {
  return prefix.empty() ? std::string(name) : absl::StrCat(prefix, ".", name);
}

// worth[area * 256 + cost].
std::vector<uint16_t> WorthTable(const AgentClass& agent) {
  std::vector<uint16_t> worth(size_t{kMaxAreas} * 256);
  for (int a = 0; a < kMaxAreas; ++a) {
    const bool allowed = (agent.areas >> a) & 1;
    for (int c = 0; c < 256; ++c) {
      uint16_t w = kBlocked;
      if (allowed && c != 0) {
        const double v = std::floor(c * agent.area_costs[a] + 0.5);
        w = v > 255 ? kOverflow : static_cast<uint16_t>(v);
      }
      worth[static_cast<size_t>(a) * 256 + c] = w;
    }
  }
  return worth;
}

// Computes the agent map's costs of the cells [x0, x1) x [y0, y1) into
// out (row-major, (x1 - x0) wide).
absl::Status AgentCostsOfWindow(const GridMap& map,
                                absl::Span<const uint8_t> areas,
                                const AgentClass& agent,
                                const std::vector<uint16_t>& worth, int32_t x0,
                                int32_t y0, int32_t x1, int32_t y1,
                                uint8_t* out) {
  const int32_t k = agent.size;
  const int32_t width = map.width();
  const int32_t height = map.height();
  const int32_t out_width = x1 - x0;
  // The cells read: the window grown by k - 1 right and down, in the map.
  const int32_t read_x1 = std::min(width, x1 + k - 1);
  const int32_t read_y1 = std::min(height, y1 + k - 1);
  const int32_t read_width = read_x1 - x0;
  std::vector<uint16_t> cell_worth(static_cast<size_t>(read_width));
  // Row maxima of the last k rows read, a ring indexed by row % k.
  std::vector<uint16_t> ring(static_cast<size_t>(k) * out_width);
  const uint8_t* costs = map.padded_costs();
  for (int32_t y = y0; y < read_y1; ++y) {
    const uint8_t* cost_row = costs + map.PaddedIndex({x0, y});
    const uint8_t* area_row =
        areas.empty() ? nullptr
                      : areas.data() + static_cast<size_t>(y) * width + x0;
    for (int32_t i = 0; i < read_width; ++i) {
      const int a = area_row == nullptr ? 0 : area_row[i];
      const uint16_t w = worth[static_cast<size_t>(a) * 256 + cost_row[i]];
      if (w == kOverflow) {
        return absl::InvalidArgumentError(absl::StrCat(
            "area_costs[", a, "]: cost ", cost_row[i], " at (", x0 + i, ", ",
            y, ") times ", agent.area_costs[a], " exceeds 255"));
      }
      cell_worth[i] = w;
    }
    uint16_t* row_max =
        ring.data() + static_cast<size_t>((y - y0) % k) * out_width;
    for (int32_t i = 0; i < out_width; ++i) {
      uint16_t m = kBlocked;  // A square past the right edge.
      if (x0 + i + k <= width) {
        m = 0;
        for (int32_t d = 0; d < k; ++d) m = std::max(m, cell_worth[i + d]);
      }
      row_max[i] = m;
    }
    // Rows y - k + 1 .. y are in the ring: the square maxima of row y-k+1.
    const int32_t top = y - k + 1;
    if (top < y0 || top >= y1) continue;
    uint8_t* out_row = out + static_cast<size_t>(top - y0) * out_width;
    for (int32_t i = 0; i < out_width; ++i) {
      uint16_t m = 0;
      for (int32_t d = 0; d < k; ++d) {
        m = std::max(m, ring[static_cast<size_t>(d) * out_width + i]);
      }
      out_row[i] = m >= kBlocked ? 0 : static_cast<uint8_t>(m);
    }
  }
  // Rows whose square runs past the bottom edge.
  for (int32_t y = std::max(y0, height - k + 1); y < y1; ++y) {
    std::fill_n(out + static_cast<size_t>(y - y0) * out_width, out_width, 0);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateAgentClass(const AgentClass& agent,
                                absl::string_view field) {
  if (agent.size < 1 || agent.size > kMaxAgentSize) {
    return absl::InvalidArgumentError(
        absl::StrCat(Field(field, "agent_size"), ": ", agent.size,
                     " is outside [1, ", kMaxAgentSize, "]"));
  }
  for (int a = 0; a < kMaxAreas; ++a) {
    const double c = agent.area_costs[a];
    if (!(c >= 1) || !std::isfinite(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat(Field(field, absl::StrCat("area_costs[", a, "]")), ": ",
                       c, " is not a finite multiplier >= 1"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateAreas(int32_t width, int32_t height,
                           absl::Span<const uint8_t> areas,
                           absl::string_view field) {
  if (areas.empty()) return absl::OkStatus();
  const size_t cells = static_cast<size_t>(width) * static_cast<size_t>(height);
  if (areas.size() != cells) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": ", areas.size(), " bytes, expected width * height = ",
                     cells));
  }
  for (size_t i = 0; i < cells; ++i) {
    if (areas[i] >= kMaxAreas) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ": area ", areas[i], " of cell (", i % width, ", ", i / width,
          ") is not below ", kMaxAreas));
    }
  }
  return absl::OkStatus();
}

uint64_t AreasPresent(const GridMap& map, absl::Span<const uint8_t> areas) {
  if (areas.empty()) return map.passable_count() > 0 ? 1 : 0;
  uint64_t present = 0;
  const int32_t width = map.width();
  for (int32_t y = 0; y < map.height(); ++y) {
    const uint8_t* costs = map.padded_costs() + map.PaddedIndex({0, y});
    const uint8_t* row = areas.data() + static_cast<size_t>(y) * width;
    for (int32_t x = 0; x < width; ++x) {
      if (costs[x] != 0) present |= uint64_t{1} << row[x];
    }
  }
  return present;
}

bool AgentSeesMapAsIs(const AgentClass& agent, uint64_t present) {
  if (agent.size != 1 || (present & ~agent.areas) != 0) return false;
  for (int a = 0; a < kMaxAreas; ++a) {
    if (((present >> a) & 1) && agent.area_costs[a] != 1) return false;
  }
  return true;
}

AgentClass CanonicalAgentClass(const AgentClass& agent, uint64_t present) {
  AgentClass c = agent;
  c.areas &= present;
  for (int a = 0; a < kMaxAreas; ++a) {
    if (((c.areas >> a) & 1) == 0) c.area_costs[a] = 1;
  }
  return c;
}

DiagonalPolicy AgentPolicy(DiagonalPolicy policy, int32_t size) {
  if (size > 1 && policy == DiagonalPolicy::kAllowCornerCutting) {
    return DiagonalPolicy::kNoCornerCutting;
  }
  return policy;
}

absl::Status ValidateAreaChanges(
    int32_t width, int32_t height, absl::Span<const AreaChange> changes,
    absl::FunctionRef<std::string(size_t)> field_of) {
  for (size_t i = 0; i < changes.size(); ++i) {
    const AreaChange& c = changes[i];
    if (absl::Status s = CheckRectInside(width, height, c.min, c.max, field_of(i));
        !s.ok()) {
      return s;
    }
    if (c.area >= kMaxAreas) {
      return absl::InvalidArgumentError(absl::StrCat(
          field_of(i), ": area ", c.area, " is not below ", kMaxAreas));
    }
  }
  return absl::OkStatus();
}

void ApplyAreaChanges(int32_t width, absl::Span<const AreaChange> changes,
                      absl::Span<uint8_t> areas) {
  for (const AreaChange& c : changes) {
    for (int32_t y = c.min.y; y < c.max.y; ++y) {
      uint8_t* row = areas.data() + static_cast<size_t>(y) * width;
      std::fill(row + c.min.x, row + c.max.x, c.area);
    }
  }
}

absl::StatusOr<std::vector<uint8_t>> AgentCosts(
    const GridMap& map, absl::Span<const uint8_t> areas,
    const AgentClass& agent) {
  std::vector<uint8_t> costs(static_cast<size_t>(map.cell_count()));
  const std::vector<uint16_t> worth = WorthTable(agent);
  if (absl::Status s = AgentCostsOfWindow(map, areas, agent, worth, 0, 0,
                                          map.width(), map.height(),
                                          costs.data());
      !s.ok()) {
    return s;
  }
  return costs;
}

absl::StatusOr<GridMap> BuildAgentMap(const GridMap& map,
                                      absl::Span<const uint8_t> areas,
                                      const AgentClass& agent) {
  absl::StatusOr<std::vector<uint8_t>> costs = AgentCosts(map, areas, agent);
  if (!costs.ok()) return costs.status();
  return GridMap::FromCosts(map.width(), map.height(), *costs);
}

absl::StatusOr<GridMap> RepairAgentMap(const GridMap& previous,
                                       const GridMap& map,
                                       absl::Span<const uint8_t> areas,
                                       const AgentClass& agent,
                                       absl::Span<const CellRect> rects,
                                       ChangeSummary* summary) {
  if (previous.width() != map.width() || previous.height() != map.height()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "agent map of a ", previous.width(), " x ", previous.height(),
        " map cannot be repaired into a ", map.width(), " x ", map.height(),
        " one"));
  }
  const std::vector<uint16_t> worth = WorthTable(agent);
  std::vector<CellChange> changes;
  std::vector<uint8_t> window;
  for (const CellRect& r : rects) {
    const int32_t x0 = std::max(0, r.min.x - agent.size + 1);
    const int32_t y0 = std::max(0, r.min.y - agent.size + 1);
    const int32_t x1 = std::min(map.width(), r.max.x);
    const int32_t y1 = std::min(map.height(), r.max.y);
    if (x0 >= x1 || y0 >= y1) continue;
    const int32_t w = x1 - x0;
    window.assign(static_cast<size_t>(w) * (y1 - y0), 0);
    if (absl::Status s = AgentCostsOfWindow(map, areas, agent, worth, x0, y0,
                                            x1, y1, window.data());
        !s.ok()) {
      return s;
    }
    // Runs of changed cells of one new cost, row by row.
    for (int32_t y = y0; y < y1; ++y) {
      const uint8_t* row = window.data() + static_cast<size_t>(y - y0) * w;
      int32_t x = x0;
      while (x < x1) {
        const uint8_t cost = row[x - x0];
        if (previous.cost({x, y}) == cost) {
          ++x;
          continue;
        }
        int32_t end = x + 1;
        while (end < x1 && row[end - x0] == cost &&
               previous.cost({end, y}) != cost) {
          ++end;
        }
        changes.push_back(CellChange{{x, y}, {end, y + 1}, cost});
        x = end;
      }
    }
  }
  ChangeSummary local;
  return ApplyChanges(previous, changes, summary == nullptr ? &local : summary);
}

}  // namespace gridstar
