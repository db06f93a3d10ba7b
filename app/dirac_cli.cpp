// dirac: the headless command line. Runs the commands by composing core; no physics here. The
// general arguments are parsed in cli_options.cpp and the sweep's (--vary, --random, --shard)
// here; the stage, heartbeat and --timeout live in cli_progress.cpp.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "cli_linearize.hpp"
#include "cli_options.hpp"
#include "cli_progress.hpp"
#include "dirac/build_model.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "dirac/gauge_two_form.hpp"
#include "dirac/model.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/parse_once.hpp"
#include "dirac/poincare_section.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "dirac/sweep.hpp"

namespace {

using namespace dirac::cli;

dirac::Scenario LoadWithOverrides(const Options& o) {
  SetStage("reading the scenario");
  dirac::Scenario scenario = dirac::LoadScenario(o.scenario);
  // All overrides at once: the settings are checked together (--t-end with --set output_step).
  std::vector<std::string> assignments = o.overrides;
  if (o.t_end) {
    char text[64];
    std::snprintf(text, sizeof text, "t_end=%.17g", *o.t_end);
    assignments.emplace_back(text);
  }
  dirac::ApplyOverrides(scenario, assignments);
  if (!o.formulation.empty()) dirac::SetFormulation(scenario, o.formulation);
  return scenario;
}

// Streams the rows of a run to `writer`: the header with the first row.
dirac::Trajectory::RowSink StreamInto(dirac::CsvWriter& writer) {
  return [&writer, header = false](const std::vector<std::string>& columns,
                                   const double* row) mutable {
    if (!header) writer.WriteHeader(columns);
    header = true;
    writer.WriteRow(row, columns.size());
  };
}

// Exit statuses (docs/cli.md): 0 success, 1 error, 2 usage, 3 a run that finished but diverged
// (SimulationReport::diverged_at), 4 internal error, 130 interrupted sweep.
constexpr int kExitDiverged = 3;
constexpr int kExitInternalError = 4;

int Run(const Options& o) {
  const dirac::Scenario scenario = LoadWithOverrides(o);
  const auto start = std::chrono::steady_clock::now();
  SetStage("deriving the equations");
  const auto model = dirac::BuildModel(scenario);
  const auto derived = std::chrono::steady_clock::now();
  dirac::SimulationReport report;
  // Samples go to the CSV (or stdout) as they are computed: memory does not grow with t_end.
  dirac::CsvWriter writer =
      o.csv.empty() ? dirac::CsvWriter::ToStandardOutput() : dirac::CsvWriter(o.csv);
  dirac::SimulationInput input = dirac::SimulationInput::FromScenario(scenario);
  // --section: the rows go through the section's detector, which writes the crossings.
  std::unique_ptr<dirac::SectionFunction> section;
  std::unique_ptr<dirac::SectionDetector> detector;
  if (!o.section.empty()) {
    const std::vector<std::string> columns = model->TrajectoryColumns();
    section = std::make_unique<dirac::SectionFunction>(o.section, columns, scenario.source_file, 0,
                                                       "--section");
    writer.WriteHeader(columns);
    detector = std::make_unique<dirac::SectionDetector>(
        *section,
        dirac::ParseCrossingDirection(o.direction.empty() ? "+" : o.direction, "--direction"),
        [&writer, n = columns.size()](const double* row) { writer.WriteRow(row, n); });
    input.row_sink = [&detector, columns](const std::vector<std::string>& names,
                                          const double* row) {
      if (names != columns)
        throw dirac::Error("--section: the run's columns differ from the model's");
      detector->AddRow(row);
    };
  } else {
    input.row_sink = StreamInto(writer);
  }
  SetStage("integrating");
  const dirac::Trajectory trajectory = model->Simulate(input, {}, &report);
  const auto done = std::chrono::steady_clock::now();
  SetStage("writing the CSV");
  if (detector) detector->Finish();
  writer.Finish();
  if (!o.quiet) {
    using ms = std::chrono::duration<double, std::milli>;
    std::fprintf(stderr,
                 "%s: %zu samples to t = %g, %ld steps; derive %.1f ms, integrate %.1f ms\n"
                 "  max |constraint residual| = %.3e, max |E - E0| = %.3e (E0 = %.17g)%s\n",
                 scenario.name.c_str(), trajectory.rows_appended(),
                 trajectory.at(trajectory.num_rows() - 1, 0), report.internal_steps,
                 ms(derived - start).count(), ms(done - derived).count(),
                 report.max_constraint_residual, report.max_energy_drift, report.initial_energy,
                 o.csv.empty() ? "" : ("\n  wrote " + o.csv).c_str());
    if (detector)
      std::fprintf(stderr, "  section %s = 0 (%s): %zu crossings\n", o.section.c_str(),
                   o.direction.empty() ? "+" : o.direction.c_str(), detector->crossings());
    std::fprintf(stderr,
                 "  %s: %ld right-hand sides, %ld error-test failures, %ld nonlinear-solver "
                 "failures, last order %d, %ld restarts after projection\n",
                 report.method.c_str(), report.rhs_evaluations, report.error_test_failures,
                 report.nonlinear_failures, report.last_order, report.projections);
    if (!report.tape.empty()) std::fprintf(stderr, "  tapes: %s\n", report.tape.c_str());
    if (!report.solved_initial_values.empty()) {
      std::string names;
      for (const auto& name : report.solved_initial_values)
        names += (names.empty() ? "" : ", ") + name;
      std::fprintf(stderr, "  initial values solved from the constraints: %s\n", names.c_str());
    }
    if (report.initial_projection > 0)
      std::fprintf(stderr,
                   model->constraint_chain()
                       ? "  initial values fixed by the constraints of M_f changed by %.3e\n"
                       : "  initial velocity projected onto the constraint by %.3e\n",
                   report.initial_projection);
  }
  if (report.diverged_at) {
    // The CSV is complete; its numbers past diverged_at cannot be trusted (docs/robustness.md).
    std::fprintf(stderr,
                 "dirac: %s: the run diverged at t = %.17g: %s; its results cannot be trusted "
                 "(exit status 3)\n",
                 scenario.source_file.c_str(), *report.diverged_at, report.divergence.c_str());
    return kExitDiverged;
  }
  return 0;
}

int Equations(const Options& o) {
  const dirac::Scenario scenario = LoadWithOverrides(o);
  SetStage("deriving the equations");
  const auto model = dirac::BuildModel(scenario);
  const auto format = o.latex ? dirac::EquationFormat::kLatex : dirac::EquationFormat::kPlain;
  std::printf("# %s: %s\n", scenario.name.c_str(), model->formulation().c_str());
  for (const auto& eq : model->Equations(format))
    std::printf("%s: %s\n", eq.label.c_str(), eq.text.c_str());
  return 0;
}

int Gauge(const Options& o) {
  const dirac::Scenario scenario = LoadWithOverrides(o);
  SetStage("deriving the equations");
  const auto model = dirac::BuildModel(scenario);
  const dirac::SimulationInput input = dirac::SimulationInput::FromScenario(scenario);
  dirac::Trajectory tr;
  if (const dirac::GaugeTwoForm* gauge = model->gauge_two_form()) {
    SetStage("integrating the gauge two-form");
    tr = gauge->Compute(input);
  } else if (model->constraint_names().empty()) {
    // Without constraints B_t vanishes identically (seed D Remark 2.9): the model does not offer
    // it, but asked for by name it is derived here, and shows phi_t^* Omega = Omega.
    SetStage("deriving and integrating the gauge two-form");
    tr = dirac::ComputeGaugeTwoForm(scenario, input);
  } else {
    throw dirac::ModelError(scenario.source_file + ": this model (" + model->formulation() +
                            ") has no gauge two-form: it needs a regular Lagrangian on TQ");
  }
  SetStage("writing the CSV");
  if (o.csv.empty()) {
    dirac::CsvWriter out = dirac::CsvWriter::ToStandardOutput();
    out.WriteHeader(tr.columns());
    for (std::size_t r = 0; r < tr.num_rows(); ++r) out.WriteRow(tr.row(r), tr.num_columns());
    out.Finish();
  } else {
    dirac::WriteCsv(tr, o.csv);
  }
  if (!o.quiet) {
    auto max_of = [&](const char* name) {
      double m = 0.0;
      for (double v : tr.Column(name)) m = std::max(m, std::abs(v));
      return m;
    };
    std::fprintf(stderr,
                 "%s: gauge two-form to t = %g: max |B_t| on K = %.3e (on T Delta_Q %.3e), "
                 "max |phi_t^* Omega - Omega| = %.3e,\n  identity residual "
                 "|phi_t^* Omega - Omega - B_t| <= %.3e%s\n",
                 scenario.name.c_str(), tr.at(tr.num_rows() - 1, 0), max_of("B_norm"),
                 max_of("B_full_norm"), max_of("omega_change"), max_of("identity_residual"),
                 o.csv.empty() ? "" : ("\n  wrote " + o.csv).c_str());
  }
  return 0;
}

int Solve(const Options& o) {
  const dirac::Scenario scenario = LoadWithOverrides(o);
  SetStage("deriving the equations");
  // Collocation derives its own controlled equations: no Pontryagin model (which a
  // minimum-time cost would not even admit).
  const bool collocation =
      dirac::ChosenMethod(scenario) == dirac::OptimalControlMethod::kCollocation;
  const auto model = collocation ? nullptr : dirac::BuildModel(scenario);
  SetStage("solving the optimal-control problem");
  dirac::SolveOptions options;
  options.progress = [collocation](const dirac::NewtonIterate& it) {
    char text[160];
    if (collocation)
      std::snprintf(text, sizeof text, "interior-point iteration %d, constraint violation %.3e",
                    it.iteration, it.residual);
    else
      std::snprintf(text, sizeof text, "Newton iteration %d (continuation s = %g), max|F| = %.3e",
                    it.iteration, it.continuation, it.residual);
    SetDetail(text);
    return true;
  };
  const dirac::OptimalControlSolution solution =
      collocation ? dirac::SolveOptimalControl(scenario, options)
                  : dirac::SolveOptimalControl(*model, scenario, options);
  const dirac::SolveReport& report = solution.report;
  if (o.json) {
    std::printf("%s\n", dirac::SolveReportToJson(report, solution.cost).c_str());
  } else if (report.converged && collocation) {
    std::printf("cost = %.17g\nfinal_time = %.17g\n", solution.cost, report.final_time);
  } else if (report.converged) {
    std::printf("cost = %.17g\n", solution.cost);
    const std::vector<std::string> states = model->FlowStateNames();
    const auto x0 = model->FlowState(dirac::SimulationInput::FromScenario(solution.solved));
    for (std::size_t k = 0; k < states.size(); ++k)
      std::printf("%s(0) = %.17g\n", states[k].c_str(), x0[k]);
  }
  if (!o.quiet)
    std::fprintf(stderr, "%s: %s\n", scenario.name.c_str(),
                 dirac::FormatSolveReport(report, solution.cost).c_str());
  if (!report.converged)
    throw dirac::NumericalError(scenario.source_file +
                                ": the solve did not converge: " + report.message);
  if (!o.csv.empty()) {
    SetStage("writing the CSV");
    dirac::WriteCsv(solution.trajectory, o.csv);
    if (!o.quiet && collocation && !report.polished)
      std::fprintf(stderr, "  the optimum at the %d collocation intervals' nodes; wrote %s\n",
                   report.nodes, o.csv.c_str());
    else if (!o.quiet)
      std::fprintf(stderr, "  Pontryagin H drift %.3e on the samples; wrote %s\n",
                   solution.hamiltonian_drift, o.csv.c_str());
  }
  return 0;
}

// ---- dirac sweep: argument parsing and progress printing; the sweep itself is core's RunSweep.

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void OnInterrupt(int) { g_interrupted.store(true); }

std::uint64_t ParseWhole(const std::string& flag, const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19)
    throw UsageError{flag + " expects a whole number, got '" + text + "'"};
  return std::stoull(text);
}

