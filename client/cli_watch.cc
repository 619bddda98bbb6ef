// `gridstar watch`: watched agents (WatchPaths). Adds the agents given as
// arguments (AGENT SX SY GX GY, repeated) and from --agents FILE (one agent a
// line, the same five numbers; '#' starts a comment), then prints every event
// as it comes: the answer to each add, and each push (blocked, cheaper,
// reachable, map-deleted, ...). Ends after --events events, after --watch_for,
// or when the server ends the stream; Ctrl-C ends it too.
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "cli_common.h"
#include "gridstar/map_io.h"

ABSL_FLAG(std::string, agents, "",
          "watch: a file of agents, one a line: AGENT SX SY GX GY");
ABSL_FLAG(int64_t, events, 0,
          "watch: stop after this many events (0 = no limit)");
ABSL_FLAG(absl::Duration, watch_for, absl::InfiniteDuration(),
          "watch: stop after this long (default: until the stream ends)");
ABSL_FLAG(double, replan_if_cheaper, 0,
          "watch: push a cheaper path once one costs less than (1 - this) "
          "times the remaining path (0 = only when the path breaks)");

namespace gridstar::cli {
namespace {

struct Agent {
  uint64_t id = 0;
  int sx = 0, sy = 0, gx = 0, gy = 0;
};

// Agents from groups of five numbers; InvalidArgument naming `where`.
absl::Status ParseAgents(const std::vector<std::string>& words,
                         const std::string& where, std::vector<Agent>* out) {
  if (words.size() % 5 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": want AGENT SX SY GX GY (five numbers an agent), got ",
        words.size(), " numbers"));
  }
  for (size_t i = 0; i < words.size(); i += 5) {
    Agent a;
    if (!absl::SimpleAtoi(words[i], &a.id) ||
        !absl::SimpleAtoi(words[i + 1], &a.sx) ||
        !absl::SimpleAtoi(words[i + 2], &a.sy) ||
        !absl::SimpleAtoi(words[i + 3], &a.gx) ||
        !absl::SimpleAtoi(words[i + 4], &a.gy)) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": agent ", i / 5 + 1, ": '", words[i], " ",
                       words[i + 1], " ", words[i + 2], " ", words[i + 3], " ",
                       words[i + 4], "' is not five whole numbers"));
    }
    out->push_back(a);
  }
  return absl::OkStatus();
}

void PrintEvent(const v1::WatchEvent& e) {
  if (absl::GetFlag(FLAGS_json)) {
    PrintJson(e);
    return;
  }
  std::string line =
      absl::StrCat("agent=", e.agent_id(), " reason=", Name(e.reason()),
                   " request=", e.request_id(), " version=", e.map_version());
  if (e.code() != 0) {
    absl::StrAppend(&line, " error=", CodeName(e.code()), ": ", e.message());
  } else if (e.has_path()) {
    absl::StrAppend(
        &line,
        absl::StrFormat(" cost=%.4f cells=%d algorithm=%s", e.path().cost(),
                        e.path().cells_size() / 2, Name(e.path().algorithm())));
  } else {
    absl::StrAppend(&line, " path_index=", e.path_index());
  }
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

}  // namespace

int Watch(Client& client, const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fprintf(
        stderr,
        "usage: gridstar watch ID [AGENT SX SY GX GY ...] [--agents FILE] "
        "[--events N] [--watch_for 30s]\n");
    return 2;
  }
  std::vector<Agent> agents;
  if (absl::Status s =
          ParseAgents({args.begin() + 1, args.end()}, "arguments", &agents);
      !s.ok()) {
    std::fprintf(stderr, "gridstar: %s\n", std::string(s.message()).c_str());
    return 2;
  }
  const std::string file = absl::GetFlag(FLAGS_agents);
  if (!file.empty()) {
    absl::StatusOr<std::string> text = ReadFile(file, size_t{64} << 20);
    if (!text.ok()) return Fail(text.status());
    std::vector<std::string> words;
    for (absl::string_view line : absl::StrSplit(*text, '\n')) {
      line = line.substr(0, line.find('#'));
      for (absl::string_view w :
           absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty())) {
        words.emplace_back(w);
      }
    }
    if (absl::Status s = ParseAgents(words, file, &agents); !s.ok()) {
      std::fprintf(stderr, "gridstar: %s\n", std::string(s.message()).c_str());
      return 2;
    }
  }
  if (agents.empty()) {
    std::fprintf(stderr,
                 "gridstar: watch: no agents (arguments or --agents FILE)\n");
    return 2;
  }
  absl::StatusOr<v1::PathRequest> base = BaseRequest();
  if (!base.ok()) return Fail(base.status());
  base->set_map_id(args[0]);
  std::unique_ptr<WatchStream> stream =
      client.Watch(args[0], absl::GetFlag(FLAGS_watch_for));
  for (const Agent& a : agents) {
    v1::PathRequest r = *base;
    r.mutable_start()->set_x(a.sx);
    r.mutable_start()->set_y(a.sy);
    r.mutable_goal()->set_x(a.gx);
    r.mutable_goal()->set_y(a.gy);
    if (!stream->Add(a.id, r, absl::GetFlag(FLAGS_replan_if_cheaper)).ok())
      break;
  }
  const int64_t limit = absl::GetFlag(FLAGS_events);
  int64_t seen = 0;
  int failed = 0;
  v1::WatchEvent e;
  while (stream->Next(&e)) {
    PrintEvent(e);
    if (e.code() != 0) ++failed;
    if (limit > 0 && ++seen >= limit) {
      stream->Cancel();
      while (stream->Next(&e)) {
      }
      (void)stream->Finish();
      return failed > 0 ? 1 : 0;
    }
  }
  absl::Status s = stream->Finish();
  // --watch_for running out is how the user asked to stop.
  if (s.code() == absl::StatusCode::kDeadlineExceeded &&
      absl::GetFlag(FLAGS_watch_for) != absl::InfiniteDuration()) {
    s = absl::OkStatus();
  }
  if (!s.ok()) return Fail(s);
  return failed > 0 ? 1 : 0;
}

}  // namespace gridstar::cli
