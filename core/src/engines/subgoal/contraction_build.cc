// Building the contraction hierarchy over a subgoal graph (contraction.h):
// redundant edges dropped, nodes contracted in lazily re-evaluated order of
// importance with bounded witness searches, the upward graph kept.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "engines/subgoal/contraction.h"
#include "search/path_tools.h"

namespace gridstar::internal {
namespace {

// Lengths are exact sums of straight and diagonal moves: anything closer
// than this is the same length (contraction.h).
constexpr double kTie = 1e-9;
// Nodes a witness search settles before it gives up (and a shortcut is
// added): more finds more witnesses (fewer shortcuts, smaller searches),
// costs more build. Estimating a node's priority settles fewer.
constexpr int kWitnessSettles = 500;
constexpr int kEstimateSettles = 150;
// A node's depth (one above its deepest contracted neighbour) weighed into
// its priority spreads contraction over the graph, so that searches climb
// fewer levels. At weight 4 (gridstar-bench --algo contraction, a9784cf +
// the term): queries 3-7% faster on the sc1 maps, den520d, AR0011SR and
// Berlin_0_1024 (whose build also got shorter, 24.8 -> 23.0 s), builds
// 5-15% longer there; on random512-10-0 (66,874 corners) the build took
// 1.8x as long and queries 19% longer, on random512-30-0 (80,884) the build
// 1.7x. So graphs of more corners than this contract without it.
constexpr int64_t kDepthWeight = 4;
constexpr uint32_t kDepthTermMaxNodes = 32768;

struct Neighbour {
  double length;
  uint32_t to;
  uint32_t via;
};

// A* from one node over the nodes not yet contracted, towards the node
// being contracted (every target lies within `radius` of it, so
// max(0, octile to it - radius) is a consistent lower bound on what is left
// to any target), bounded by distance and by settled nodes; reused across
// searches (stamps).
class WitnessSearch {
 public:
  explicit WitnessSearch(size_t n)
      : dist_(n), stamp_(n, 0), target_mark_(n, 0) {}

  // Distances from `from` up to `bound`, avoiding `avoid` and contracted
  // nodes, until every node of `targets` is settled (targets lie within
  // `radius` octile cells of `avoid`); afterwards Distance(v) is the
  // distance found (or +infinity).
  void Run(const SubgoalGraph& graph,
           const std::vector<std::vector<Neighbour>>& adj,
           const std::vector<uint8_t>& contracted, uint32_t from,
           uint32_t avoid, double radius, double bound,
           const Neighbour* targets, size_t target_count, int max_settled) {
    ++current_;
    heap_.clear();
    const int32_t cx = graph.XOf(avoid), cy = graph.YOf(avoid);
    auto left_at_least = [&](uint32_t v) {
      const double h = OctileSteps(graph.XOf(v), graph.YOf(v), cx, cy) - radius;
      return h > 0 ? h : 0.0;
    };
    Set(from, 0);
    heap_.push_back({left_at_least(from), 0, from});
    for (size_t i = 0; i < target_count; ++i) {
      target_mark_[targets[i].to] = current_;
    }
    size_t left = target_count;
    int settled = 0;
    while (!heap_.empty() && settled < max_settled && left > 0) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      const Entry top = heap_.back();
      heap_.pop_back();
      const uint32_t u = top.node;
      const double d = top.distance;
      if (d > dist_[u]) continue;  // Stale.
      if (top.key > bound + kTie) break;
      ++settled;
      if (target_mark_[u] == current_) {
        target_mark_[u] = 0;
        --left;
      }
      for (const Neighbour& e : adj[u]) {
        if (e.to == avoid || contracted[e.to]) continue;
        const double nd = d + e.length;
        if (nd > bound + kTie) continue;
        if (stamp_[e.to] != current_ || nd < dist_[e.to]) {
          const double key = nd + left_at_least(e.to);
          if (key > bound + kTie) continue;
          Set(e.to, nd);
          heap_.push_back({key, nd, e.to});
          std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
        }
      }
    }
  }
  double Distance(uint32_t v) const {
    return stamp_[v] == current_ ? dist_[v]
                                 : std::numeric_limits<double>::infinity();
  }