// NAME=A:B:COUNT (--vary START:STOP:COUNT, --random LO:HI:COUNT).
struct AxisArgument {
  std::string name;
  double a = 0.0, b = 0.0;
  std::size_t count = 0;
};

AxisArgument ParseAxis(const std::string& flag, const std::string& text, const char* form) {
  const std::string expected = flag + " expects " + form + ", got '" + text + "'";
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError{expected};
  std::vector<std::string> parts;
  std::size_t pos = eq + 1;
  for (;;) {
    const std::size_t colon = text.find(':', pos);
    parts.push_back(text.substr(pos, colon == std::string::npos ? colon : colon - pos));
    if (colon == std::string::npos) break;
    pos = colon + 1;
  }
  if (parts.size() != 3) throw UsageError{expected};
  AxisArgument axis;
  axis.name = text.substr(0, eq);
  axis.a = ParseNumber(flag + " " + axis.name, parts[0]);
  axis.b = ParseNumber(flag + " " + axis.name, parts[1]);
  axis.count = ParseWhole(flag + " " + axis.name + " COUNT", parts[2]);
  if (axis.count < 1) throw UsageError{flag + " " + axis.name + ": COUNT must be at least 1"};
  return axis;
}

dirac::SweepShard ParseShard(const std::string& text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) throw UsageError{"--shard expects K/N, got '" + text + "'"};
  dirac::SweepShard shard;
  shard.index = ParseWhole("--shard K", text.substr(0, slash));
  shard.count = ParseWhole("--shard N", text.substr(slash + 1));
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count)
    throw UsageError{"--shard " + text + ": K must be in 1..N"};
  return shard;
}

