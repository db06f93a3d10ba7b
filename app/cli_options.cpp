#include "cli_options.hpp"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "dirac/families.hpp"

namespace dirac::cli {
namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  dirac run SCENARIO [--set NAME=VALUE]... [--t-end T] [--csv FILE] [--formulation F]\n"
    "            [--section EXPR [--direction +|-|both]] [--quiet]\n"
    "      integrate the scenario; write the trajectory as CSV to FILE (stdout if omitted);\n"
    "      F overrides the file's formulation: auto, lagrange_dirac, constraint_algorithm,\n"
    "      vakonomic; --section writes instead the Poincare section: the states where EXPR\n"
    "      (of the columns) crosses zero upwards (--direction: + default, -, both),\n"
    "      interpolated to the crossing\n"
    "  dirac equations SCENARIO [--set NAME=VALUE]... [--latex]\n"
    "      print the equations the engine derives from the scenario\n"
    "  dirac analyze SCENARIO [--set NAME=VALUE]... [--json]\n"
    "      run the Gotay-Nester-Hinds constraint algorithm and print the chain M0 > M1 > ...\n"
    "  dirac solve SCENARIO [--set NAME=VALUE]... [--csv FILE] [--json]\n"
    "      solve the scenario's optimal-control (or boundary-value) problem by multiple\n"
    "      shooting with exact sensitivities; print the cost, the solved initial values and\n"
    "      the convergence report (--json: the report as JSON on stdout)\n"
    "  dirac gauge SCENARIO [--set NAME=VALUE]... [--t-end T] [--csv FILE]\n"
    "      integrate the nonholonomic flow with its Jacobian and the gauge two-form B_t\n"
    "  dirac sweep SCENARIO --vary NAME=START:STOP:COUNT... [--random NAME=LO:HI:COUNT...\n"
    "            [--seed S]] [--jobs N] [--shard K/N] [--set NAME=VALUE]... [--t-end T]\n"
    "            [--no-trajectories] [--no-wall-time] [--quiet] --out DIR\n"
    "      run the scenario for every point of a grid (--vary: COUNT values from START to\n"
    "      STOP; several --vary make a Cartesian product) and/or COUNT uniform random samples\n"
    "      (--random, seeded; several --random share one COUNT), deriving the model once and\n"
    "      running N threads (0: all cores); writes DIR/run-<i>.csv and DIR/summary.csv;\n"
    "      --shard K/N runs the runs i with i mod N = K-1 into summary-shard-K-of-N.csv\n"
    "  dirac sweep --merge DIR_OR_TABLE... --out DIR\n"
    "      join the shard tables into DIR/summary.csv, as one process would have written it\n"
    "  dirac linearize SCENARIO [--set NAME=VALUE]... [--ignorable Q,...] [--speeds V,...]\n"
    "            [--find] [--json] [--vary NAME=START:STOP:COUNT [--csv FILE]]\n"
    "      linearize about the scenario's state (an equilibrium or steady motion; --find:\n"
    "      Newton from it) on the constraint manifold: A (and B), eigenvalues, modes; --vary\n"
    "      sweeps NAME, writes the eigenvalue branches to FILE and names the critical values\n"
    "  dirac linearize SCENARIO --along RUN.csv [--set ...] [--ignorable Q,...] [--speeds V,...]\n"
    "            [--csv FILE | --json]\n"
    "      A(t), B(t) on the constraint manifold at every row of a run of the scenario (the\n"
    "      CSV of 'dirac run --csv'), the chart chosen at the first row; CSV to FILE or stdout\n"
    "  dirac generate FAMILY N [-o FILE]\n"
    "      write the scenario of a generated family at size N (stdout if no FILE); FAMILY:\n"
    "%FAMILIES%"
    "  dirac --help\n"
    "common options:\n"
    "  --timeout SECONDS  give up after SECONDS of wall time (exit 1, naming the file and the\n"
    "                     stage: reading, deriving, integrating, solving, writing)\n";

}  // namespace

std::string UsageText() {
  std::string families;
  for (const dirac::FamilyInfo& f : dirac::Families())
    families += "        " + std::string(f.name) + " (N = " + std::to_string(f.min_size) + " ... " +
                std::to_string(f.max_size) + "): " + std::string(f.summary) + "\n";
  std::string text = kUsage;
  text.replace(text.find("%FAMILIES%"), 10, families);
  return text;
}

