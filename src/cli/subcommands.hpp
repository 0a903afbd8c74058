// The subcommands, and which of the two executables runs each.
//
// geotruth runs the ones that read, count and write on one thread (analyze, count, import). It links no TBB, no shared
// C++ runtime and no vision library, so a short run is over in about a millisecond. geotruth-parallel, beside it, runs
// the ones that use every core (TBB) or draw and detect (cairo and OpenCV, in modules it loads): generate is one of
// them, since it certifies on every core and cross-checks its pictures. Each executes the other for the subcommands it
// does not run, with the same arguments: users only ever call geotruth.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string_view>

namespace geotruth::cli {

enum class Executable { geotruth, parallel };

struct SubcommandInfo {
  std::string_view name, description;
  Executable runs_in;
};

/// Every subcommand, in the order `geotruth --help` lists them.
inline constexpr SubcommandInfo kSubcommands[] = {
    {"analyze", "parse and validate scenes; print each normalized, with its incidence structure and conflicts",
     Executable::geotruth},
    {"count", "Tangram counts: letters, circles, segments and triangles formed by letters", Executable::geotruth},
    {"import",
     "convert Geometry3K, PGDP5K, line-list, GePBench, AI2D or VisOnlyQA items to native scenes, or read pictures into "
     "them",
     Executable::geotruth},
    {"generate", "generate items with questions whose every answer is certified (Tangram, GePBench) or constructed",
     Executable::parallel},
    {"audit", "recompute every answer of a dataset; write verdicts, scene findings, a summary and an HTML report",
     Executable::parallel},
    {"merge",
     "join the shards of an audit, render, crosscheck, count, analyze, import or generate run into one run's output",
     Executable::parallel},
    {"filter", "split a dataset into clean and rejected items by their verdicts", Executable::parallel},
    {"export", "write a dataset with its verdicts as a Hugging Face imagefolder, a VLMEvalKit TSV or an lmms-eval task",
     Executable::parallel},
    {"score",
     "score model outputs on all items, on the items audited ok, and against the truth where the annotated answer is "
     "wrong",
     Executable::parallel},
    {"render", "draw each scene to a PNG or JPEG image named after its id", Executable::parallel},
    {"crosscheck", "compare each scene with what OpenCV detects in its picture (own rendering, or --image)",
     Executable::parallel},
};

/// Adds a subcommand's options to its CLI::App and returns what runs it (after parsing).
using Configure = std::function<std::function<int()>(CLI::App&)>;

/// analyze, count and import: run by geotruth, and by geotruth-parallel when they read pictures
/// (--from picture: the picture reader is in the vision module it loads).
std::map<std::string_view, Configure> light_subcommands();

/// The command line of the executable `self`, whose subcommands are `configure` (by name): every
/// subcommand is listed for --help, the one named is configured, parsed and run here, or the
/// other executable is run in this process's place when it runs that one and this one cannot (a
/// subcommand that reads pictures always runs in geotruth-parallel).
int run_command_line(int argc, char** argv, Executable self, const std::map<std::string_view, Configure>& configure);

}  // namespace geotruth::cli