int MergeSweep(const Options& o) {
  if (!o.vary.empty() || !o.random.empty() || o.seed || o.jobs || o.shard || !o.overrides.empty() ||
      o.t_end || o.no_trajectories || o.no_wall_time)
    throw UsageError{"sweep --merge takes only the shard folders or tables and --out DIR"};
  const dirac::SweepMergeResult merged = dirac::MergeSweepShards(o.merge_inputs, o.out);
  if (!o.quiet)
    std::fprintf(stderr, "sweep: merged %zu shards, %zu runs into %s\n", merged.shards, merged.runs,
                 merged.summary_path.c_str());
  return 0;
}

int Sweep(const Options& o) {
  if (o.out.empty()) throw UsageError{"sweep needs --out DIR"};
  if (o.merge) return MergeSweep(o);
  if (o.vary.empty() && o.random.empty())
    throw UsageError{
        "sweep needs at least one --vary NAME=START:STOP:COUNT or --random "
        "NAME=LO:HI:COUNT"};
  if (o.seed && o.random.empty()) throw UsageError{"--seed is for --random samples"};

  dirac::SweepPlan plan;
  for (const auto& text : o.vary) {
    const AxisArgument a = ParseAxis("--vary", text, "NAME=START:STOP:COUNT");
    plan.grid.push_back({a.name, a.a, a.b, a.count});
  }
  for (const auto& text : o.random) {
    const AxisArgument a = ParseAxis("--random", text, "NAME=LO:HI:COUNT");
    if (plan.random_count && a.count != plan.random_count)
      throw UsageError{"--random " + a.name + ": COUNT " + std::to_string(a.count) +
                       " differs from the " + std::to_string(plan.random_count) +
                       " of the first --random (the random names are drawn together, one "
                       "COUNT for all)"};
    if (a.a > a.b) throw UsageError{"--random " + a.name + ": LO must not exceed HI"};
    plan.random_count = a.count;
    plan.random.push_back({a.name, a.a, a.b});
  }
  plan.seed = o.seed ? ParseWhole("--seed", *o.seed) : 0;

  dirac::SweepOptions options;
  options.out_dir = o.out;
  options.jobs = o.jobs ? ParseWhole("--jobs", *o.jobs) : 1;
  if (o.shard) options.shard = ParseShard(*o.shard);
  options.write_trajectories = !o.no_trajectories;
  options.wall_time = !o.no_wall_time;
  const dirac::SweepPoints points(plan);  // checks the plan before the derivation

  const dirac::Scenario scenario = LoadWithOverrides(o);
  const auto model = dirac::BuildModel(scenario);

  // Ctrl+C (and Slurm's SIGTERM): no new runs, runs in progress cut short, table of the rest.
  std::signal(SIGINT, OnInterrupt);
  std::signal(SIGTERM, OnInterrupt);
  const bool tty = ::isatty(2);
  double last_print = -1.0;
  std::size_t last_decile = 0;
  auto progress = [&](const dirac::SweepProgress& p) {
    if (o.quiet) return;
    if (!p.last_failure.empty())
      std::fprintf(stderr, "%ssweep: run %zu failed: %s\n", tty ? "\r\033[K" : "", p.last_run,
                   p.last_failure.c_str());
    const bool last = p.finished == p.total;
    if (tty) {
      if (last || p.elapsed_seconds - last_print >= 0.2) {
        std::fprintf(stderr, "\rsweep: %zu/%zu runs, %zu failed, %.1f s%s", p.finished, p.total,
                     p.failed, p.elapsed_seconds, last ? "\n" : "");
        last_print = p.elapsed_seconds;
      }
    } else if (const std::size_t decile = 10 * p.finished / p.total; decile > last_decile) {
      std::fprintf(stderr, "sweep: %zu/%zu runs, %zu failed, %.1f s\n", p.finished, p.total,
                   p.failed, p.elapsed_seconds);
      last_decile = decile;
    }
    std::fflush(stderr);
  };
  const dirac::SweepResult result =
      dirac::RunSweep(*model, scenario, plan, options, progress, &g_interrupted);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (result.interrupted) {
    std::fprintf(stderr,
                 "%ssweep: interrupted: %zu of %zu runs completed (%zu failed); their table is "
                 "%s\n",
                 tty && !o.quiet ? "\n" : "", result.completed, result.planned, result.failed,
                 result.summary_path.c_str());
    return 130;
  }
  if (!o.quiet)
    std::fprintf(stderr,
                 "sweep: %zu runs (%zu failed, %zu diverged) of %zu in %.2f s with %zu thread(s); "
                 "wrote %s\n",
                 result.completed, result.failed, result.diverged, points.size(),
                 result.elapsed_seconds, options.jobs, result.summary_path.c_str());
  return 0;
}