 private:
  struct Entry {
    double key;  // Distance plus the bound on what is left.
    double distance;
    uint32_t node;
    bool operator>(const Entry& o) const { return key > o.key; }
  };
  void Set(uint32_t v, double d) {
    dist_[v] = d;
    stamp_[v] = current_;
  }
  std::vector<double> dist_;
  std::vector<uint32_t> stamp_;
  std::vector<uint32_t> target_mark_;
  uint32_t current_ = 0;
  std::vector<Entry> heap_;
};

// What one thread's witness searches work in.
struct WitnessScratch {
  explicit WitnessScratch(size_t n)
      : witness(n), arc_stamp(n, 0), arc_length(n, 0) {}
  WitnessSearch witness;
  std::vector<Neighbour> targets;
  // The arcs of one node: arc_length[w] is its arc's to w where
  // arc_stamp[w] is the stamp NextStamp gave out last.
  std::vector<uint32_t> arc_stamp;
  std::vector<double> arc_length;
  uint32_t NextStamp() {
    if (++arc_stamp_now == 0) {
      std::fill(arc_stamp.begin(), arc_stamp.end(), 0);
      arc_stamp_now = 1;
    }
    return arc_stamp_now;
  }
  uint32_t arc_stamp_now = 0;
  // The shortcuts the last Shortcuts call found needed: u, w, length.
  struct Needed {
    uint32_t u, w;
    double length;
  };
  std::vector<Needed> needed;
};

class Contractor {
 public:
  Contractor(const GridMap& map, const SubgoalGraph& g)
      : map_(map),
        graph_(g),
        n_(g.node_count()),
        adj_(n_),
        contracted_(n_, 0),
        contracted_neighbours_(n_, 0),
        depth_(n_, 0),
        scratch_(n_) {
    if (n_ <= kDepthTermMaxNodes) depth_weight_ = kDepthWeight;
    for (uint32_t u = 0; u < n_; ++u) {
      std::vector<Neighbour>& list = adj_[u];
      for (const uint32_t* t = g.EdgesBegin(u); t != g.EdgesEnd(u); ++t) {
        if (*t != u) {
          list.push_back(
              {EdgeLength(g, u, *t), *t, ContractionHierarchy::kNoVia});
        }
      }
      std::sort(
          list.begin(), list.end(),
          [](const Neighbour& a, const Neighbour& b) { return a.to < b.to; });
      list.erase(std::unique(list.begin(), list.end(),
                             [](const Neighbour& a, const Neighbour& b) {
                               return a.to == b.to;
                             }),
                 list.end());
    }
    // The graph is symmetric (h-reachability is); make sure of it, so that
    // an edge seen from one end is there from the other.
    struct Missing {
      uint32_t a, b;
      double length;
    };
    std::vector<Missing> missing;
    for (uint32_t u = 0; u < n_; ++u) {
      for (const Neighbour& e : adj_[u]) {
        if (FindIn(e.to, u) == nullptr) missing.push_back({e.to, u, e.length});
      }
    }
    for (const auto& [a, b, length] : missing) {
      adj_[a].push_back({length, b, ContractionHierarchy::kNoVia});
    }
  }

  // Whether `abandon` says stop, asked once every kAbandonPoll calls.
  bool Abandoned(const std::function<bool()>& abandon) {
    return abandon && ++polls_ % ContractionHierarchy::kAbandonPoll == 0 &&
           abandon();
  }

  // Step 1 (contraction.h): edges with a path of two edges as short. False
  // when abandoned (the graph then half done).
  bool DropRedundantEdges(const std::function<bool()>& abandon,
                          size_t* dropped) {
    std::vector<double> to_u(n_, 0);
    std::vector<uint32_t> mark(n_, UINT32_MAX);
    std::vector<std::pair<uint32_t, uint32_t>> drop;
    for (uint32_t u = 0; u < n_; ++u) {
      if (Abandoned(abandon)) return false;
      for (const Neighbour& e : adj_[u]) {
        mark[e.to] = u;
        to_u[e.to] = e.length;
      }
      for (const Neighbour& uv : adj_[u]) {
        for (const Neighbour& vw : adj_[uv.to]) {
          const uint32_t w = vw.to;
          if (w == u || mark[w] != u || w < u) continue;
          if (uv.length + vw.length <= to_u[w] + kTie) {
            drop.push_back({u, w});
            mark[w] = UINT32_MAX;  // Once.
          }
        }
      }
    }
    for (const auto& [u, w] : drop) {
      Remove(u, w);
      Remove(w, u);
    }
    *dropped = drop.size();
    return true;
  }

