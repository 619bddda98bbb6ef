// What the HTTP routes beside the gateway's unary calls (the watch streams,
// the web console) share with them: the request's key as AccessControl takes
// it, and error answers in the gateway's body and status mapping.
//
// Thread-safety: pure functions of their arguments.
#ifndef GRIDSTAR_SERVER_HTTP_HTTP_REQUEST_H_
#define GRIDSTAR_SERVER_HTTP_HTTP_REQUEST_H_

#include <httplib.h>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "http/http_gateway.h"

namespace gridstar::server {

// The Authorization header (its first value), nullopt when there is none.
// Points into `request`.
inline absl::optional<absl::string_view> AuthorizationOf(
    const httplib::Request& request) {
  auto range = request.headers.equal_range("Authorization");
  if (range.first == range.second) return absl::nullopt;
  return absl::string_view(range.first->second);
}

// Answers HttpErrorBody with `http_status`.
inline void AnswerError(httplib::Response& response, int http_status,
                        int grpc_code, absl::string_view message) {
  response.status = http_status;
  response.set_content(HttpErrorBody(http_status, grpc_code, message),
                       "application/json");
}

// Answers `status` (not OK) with the HTTP status its code maps to.
inline void AnswerStatus(httplib::Response& response,
                         const absl::Status& status) {
  const int code = static_cast<int>(status.code());
  AnswerError(response, HttpGateway::HttpStatusOf(code), code,
              status.message());
}

}  // namespace gridstar::server

#endif  // GRIDSTAR_SERVER_HTTP_HTTP_REQUEST_H_