int Analyze(const Options& o) {
  const dirac::Scenario scenario = LoadWithOverrides(o);
  SetStage("running the constraint algorithm");
  const dirac::ConstraintChain chain = dirac::AnalyzeChain(scenario);
  if (o.json) {
    std::fputs(dirac::ChainToJson(chain).c_str(), stdout);
  } else {
    std::printf("# %s\n", scenario.name.c_str());
    std::fputs(dirac::FormatChain(chain).c_str(), stdout);
  }
  return 0;
}

// dirac generate FAMILY N [-o FILE]: a family's scenario (core's GenerateFamilyScenario).
int Generate(const Options& o) {
  const std::string& n = o.family_size;
  if (n.empty() || n.size() > 6 || n.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError{"generate: N must be a whole number, got '" + n + "'"};
  try {
    if (o.output.empty()) {
      std::fputs(dirac::GenerateFamilyScenario(o.family, std::stoi(n)).c_str(), stdout);
      return 0;
    }
    dirac::WriteFamilyScenario(o.family, std::stoi(n), o.output);
  } catch (const dirac::FamilyError& e) {
    throw UsageError{std::string("generate: ") + e.what()};
  }
  if (!o.quiet) std::fprintf(stderr, "dirac: wrote %s\n", o.output.c_str());
  return 0;
}

// Everything written to stdout went out (a full disk or a file-size limit is an error).
int CheckStandardOutput(int status) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int error = errno;
    std::fprintf(stderr, "dirac: cannot write to standard output: %s\n",
                 error ? std::strerror(error) : "write error");
    return status == 0 ? 1 : status;
  }
  return status;
}

