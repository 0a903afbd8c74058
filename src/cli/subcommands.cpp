#include "cli/subcommands.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <geotruth/version.hpp>
#include <iostream>
#include <string>

#include "cli/common.hpp"

namespace geotruth::cli {
namespace {

// The subcommand named on the command line: the first argument that is not an option (the
// command itself has no option that takes a value).
std::string_view named_subcommand(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-') return argv[i];
  return {};
}

// Whether the command line reads pictures (--from picture, --truth-from picture): the reader lives in
// the vision module, which geotruth-parallel loads; geotruth stays without it.
bool reads_pictures(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if ((arg == "--from" || arg == "--truth-from") && i + 1 < argc && std::string_view(argv[i + 1]) == "picture")
      return true;
    if (arg == "--from=picture" || arg == "--truth-from=picture") return true;
  }
  return false;
}

// Runs the executable `file` (beside this one) in this process's place, with the same arguments.
int run_instead(const char* file, char** argv) {
  const std::string path = beside_executable(file).string();
  ::execv(path.c_str(), argv);
  std::cerr << "geotruth: cannot run " << path << ": " << std::strerror(errno) << '\n';
  return kUsage;
}

}  // namespace

int run_command_line(int argc, char** argv, Executable self, const std::map<std::string_view, Configure>& configure) {
  CLI::App app{"geotruth: exact ground truth for geometry-perception benchmark items"};
  app.set_version_flag("--version", "geotruth " + version_text());
  app.require_subcommand(1);
  const std::string_view named = named_subcommand(argc, argv);
  std::function<int()> run;
  for (const SubcommandInfo& subcommand : kSubcommands) {
    if (subcommand.name == named && subcommand.runs_in != self && !configure.count(subcommand.name))
      return run_instead(subcommand.runs_in == Executable::geotruth ? GEOTRUTH_FILE : GEOTRUTH_PARALLEL_FILE, argv);
    if (subcommand.name == named && self == Executable::geotruth && reads_pictures(argc, argv))
      return run_instead(GEOTRUTH_PARALLEL_FILE, argv);
    CLI::App* sub = app.add_subcommand(std::string(subcommand.name), std::string(subcommand.description));
    // Only the subcommand being run gets its options: building every subcommand's took most of
    // a short run's own instructions.
    if (subcommand.name == named) run = configure.at(subcommand.name)(*sub);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kOk : kUsage;
  }

  try {
    if (run) return run();
  } catch (const std::exception& e) {
    std::cerr << "geotruth: " << e.what() << '\n';
    return kUsage;
  }
  return kUsage;
}

}  // namespace geotruth::cli
