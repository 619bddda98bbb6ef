// The command-line conventions of gridstar-server and the gridstar CLI
// (gridstar-bench parses its own arguments and prints its own --help):
//   - `--help` (also -h, -help, --helpshort) prints the program's own flags,
//     grouped by concern, each with its default, and exits 0; `--helpfull`
//     stays Abseil's (every flag of every library).
//   - With `environment` set, every own flag may also come from the
//     environment variable FLAGS_<name> (what a container sets); the command
//     line wins over it. A value that does not parse exits 2 naming the
//     variable. No hand-kept list: the flags are read from Abseil's registry.
//   - `--show_config` (when the program defines it) prints every own flag's
//     value as the program would use it and exits 0.
//   - A negative number ("-5") is a positional argument, never a flag.
//
// Own flags are those defined in source files whose path contains one of
// ProgramInfo::sources. A flag in no group is listed under "Other".
//
// Thread-safety: call ParseProgramFlags once, from main, before any thread.
#ifndef GRIDSTAR_CORE_CMDLINE_PROGRAM_FLAGS_H_
#define GRIDSTAR_CORE_CMDLINE_PROGRAM_FLAGS_H_

#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"

namespace gridstar {

struct FlagGroup {
  std::string title;
  std::vector<std::string> flags;  // Names without dashes.
};

struct ProgramInfo {
  std::string name;   // "gridstar-server".
  std::string usage;  // Printed first by --help (may be several lines).
  std::vector<FlagGroup> groups;
  // Substrings of the paths of the source files that define own flags.
  std::vector<std::string> sources;
  bool environment = false;  // FLAGS_<name> sets own flags.
};

// The program's own flags, ordered by name.
std::vector<absl::CommandLineFlag*> OwnFlags(const ProgramInfo& info);

// The text --help prints.
std::string HelpText(const ProgramInfo& info);

// Parses argv as described above and returns the positional arguments
// (argv[0] first). Exits on --help, --show_config, --helpfull and errors.
std::vector<std::string> ParseProgramFlags(int argc, char** argv,
                                           const ProgramInfo& info);

}  // namespace gridstar

#endif  // GRIDSTAR_CORE_CMDLINE_PROGRAM_FLAGS_H_