int Dispatch(const Options& o) {
  if (o.command == "run") return Run(o);
  if (o.command == "equations") return Equations(o);
  if (o.command == "analyze") return Analyze(o);
  if (o.command == "gauge") return Gauge(o);
  if (o.command == "solve") return Solve(o);
  if (o.command == "sweep") return Sweep(o);
  if (o.command == "generate") return Generate(o);
  if (o.command == "linearize") return dirac::cli::Linearize(o);
  throw UsageError{"unknown command '" + o.command + "'"};
}

}  // namespace

int main(int argc, char** argv) {
  // Past a file-size limit (ulimit -f) a write fails with EFBIG and is reported, instead of
  // SIGXFSZ ending the process with half the output and no message.
  ::signal(SIGXFSZ, SIG_IGN);
  int status = 0;
  try {
    const Options o = ParseArguments(argc, argv);
    if (o.command == "help") {
      std::fputs(UsageText().c_str(), stdout);
      return CheckStandardOutput(0);
    }
    SetScenarioFile(o.scenario);
    std::optional<PeriodicThread> watchdog;
    if (o.timeout)
      watchdog.emplace(*o.timeout, [seconds = *o.timeout](double) { return TimedOut(seconds); });
    // 'sweep' prints its own progress.
    std::optional<PeriodicThread> heartbeat;
    if (!o.quiet && o.command != "sweep") heartbeat.emplace(kHeartbeatSeconds, Heartbeat);
    // One reading of the scenario's expressions for the whole command (dirac/parse_once.hpp).
    const dirac::ParseOnce parse_once;
    status = Dispatch(o);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "dirac: %s\n%s", e.message.c_str(), UsageText().c_str());
    status = 2;
  } catch (const dirac::Error& e) {
    std::fprintf(stderr, "dirac: %s\n", NamingTheFile(e.what()).c_str());
    status = 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "dirac: %s: out of memory while %s\n", ScenarioFile().c_str(), Stage());
    status = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dirac: internal error: %s\n",
                 NamingTheFile(std::string(e.what()) + " (while " + Stage() + ")").c_str());
    status = kExitInternalError;
  }
  return CheckStandardOutput(status);
}
