// geotruth: the command line. It runs the subcommands that read, count and write on one thread and
// executes geotruth-parallel for the others (cli/subcommands.hpp); each subcommand lives in its own
// source under src/cli/.
#include <iostream>
#include <memory>
#include <string>

#include "cli/common.hpp"
#include "cli/subcommands.hpp"

int main(int argc, char** argv) {
  return geotruth::cli::run_command_line(argc, argv, geotruth::cli::Executable::geotruth,
                                         geotruth::cli::light_subcommands());
}