double ParseNumber(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0')
    throw UsageError{flag + " expects a number, got '" + text + "'"};
  return value;
}

Options ParseArguments(int argc, char** argv) {
  Options o;
  std::vector<std::string> operands;  // after the command: the scenario, or --merge's inputs
  std::vector<std::string> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError{a + " needs a value"};
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      o.command = "help";
    } else if (a == "--set") {
      o.overrides.push_back(value());
    } else if (a.rfind("--set=", 0) == 0) {
      o.overrides.push_back(a.substr(6));
    } else if (a == "--t-end") {
      o.t_end = ParseNumber(a, value());
    } else if (a == "--timeout") {
      o.timeout = ParseNumber(a, value());
      if (!(*o.timeout > 0) || !std::isfinite(*o.timeout))
        throw UsageError{"--timeout expects a positive number of seconds"};
    } else if (a == "--csv") {
      o.csv = value();
    } else if (a == "-o" || a == "--output") {
      o.output = value();
    } else if (a == "--section") {
      o.section = value();
    } else if (a == "--direction") {
      o.direction = value();
    } else if (a == "--formulation") {
      o.formulation = value();
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--latex") {
      o.latex = true;
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (a == "--vary") {
      o.vary.push_back(value());
    } else if (a == "--random") {
      o.random.push_back(value());
    } else if (a == "--seed") {
      o.seed = value();
    } else if (a == "--jobs" || a == "-j") {
      o.jobs = value();
    } else if (a == "--shard") {
      o.shard = value();
    } else if (a == "--out") {
      o.out = value();
    } else if (a == "--merge") {
      o.merge = true;
    } else if (a == "--no-trajectories") {
      o.no_trajectories = true;
    } else if (a == "--ignorable") {
      o.ignorable.push_back(value());
    } else if (a == "--speeds") {
      o.speeds.push_back(value());
    } else if (a == "--find") {
      o.find = true;
    } else if (a == "--along") {
      o.along = value();
    } else if (a == "--no-wall-time") {
      o.no_wall_time = true;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError{"unknown option '" + a + "'"};
    } else if (o.command.empty()) {
      o.command = a;
    } else {
      operands.push_back(a);
    }
  }
  if (o.command.empty()) throw UsageError{"no command given"};
  if (o.merge && o.command != "sweep") throw UsageError{"--merge belongs to 'dirac sweep'"};
  if (o.merge) {
    o.merge_inputs = operands;
    if (operands.empty()) throw UsageError{"--merge needs the shard folders or tables to join"};
  } else if (o.command == "generate") {
    if (operands.size() != 2) throw UsageError{"generate expects FAMILY N"};
    o.family = operands[0];
    o.family_size = operands[1];
  } else if (operands.size() > 1) {
    throw UsageError{"unexpected argument '" + operands[1] + "'"};
  } else if (!operands.empty()) {
    o.scenario = operands[0];
  }
  if (!o.output.empty() && o.command != "generate")
    throw UsageError{"-o belongs to 'dirac generate' (run and solve write CSV with --csv)"};
  if (o.command != "help" && o.command != "generate" && !o.merge && o.scenario.empty())
    throw UsageError{"no scenario file given"};
  if ((!o.section.empty() || !o.direction.empty()) && o.command != "run")
    throw UsageError{"--section and --direction belong to 'dirac run'"};
  if (!o.direction.empty() && o.section.empty())
    throw UsageError{"--direction needs --section EXPR"};
  if (!o.direction.empty() && o.direction != "+" && o.direction != "-" && o.direction != "both")
    throw UsageError{"--direction expects +, - or both"};
  if ((!o.ignorable.empty() || !o.speeds.empty() || o.find || !o.along.empty()) &&
      o.command != "linearize")
    throw UsageError{"--ignorable, --speeds, --find and --along belong to 'dirac linearize'"};
  const bool sweep_flags = (!o.vary.empty() && o.command != "linearize") || !o.random.empty() ||
                           o.seed || o.jobs || o.shard || !o.out.empty() || o.no_trajectories ||
                           o.no_wall_time;
  if (sweep_flags && o.command != "sweep" && o.command != "help")
    throw UsageError{
        "--vary, --random, --seed, --jobs, --shard, --out, --no-trajectories and "
        "--no-wall-time belong to 'dirac sweep'"};
  return o;
}

}  // namespace dirac::cli
