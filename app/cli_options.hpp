#pragma once
// The command line of `dirac`: its options, the usage text and the parsing of argv (which
// command, which flags belong to it). No command runs here.

#include <optional>
#include <string>
#include <vector>

namespace dirac::cli {

/// A command line `dirac` cannot run; main prints the message and the usage (exit status 2).
struct UsageError {
  std::string message;
};

/// The parsed command line; which flags are set is checked against the command by
/// ParseArguments.
struct Options {
  std::string command, scenario, csv, formulation;
  // run: the Poincaré section's expression and direction (+, -, both)
  std::string section, direction;
  std::string family, family_size, output;  // generate
  std::vector<std::string> overrides;
  std::optional<double> t_end;
  std::optional<double> timeout;
  bool latex = false, quiet = false, json = false;
  // sweep
  std::vector<std::string> vary, random, merge_inputs;
  std::optional<std::string> seed, jobs, shard;
  std::string out;
  bool merge = false, no_trajectories = false, no_wall_time = false;
  // linearize (also --vary, --csv, --json)
  std::vector<std::string> ignorable, speeds;
  std::string along;  ///< --along RUN.csv: A(t), B(t) along the run
  bool find = false;
};

/// The usage text, with the generated families (name, sizes, summary) listed.
std::string UsageText();

/// `text` as a number; throws UsageError naming `flag` if it is not one.
double ParseNumber(const std::string& flag, const std::string& text);

/// Parses argv[1..argc): the command, its operands and flags. Throws UsageError for an unknown
/// option, a missing value or operand, or a flag that belongs to another command.
Options ParseArguments(int argc, char** argv);

}  // namespace dirac::cli