  // Step 2 and 3: contracts every node; fills the upward graph, numbered by
  // rank (contraction order): *node_of_rank, *rank_of_node, *xy_of_rank
  // (padded x | padded y << 16), and the arcs of rank r (their ends and
  // bypassed nodes ranks) from (*arc_begin)[r]. False when abandoned (the
  // outputs then half filled).
  bool Contract(const std::function<bool()>& abandon, int threads,
                std::vector<uint32_t>* node_of_rank,
                std::vector<uint32_t>* rank_of_node,
                std::vector<uint32_t>* xy_of_rank,
                std::vector<uint32_t>* arc_begin,
                std::vector<ContractionHierarchy::Arc>* arcs,
                size_t* shortcuts) {
    std::vector<std::pair<int64_t, uint32_t>> heap;
    if (!InitialPriorities(abandon, threads, &heap)) return false;
    std::make_heap(heap.begin(), heap.end(), std::greater<>());
    std::vector<std::vector<ContractionHierarchy::Arc>> up(n_);
    node_of_rank->clear();
    node_of_rank->reserve(n_);
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>());
      const uint32_t v = heap.back().second;
      heap.pop_back();
      if (contracted_[v]) continue;
      if (Abandoned(abandon)) return false;
      const int64_t now = Priority(v, kEstimateSettles, scratch_);
      if (!heap.empty() && now > heap.front().first) {
        heap.push_back({now, v});
        std::push_heap(heap.begin(), heap.end(), std::greater<>());
        continue;
      }
      // Its neighbours still in the graph are above it.
      for (const Neighbour& e : adj_[v]) {
        up[v].push_back({e.length, e.to, e.via});
      }
      // Joined once all are known (the searches read the graph only).
      Shortcuts(v, kWitnessSettles, scratch_);
      for (const WitnessScratch::Needed& s : scratch_.needed) {
        Join(s.u, s.w, s.length, v);
      }
      *shortcuts += scratch_.needed.size();
      contracted_[v] = 1;
      node_of_rank->push_back(v);
      for (const Neighbour& e : adj_[v]) {
        Remove(e.to, v);
        ++contracted_neighbours_[e.to];
        depth_[e.to] = std::max(depth_[e.to], depth_[v] + 1);
      }
      std::vector<Neighbour>().swap(adj_[v]);
    }
    rank_of_node->assign(n_, 0);
    for (uint32_t r = 0; r < n_; ++r) (*rank_of_node)[(*node_of_rank)[r]] = r;
    xy_of_rank->resize(n_);
    for (uint32_t r = 0; r < n_; ++r) {
      const uint32_t v = (*node_of_rank)[r];
      (*xy_of_rank)[r] = static_cast<uint32_t>(graph_.XOf(v)) |
                         static_cast<uint32_t>(graph_.YOf(v)) << 16;
    }
    // Searches touch the high ranks most: numbered by rank, those sit
    // together in memory.
    arc_begin->assign(n_ + 1, 0);
    arcs->clear();
    size_t total = 0;
    for (const auto& list : up) total += list.size();
    arcs->reserve(total);  // Exactly: HeldBytes counts the capacity.
    for (uint32_t r = 0; r < n_; ++r) {
      (*arc_begin)[r] = static_cast<uint32_t>(arcs->size());
      const uint32_t v = (*node_of_rank)[r];
      for (ContractionHierarchy::Arc a : up[v]) {
        if (a.IsShortcut()) {
          // Refined at once when a move sequence of octile shape and of its
          // length joins its ends.
          // (Ranks below kStraightBit leave its bit free.)
          const bool straight =
              n_ <= ContractionHierarchy::kStraightBit &&
              a.length <= EdgeLength(graph_, v, a.to) + kTie &&
              StraightReach(v, a.to);
          a.via = (*rank_of_node)[a.via] |
                  (straight ? ContractionHierarchy::kStraightBit : 0);
        }
        a.to = (*rank_of_node)[a.to];
        arcs->push_back(a);
      }
      std::vector<ContractionHierarchy::Arc>().swap(up[(*node_of_rank)[r]]);
    }
    (*arc_begin)[n_] = static_cast<uint32_t>(arcs->size());
    return true;
  }

 private:
  // Every node's priority before any is contracted, into *heap (unordered):
  // the graph is only read, so the nodes are shared among up to
  // `asked` threads (0: as ContractionHierarchy::Build says), each with its
  // own witness searches; the values are those one thread would find. False
  // when abandoned.
  bool InitialPriorities(const std::function<bool()>& abandon, int asked,
                         std::vector<std::pair<int64_t, uint32_t>>* heap) {
    heap->resize(n_);
    const size_t threads =
        asked > 0
            ? static_cast<size_t>(asked)
            : std::max<size_t>(
                  1, std::min<size_t>(
                         {size_t{ContractionHierarchy::kBuildThreads},
                          std::thread::hardware_concurrency(), n_ / 1024}));
    std::atomic<uint32_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex abandon_mu;  // `abandon` is asked by one thread at a time.
    auto work = [&](WitnessScratch& scratch) {
      constexpr uint32_t kBatch = 64;
      for (;;) {
        const uint32_t begin = next.fetch_add(kBatch);
        if (begin >= n_ || stop.load(std::memory_order_relaxed)) return;
        if (abandon) {
          std::lock_guard<std::mutex> lock(abandon_mu);
          if (abandon()) {
            stop = true;
            return;
          }
        }
        for (uint32_t v = begin; v < std::min(n_, begin + kBatch); ++v) {
          (*heap)[v] = {Priority(v, kEstimateSettles, scratch), v};
        }
      }
    };
    std::vector<std::unique_ptr<WitnessScratch>> scratches;
    std::vector<std::thread> helpers;
    for (size_t t = 1; t < threads; ++t) {
      scratches.push_back(std::make_unique<WitnessScratch>(n_));
      try {
        helpers.emplace_back(work, std::ref(*scratches.back()));
      } catch (const std::system_error&) {
        break;  // No thread to be had: the threads there are share the rest.
      }
    }
    work(scratch_);
    for (std::thread& t : helpers) t.join();
    return !stop;
  }

  const Neighbour* FindIn(uint32_t u, uint32_t to) const {
    for (const Neighbour& e : adj_[u]) {
      if (e.to == to) return &e;
    }
    return nullptr;
  }
  void Remove(uint32_t u, uint32_t to) {
    std::vector<Neighbour>& list = adj_[u];
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].to == to) {
        list[i] = list.back();
        list.pop_back();
        return;
      }
    }
  }
  // Joins u and w by `length` through v: a new edge, or the existing one
  // shortened.
  void Join(uint32_t u, uint32_t w, double length, uint32_t v) {
    for (const auto& [a, b] : {std::pair{u, w}, std::pair{w, u}}) {
      bool found = false;
      for (Neighbour& e : adj_[a]) {
        if (e.to == b) {
          found = true;
          if (length < e.length - kTie) e = Neighbour{length, b, v};
          break;
        }
      }
      if (!found) adj_[a].push_back({length, b, v});
    }
  }

  // Whether an octile-length move sequence joins corners a and b (its two
  // canonical shapes): then their distance is their octile distance, on the
  // grid and so in the graph, which keeps every distance between corners.
  bool StraightReach(uint32_t a, uint32_t b) const {
    return OctileShapeLegal(map_.padded_costs(), map_.padded_width(),
                            DiagonalPolicy::kNoCornerCutting,
                            Cell{graph_.XOf(a), graph_.YOf(a)},
                            Cell{graph_.XOf(b), graph_.YOf(b)});
  }

  // The shortcuts contracting v needs, into scratch.needed (witness
  // searches settling at most `max_settled` nodes each); their count. A
  // pair whose octile distance is shorter than the way through v, and who
  // reach each other in a straight octile line, needs none (that line is a
  // shorter path, not through v): no witness search is run for it, and
  // none can miss it. Reads the graph only.
  int64_t Shortcuts(uint32_t v, int max_settled, WitnessScratch& scratch) {
    std::vector<Neighbour>& targets = scratch.targets;
    const std::vector<Neighbour>& around = adj_[v];
    scratch.needed.clear();
    // Every neighbour (and so every target) within this of v: arcs are no
    // shorter than the octile distance between their ends.
    double radius = 0;
    for (const Neighbour& e : around) radius = std::max(radius, e.length);
    for (size_t i = 0; i < around.size(); ++i) {
      const Neighbour& uv = around[i];
      targets.clear();
      double bound = 0;
      // u's own arcs are witnesses at once (the witness search would
      // label them first): no search for a pair they witness.
      const uint32_t stamp = scratch.NextStamp();
      for (const Neighbour& e : adj_[uv.to]) {
        scratch.arc_stamp[e.to] = stamp;
        scratch.arc_length[e.to] = e.length;
      }
      for (size_t j = i + 1; j < around.size(); ++j) {
        const uint32_t w = around[j].to;
        const double through = uv.length + around[j].length;
        if (scratch.arc_stamp[w] == stamp &&
            scratch.arc_length[w] <= through + kTie) {
          continue;
        }
        if (EdgeLength(graph_, uv.to, w) < through - kTie &&
            StraightReach(uv.to, w)) {
          continue;
        }
        targets.push_back(around[j]);
        bound = std::max(bound, through);
      }
      if (targets.empty()) continue;
      scratch.witness.Run(graph_, adj_, contracted_, uv.to, v, radius, bound,
                          targets.data(), targets.size(), max_settled);
      for (const Neighbour& vw : targets) {
        const double through = uv.length + vw.length;
        if (scratch.witness.Distance(vw.to) <= through + kTie) continue;
        scratch.needed.push_back({uv.to, vw.to, through});
      }
    }
    return static_cast<int64_t>(scratch.needed.size());
  }

  // Edge difference (shortcuts minus edges removed) and contracted
  // neighbours, the usual measure of how much contracting v now costs, and
  // on small graphs its depth (kDepthWeight).
  // Reads the graph only: any number of threads at once, each with its own
  // scratch, while nothing is contracted.
  int64_t Priority(uint32_t v, int max_settled, WitnessScratch& scratch) {
    const int64_t shortcuts = Shortcuts(v, max_settled, scratch);
    return 2 * (shortcuts - static_cast<int64_t>(adj_[v].size())) +
           contracted_neighbours_[v] + depth_weight_ * int64_t{depth_[v]};
  }

  const GridMap& map_;
  const SubgoalGraph& graph_;
  const uint32_t n_;
  std::vector<std::vector<Neighbour>> adj_;
  std::vector<uint8_t> contracted_;
  std::vector<int64_t> contracted_neighbours_;
  std::vector<uint32_t> depth_;  // See kDepthWeight.
  int64_t depth_weight_ = 0;
  WitnessScratch scratch_;  // The contracting thread's.
  uint32_t polls_ = 0;
};

}  // namespace

