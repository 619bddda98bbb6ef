#include "program_flags.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace gridstar {
namespace {

bool IsOwn(const absl::CommandLineFlag& flag, const ProgramInfo& info) {
  const std::string file = flag.Filename();
  for (const std::string& s : info.sources) {
    if (absl::StrContains(file, s)) return true;
  }
  return false;
}

// "-5", "-2.5": a number, not a flag.
bool IsNegativeNumber(absl::string_view arg) {
  if (arg.size() < 2 || arg[0] != '-') return false;
  bool digit = false;
  for (char c : arg.substr(1)) {
    if (absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else if (c != '.') {
      return false;
    }
  }
  return digit;
}

// Wraps `text` to lines of at most `width` characters, each indented.
std::string Wrap(absl::string_view text, size_t indent, size_t width) {
  std::string out, line;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      absl::StrAppend(&out, std::string(indent, ' '), line, "\n");
      line.clear();
    }
    absl::StrAppend(&line, line.empty() ? "" : " ", word);
  }
  if (!line.empty())
    absl::StrAppend(&out, std::string(indent, ' '), line, "\n");
  return out;
}

std::string Describe(const absl::CommandLineFlag& flag) {
  std::string def = flag.DefaultValue();
  if (flag.IsOfType<std::string>() ||
      flag.IsOfType<std::vector<std::string>>()) {
    def = absl::StrCat("\"", def, "\"");
  }
  return absl::StrCat("  --", flag.Name(), " (default ", def, ")\n",
                      Wrap(flag.Help(), 6, 78));
}

}  // namespace

std::vector<absl::CommandLineFlag*> OwnFlags(const ProgramInfo& info) {
  std::vector<absl::CommandLineFlag*> own;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (IsOwn(*flag, info)) own.push_back(flag);
  }
  std::sort(own.begin(), own.end(),
            [](const absl::CommandLineFlag* a, const absl::CommandLineFlag* b) {
              return a->Name() < b->Name();
            });
  return own;
}

std::string HelpText(const ProgramInfo& info) {
  std::string out = absl::StrCat(info.usage, "\n");
  const std::vector<absl::CommandLineFlag*> own = OwnFlags(info);
  absl::flat_hash_map<std::string, absl::CommandLineFlag*> by_name;
  for (absl::CommandLineFlag* f : own) by_name[std::string(f->Name())] = f;
  std::set<std::string> listed;
  for (const FlagGroup& g : info.groups) {
    std::string body;
    for (const std::string& name : g.flags) {
      auto it = by_name.find(name);
      if (it == by_name.end() || !listed.insert(name).second) continue;
      absl::StrAppend(&body, Describe(*it->second));
    }
    if (!body.empty()) absl::StrAppend(&out, "\n", g.title, ":\n", body);
  }
  std::string rest;
  for (absl::CommandLineFlag* f : own) {
    if (!listed.count(std::string(f->Name())))
      absl::StrAppend(&rest, Describe(*f));
  }
  if (!rest.empty()) absl::StrAppend(&out, "\nOther:\n", rest);
  absl::StrAppend(&out, "\n");
  if (info.environment) {
    absl::StrAppend(&out,
                    "Every flag above may also be set in the environment as "
                    "FLAGS_<name> (FLAGS_port=6000); the command line wins.\n");
  }
  absl::StrAppend(
      &out, "--helpfull lists the flags of every library linked in as well.\n");
  return out;
}

std::vector<std::string> ParseProgramFlags(int argc, char** argv,
                                           const ProgramInfo& info) {
  absl::SetProgramUsageMessage(info.usage);
  // --help and its spellings: the program's own flags, grouped.
  for (int i = 1; i < argc; ++i) {
    const absl::string_view a = argv[i];
    if (a == "--") break;
    if (a == "--help" || a == "-help" || a == "-h" || a == "--helpshort" ||
        a == "-helpshort") {
      std::fputs(HelpText(info).c_str(), stdout);
      std::exit(0);
    }
  }
  if (info.environment) {
    for (absl::CommandLineFlag* flag : OwnFlags(info)) {
      const std::string var = absl::StrCat("FLAGS_", flag->Name());
      const char* value = std::getenv(var.c_str());
      if (value == nullptr) continue;
      std::string error;
      if (!flag->ParseFrom(value, &error)) {
        std::fprintf(stderr, "%s: environment %s='%s': %s\n", info.name.c_str(),
                     var.c_str(), value, error.c_str());
        std::exit(2);
      }
    }
  }
  // Negative numbers become positional: flags first, then "--", then the
  // positional arguments in their order. A flag given as "--name VALUE"
  // keeps its value with it.
  std::vector<std::string> flags, positional;
  bool rest_positional = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (rest_positional || IsNegativeNumber(a) || a.empty() || a[0] != '-' ||
        a == "-") {
      positional.push_back(a);
      continue;
    }
    if (a == "--") {
      rest_positional = true;
      continue;
    }
    flags.push_back(a);
    if (a.find('=') == std::string::npos) {
      absl::string_view name = a;
      name.remove_prefix(name.size() > 1 && name[1] == '-' ? 2 : 1);
      const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
      if (flag != nullptr && !flag->IsOfType<bool>() && i + 1 < argc) {
        flags.push_back(argv[++i]);
      }
    }
  }
  std::vector<std::string> rebuilt = {argv[0]};
  rebuilt.insert(rebuilt.end(), flags.begin(), flags.end());
  rebuilt.push_back("--");
  rebuilt.insert(rebuilt.end(), positional.begin(), positional.end());
  std::vector<char*> ptrs;
  for (std::string& s : rebuilt) ptrs.push_back(s.data());
  std::vector<char*> left =
      absl::ParseCommandLine(static_cast<int>(ptrs.size()), ptrs.data());
  std::vector<std::string> out;
  for (char* p : left) out.emplace_back(p);
  const absl::CommandLineFlag* show = absl::FindCommandLineFlag("show_config");
  if (show != nullptr && IsOwn(*show, info) && show->CurrentValue() == "true") {
    for (absl::CommandLineFlag* f : OwnFlags(info)) {
      if (f->Name() == "show_config") continue;
      std::printf("--%s=%s\n", std::string(f->Name()).c_str(),
                  f->CurrentValue().c_str());
    }
    std::exit(0);
  }
  return out;
}

}  // namespace gridstar
