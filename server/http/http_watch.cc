#include "http/http_watch.h"

#include <httplib.h>

#include <condition_variable>
#include <deque>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "convert/json_codec.h"
#include "http/http_gateway.h"
#include "http/http_request.h"
#include "nlohmann/json.hpp"
#include "watch/watch_wire.h"

namespace gridstar::server {

namespace {

// Silence longer than this gets a comment line: it keeps proxies from
// closing the stream, and a client that left is noticed when it fails.
constexpr absl::Duration kKeepAlive = absl::Seconds(5);

// The body's WatchRequests: one object or an array of them.
absl::Status ReadRequests(const std::string& body,
                          std::vector<v1::WatchRequest>* out) {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) {
    return absl::OkStatus();
  }
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(body);
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("body: not JSON: ", e.what()));
  }
  std::vector<const nlohmann::json*> items;
  if (parsed.is_array()) {
    for (const nlohmann::json& item : parsed) items.push_back(&item);
  } else {
    items.push_back(&parsed);
  }
  for (size_t i = 0; i < items.size(); ++i) {
    v1::WatchRequest request;
    if (absl::Status s = convert::JsonToMessage(
            items[i]->dump(-1, ' ', false,
                           nlohmann::json::error_handler_t::replace),
            &request);
        !s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "body", parsed.is_array() ? absl::StrCat("[", i, "]") : "",
          ": not a WatchRequest in JSON: ", s.message()));
    }
    out->push_back(std::move(request));
  }
  return absl::OkStatus();
}

std::string NewStreamId() {
  thread_local absl::BitGen bits;
  return absl::StrFormat("%016x%016x", absl::Uniform<uint64_t>(bits),
                         absl::Uniform<uint64_t>(bits));
}

}  // namespace

HttpWatchStreams::HttpWatchStreams(PathfindingService* service,
                                   size_t max_streams)
    : service_(service), max_streams_(max_streams) {}

HttpWatchStreams::~HttpWatchStreams() { CloseAll(); }

void HttpWatchStreams::CloseAll() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [id, sink] : streams_) sink->Close();
}

size_t HttpWatchStreams::open_streams() const {
  std::lock_guard<std::mutex> lock(mu_);
  return streams_.size();
}

void HttpWatchStreams::Serve(const httplib::Request& request,
                             httplib::Response& response) {
  response.set_header("Cache-Control", "no-store");
  if (const AccessControl* access = service_->options().access) {
    if (absl::Status s = access->Authorize(AuthorizationOf(request),
                                           AccessLevel::kQuery, "WatchPaths");
        !s.ok()) {
      return AnswerStatus(response, s);
    }
  }
  std::vector<v1::WatchRequest> requests;
  if (absl::Status s = ReadRequests(request.body, &requests); !s.ok()) {
    return AnswerError(response, 400, 3, s.message());
  }
  WatchHub& hub = *service_->watch();
  if (request.has_param("stream")) {
    const std::string id = request.get_param_value("stream");
    std::shared_ptr<SseSink> sink;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto it = streams_.find(id); it != streams_.end()) sink = it->second;
    }
    if (sink == nullptr) {
      return AnswerError(response, 404, 5,
                         absl::StrCat("stream: no open WatchPaths stream '", id,
                                      "' (it ended, or never was)"));
    }
    for (const v1::WatchRequest& r : requests) HandleRequest(hub, sink, r);
    response.set_content(absl::StrCat("{\"accepted\":", requests.size(), "}\n"),
                         "application/json");
    return;
  }
  auto sink = std::make_shared<SseSink>(NewStreamId(),
                                        service_->options().watch_max_pending);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (streams_.size() >= max_streams_) {
      return AnswerError(response, 429, 8,
                         absl::StrCat("WatchPaths: ", streams_.size(),
                                      " streams are open, the most this port "
                                      "serves at once; close one or use gRPC"));
    }
    streams_[sink->id()] = sink;
  }
  // Their events wait in the sink until the stream's first event is out.
  for (const v1::WatchRequest& r : requests) HandleRequest(hub, sink, r);
  auto hello_sent = std::make_shared<bool>(false);
  response.set_chunked_content_provider(
      "text/event-stream",
      [sink, hello_sent](size_t, httplib::DataSink& out) {
        if (!*hello_sent) {
          *hello_sent = true;
          const std::string hello = absl::StrCat(
              "event: stream\ndata: {\"streamId\":\"", sink->id(), "\"}\n\n");
          return out.write(hello.data(), hello.size());
        }
        std::deque<WatchEvent> events;
        switch (sink->Take(&events, kKeepAlive)) {
          case SseSink::Next::kIdle: {
            static constexpr char kAlive[] = ": keep-alive\n\n";
            return out.write(kAlive, sizeof kAlive - 1);
          }
          case SseSink::Next::kClosed: {
            if (sink->fell_behind()) {
              const std::string error = absl::StrCat(
                  "event: error\ndata: ",
                  HttpErrorBody(429, 8,
                                "WatchPaths: the reader fell more than "
                                "--watch_max_pending events behind; the "
                                "stream is closed and its agents dropped"),
                  "\n");
              out.write(error.data(), error.size());
            }
            out.done();
            return true;
          }
          case SseSink::Next::kEvents:
            break;
        }
        std::string text;
        v1::WatchEvent wire;
        for (const WatchEvent& e : events) {
          wire.Clear();
          WatchEventToProto(e, &wire);
          text.append("data: ");
          convert::MessageToJson(wire, &text);
          text.append("\n\n");
        }
        return out.write(text.data(), text.size());
      },
      [this, sink](bool) {
        // The client is gone (or the stream closed): its agents go.
        sink->Close();
        service_->watch()->DropStream(sink.get());
        std::lock_guard<std::mutex> lock(mu_);
        streams_.erase(sink->id());
      });
}

}  // namespace gridstar::server
