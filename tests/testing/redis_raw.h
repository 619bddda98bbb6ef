// RedisRaw: one hiredis connection to a test's redis-server for looking (and
// writing) behind the store's back: corrupt records, keys read directly.
// Header-only; link hiredis. Not thread-safe: one per thread.
#ifndef GRIDSTAR_TESTS_TESTING_REDIS_RAW_H_
#define GRIDSTAR_TESTS_TESTING_REDIS_RAW_H_

#include <hiredis/hiredis.h>

#include <string>
#include <vector>

namespace gridstar::testing {

class RedisRaw {
 public:
  explicit RedisRaw(int port) : c_(redisConnect("127.0.0.1", port)) {}
  ~RedisRaw() { redisFree(c_); }
  RedisRaw(const RedisRaw&) = delete;
  RedisRaw& operator=(const RedisRaw&) = delete;

  // Runs a command: the reply's integer, or -1; `ok` says whether it was
  // answered without an error.
  long long Run(const std::vector<std::string>& args, bool* ok = nullptr) {
    redisReply* r = Send(args);
    if (ok != nullptr) *ok = r != nullptr && r->type != REDIS_REPLY_ERROR;
    const long long v =
        r != nullptr && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r != nullptr) freeReplyObject(r);
    return v;
  }
  long long Integer(const std::vector<std::string>& args) { return Run(args); }
  // The reply as text (a status or bulk string; an array's elements joined
  // by '\n'); empty on an error or no reply.
  std::string Text(const std::vector<std::string>& args) {
    redisReply* r = Send(args);
    std::string out;
    if (r != nullptr && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS)) {
      out.assign(r->str, r->len);
    } else if (r != nullptr && r->type == REDIS_REPLY_ARRAY) {
      for (size_t i = 0; i < r->elements; ++i) {
        if (r->element[i]->str != nullptr) {
          if (!out.empty()) out += '\n';
          out.append(r->element[i]->str, r->element[i]->len);
        }
      }
    }
    if (r != nullptr) freeReplyObject(r);
    return out;
  }
  bool Ok(const std::vector<std::string>& args) {
    bool ok = false;
    Run(args, &ok);
    return ok;
  }

 private:
  // The reply (the caller frees it), or null.
  redisReply* Send(const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<size_t> len;
    for (const auto& a : args) {
      argv.push_back(a.data());
      len.push_back(a.size());
    }
    return static_cast<redisReply*>(
        redisCommandArgv(c_, static_cast<int>(args.size()), argv.data(), len.data()));
  }
  redisContext* c_;
};

}  // namespace gridstar::testing

#endif  // GRIDSTAR_TESTS_TESTING_REDIS_RAW_H_