std::shared_ptr<const ContractionHierarchy> ContractionHierarchy::Build(
    const GridMap& map, std::shared_ptr<const SubgoalGraph> graph,
    bool owns_graph, const std::function<bool()>& abandon, int threads) {
  auto ch = std::make_shared<ContractionHierarchy>();
  Contractor contractor(map, *graph);
  if (!contractor.DropRedundantEdges(abandon, &ch->dropped_edges_) ||
      !contractor.Contract(abandon, threads, &ch->node_of_rank_,
                           &ch->rank_of_node_, &ch->xy_of_rank_,
                           &ch->arc_begin_, &ch->arcs_, &ch->shortcuts_)) {
    return nullptr;
  }
  ch->graph_ = std::move(graph);
  ch->owns_graph_ = owns_graph;
  return ch;
}

const ContractionHierarchy::Arc* ContractionHierarchy::FindArc(
    uint32_t low, uint32_t high) const {
  for (const Arc* a = ArcsBegin(low); a != ArcsEnd(low); ++a) {
    if (a->to == high) return a;
  }
  return nullptr;
}

size_t ContractionHierarchy::MemoryBytes() const {
  return (arc_begin_.capacity() + node_of_rank_.capacity() +
          rank_of_node_.capacity() + xy_of_rank_.capacity()) *
             sizeof(uint32_t) +
         arcs_.capacity() * sizeof(Arc) +
         (owns_graph_ ? graph_->MemoryBytes() : 0);
}

bool ContractionHierarchy::SameAs(const ContractionHierarchy& other) const {
  if (arc_begin_ != other.arc_begin_ || node_of_rank_ != other.node_of_rank_ ||
      arcs_.size() != other.arcs_.size()) {
    return false;
  }
  for (size_t i = 0; i < arcs_.size(); ++i) {
    const Arc& a = arcs_[i];
    const Arc& b = other.arcs_[i];
    if (a.to != b.to || a.via != b.via || a.length != b.length) return false;
  }
  return graph_->SameAs(*other.graph_);
}

}  // namespace gridstar::internal
