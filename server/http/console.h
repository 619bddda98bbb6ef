// The web console (--http_console): one page served on the HTTP/JSON port,
// with the two reads it needs beside the API itself.
//
//   GET /console            the page (console/index.html)
//   GET /console/app.js     its scripts (and /console/panels.js), GET
//                           /console/app.css its style
//   GET /console/tile       a PNG tile of a map: ?map=ID&x0=X&y0=Y&span=S
//                           [&px=256] (render::RenderTilePng of the terrain
//                           and its areas; X-Map-Version says which version,
//                           Server-Timing "draw" how long the server took)
//   GET /console/agents     every watched agent on a map, whatever stream
//                           watches it: ?map=ID (WatchHub::AgentsOn, JSON)
//   GET /console/metrics    the server's Prometheus metrics as text, for the
//                           page's panel (same origin; the metrics port may
//                           be elsewhere)
//
// Everything else the page does goes through the API's own routes (ListMaps,
// FindPath, UpdateCells, WatchPaths as server-sent events). The tile, the
// agents and the metrics need a query key when the server has keys (the page
// sends it as `Authorization: Bearer`); the page and its files need none (they
// hold no data). Every answer carries a Content-Security-Policy that lets the
// page load nothing from other hosts and run no inline script.
//
// Thread-safety: the routes are served on the gateway's threads; they read
// the registry (snapshots) and the metrics registry, both thread-safe.
#ifndef GRIDSTAR_SERVER_HTTP_CONSOLE_H_
#define GRIDSTAR_SERVER_HTTP_CONSOLE_H_

#include <string>

#include "absl/strings/string_view.h"
#include "prometheus/registry.h"
#include "rpc/service.h"

namespace httplib {
class Server;
}

namespace gridstar::server {

// The page's Content-Security-Policy.
inline constexpr absl::string_view kConsoleCsp =
    "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'";

// Adds the console's routes to `http`. REQUIRES: `service` and `metrics`
// outlive `http`'s serving.
void AddConsoleRoutes(httplib::Server* http, PathfindingService* service,
                      prometheus::Registry* metrics);

// The page's files, as built into the binary (console_assets.cc, made from
// server/http/console/ at configure time).
extern const absl::string_view kConsoleHtml;
extern const absl::string_view kConsoleJs;
extern const absl::string_view kConsolePanelsJs;
extern const absl::string_view kConsoleCss;

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_HTTP_CONSOLE_H_
