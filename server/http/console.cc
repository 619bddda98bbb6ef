#include "http/console.h"

#include <httplib.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gridstar/render.h"
#include "http/http_gateway.h"
#include "http/http_request.h"
#include "maps/map_registry.h"
#include "prometheus/text_serializer.h"
#include "watch/watch_hub.h"

namespace gridstar::server {
namespace {

void Secure(httplib::Response& r) {
  r.set_header("Content-Security-Policy", std::string(kConsoleCsp));
  r.set_header("X-Content-Type-Options", "nosniff");
  r.set_header("Referrer-Policy", "no-referrer");
}

void Fail(httplib::Response& r, int grpc_code, absl::string_view message) {
  AnswerError(r, HttpGateway::HttpStatusOf(grpc_code), grpc_code, message);
}

// OK when the request's key admits a query (or the server has no keys).
bool Admit(const PathfindingService* service, const httplib::Request& q,
           httplib::Response& r, absl::string_view what) {
  const AccessControl* access = service->options().access;
  if (access == nullptr) return true;
  absl::Status s =
      access->Authorize(AuthorizationOf(q), AccessLevel::kQuery, what);
  if (s.ok()) return true;
  AnswerStatus(r, s);
  return false;
}

// A whole-number query parameter within [lo, hi]; false (and the answer
// written) when missing or malformed.
bool Param(const httplib::Request& q, httplib::Response& r, const char* name,
           int64_t lo, int64_t hi, int64_t fallback, bool required,
           int64_t* out) {
  if (!q.has_param(name)) {
    if (!required) {
      *out = fallback;
      return true;
    }
    Fail(r, 3, absl::StrCat(name, ": required"));
    return false;
  }
  const std::string text = q.get_param_value(name);
  if (!absl::SimpleAtoi(text, out) || *out < lo || *out > hi) {
    Fail(r, 3,
         absl::StrCat(name, ": '", text.substr(0, 40),
                      "' is not a whole number in [", lo, ", ", hi, "]"));
    return false;
  }
  return true;
}

void ServeTile(PathfindingService* service, const httplib::Request& q,
               httplib::Response& r) {
  Secure(r);
  if (!Admit(service, q, r, "ConsoleTile")) return;
  if (!q.has_param("map")) return Fail(r, 3, "map: required");
  const std::string id = q.get_param_value("map");
  int64_t x0 = 0, y0 = 0, span = 0, pixels = 0;
  constexpr int64_t kFar = int64_t{1} << 31;
  if (!Param(q, r, "x0", -kFar, kFar, 0, true, &x0) ||
      !Param(q, r, "y0", -kFar, kFar, 0, true, &y0) ||
      !Param(q, r, "span", 1, int64_t{1} << 24, 0, true, &span) ||
      !Param(q, r, "px", 1, render::kMaxTilePixels, 256, false, &pixels)) {
    return;
  }
  const absl::Time begin = absl::Now();
  absl::StatusOr<std::shared_ptr<const MapSnapshot>> snapshot =
      service->registry()->FindOrLoad(id);
  if (!snapshot.ok()) {
    return AnswerStatus(r, snapshot.status());
  }
  if (*snapshot == nullptr) {
    return Fail(r, 5, absl::StrCat("map: no map '", id.substr(0, 128), "'"));
  }
  const MapSnapshot& s = **snapshot;
  static const std::vector<uint8_t> kNoAreas;
  absl::StatusOr<std::string> png = render::RenderTilePng(
      s.Terrain(), s.areas != nullptr ? *s.areas : kNoAreas, x0, y0, span,
      static_cast<int>(pixels));
  if (!png.ok()) {
    return AnswerStatus(r, png.status());
  }
  r.set_header("X-Map-Version", absl::StrCat(s.version));
  // The time the server took for it (the map found, the tile drawn and
  // encoded), which a browser's resource timing reports.
  r.set_header("Server-Timing",
               absl::StrCat("draw;dur=",
                            absl::ToDoubleMilliseconds(absl::Now() - begin)));
  r.set_header("Cache-Control", "no-store");
  r.set_content(*std::move(png), "image/png");
}

// Every watched agent on a map, whatever stream watches it, as JSON:
// {"agents":[{"agentId":"7","position":{"x":..,"y":..},"goal":{..},
// "remaining":[x0,y0,...],"pathCost":..,"noPath":false,"searching":false,
// "blocked":0},...],"truncated":false}. At most kMaxAgents agents and
// kMaxCells cells of each path.
void ServeAgents(PathfindingService* service, const httplib::Request& q,
                 httplib::Response& r) {
  constexpr size_t kMaxAgents = 1000, kMaxCells = 4096;
  Secure(r);
  if (!Admit(service, q, r, "ConsoleAgents")) return;
  if (!q.has_param("map")) return Fail(r, 3, "map: required");
  std::vector<WatchHub::AgentView> agents = service->watch()->AgentsOn(
      q.get_param_value("map"), kMaxAgents + 1, kMaxCells);
  const bool truncated = agents.size() > kMaxAgents;
  if (truncated) agents.resize(kMaxAgents);
  std::string out = "{\"agents\":[";
  for (size_t i = 0; i < agents.size(); ++i) {
    const WatchHub::AgentView& a = agents[i];
    absl::StrAppend(&out, i ? "," : "", "{\"agentId\":\"", a.agent_id,
                    "\",\"position\":{\"x\":", a.position.x,
                    ",\"y\":", a.position.y, "},\"goal\":{\"x\":", a.goal.x,
                    ",\"y\":", a.goal.y, "},\"remaining\":[");
    for (size_t k = 0; k < a.remaining.size(); ++k) {
      absl::StrAppend(&out, k ? "," : "", a.remaining[k].x, ",",
                      a.remaining[k].y);
    }
    absl::StrAppend(
        &out, "],\"pathCost\":", std::isfinite(a.path_cost) ? a.path_cost : 0,
        ",\"noPath\":", a.no_path ? "true" : "false",
        ",\"searching\":", a.searching ? "true" : "false",
        ",\"blocked\":", a.blocked, "}");
  }
  absl::StrAppend(&out, "],\"truncated\":", truncated ? "true" : "false",
                  "}\n");
  r.set_header("Cache-Control", "no-store");
  r.set_content(out, "application/json");
}

}  // namespace

void AddConsoleRoutes(httplib::Server* http, PathfindingService* service,
                      prometheus::Registry* metrics) {
  auto asset = [](absl::string_view body, const char* type) {
    return [body, type](const httplib::Request&, httplib::Response& r) {
      Secure(r);
      r.set_header("Cache-Control", "no-cache");
      r.set_content(body.data(), body.size(), type);
    };
  };
  http->Get("/console", asset(kConsoleHtml, "text/html; charset=utf-8"));
  http->Get("/console/", asset(kConsoleHtml, "text/html; charset=utf-8"));
  http->Get("/console/app.js",
            asset(kConsoleJs, "text/javascript; charset=utf-8"));
  http->Get("/console/panels.js",
            asset(kConsolePanelsJs, "text/javascript; charset=utf-8"));
  http->Get("/console/app.css", asset(kConsoleCss, "text/css; charset=utf-8"));
  http->Get("/console/tile",
            [service](const httplib::Request& q, httplib::Response& r) {
              ServeTile(service, q, r);
            });
  http->Get("/console/agents",
            [service](const httplib::Request& q, httplib::Response& r) {
              ServeAgents(service, q, r);
            });
  http->Get("/console/metrics", [service, metrics](const httplib::Request& q,
                                                   httplib::Response& r) {
    Secure(r);
    if (!Admit(service, q, r, "ConsoleMetrics")) return;
    r.set_header("Cache-Control", "no-store");
    r.set_content(prometheus::TextSerializer().Serialize(metrics->Collect()),
                  "text/plain; version=0.0.4");
  });
}

}  // namespace gridstar::server
