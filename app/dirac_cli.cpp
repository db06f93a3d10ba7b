// dirac: the headless command line. Parses arguments and composes core; no physics here.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "dirac/model.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"

namespace {

constexpr const char* kUsage =
    "usage:\n"
    "  dirac run SCENARIO [--set NAME=VALUE]... [--t-end T] [--csv FILE] [--formulation F]\n"
    "            [--quiet]\n"
    "      integrate the scenario; write the trajectory as CSV to FILE (stdout if omitted);\n"
    "      F overrides the file's formulation: auto, lagrange_dirac, constraint_algorithm,\n"
    "      vakonomic\n"
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
    "  dirac --help\n"
    "common options:\n"
    "  --timeout SECONDS  give up after SECONDS of wall time (exit 1, naming the file and the\n"
    "                     stage: reading, deriving, integrating, solving, writing)\n";

struct UsageError {
  std::string message;
};

struct Options {
  std::string command, scenario, csv, formulation;
  std::vector<std::string> overrides;
  std::optional<double> t_end;
  std::optional<double> timeout;
  bool latex = false, quiet = false, json = false;
};

double ParseNumber(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0')
    throw UsageError{flag + " expects a number, got '" + text + "'"};
  return value;
}

Options ParseArguments(int argc, char** argv) {
  Options o;
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
    } else if (a == "--formulation") {
      o.formulation = value();
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--latex") {
      o.latex = true;
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError{"unknown option '" + a + "'"};
    } else if (o.command.empty()) {
      o.command = a;
    } else if (o.scenario.empty()) {
      o.scenario = a;
    } else {
      throw UsageError{"unexpected argument '" + a + "'"};
    }
  }
  if (o.command.empty()) throw UsageError{"no command given"};
  if (o.command != "help" && o.scenario.empty()) throw UsageError{"no scenario file given"};
  return o;
}

// ---- what the process is doing, for --timeout and error messages ----------------------------

std::string g_file;  // the scenario path (set once, before the watchdog)
std::atomic<const char*> g_stage{"reading the scenario"};

void SetStage(const char* stage) { g_stage.store(stage); }

// Ends the process with exit status 1 after `seconds` of wall time unless Stop() comes first.
// GiNaC and SUNDIALS calls cannot be interrupted, so the watchdog does not ask: it writes the
// message with write(2), removes the temporaries of atomic writes in progress and _exits.
class Watchdog {
 public:
  explicit Watchdog(double seconds) {
    thread_ = std::thread([this, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return stop_; }))
        return;
      char message[1024];
      const int n = std::snprintf(message, sizeof message,
                                  "dirac: %s: timed out after %g s while %s (--timeout)\n",
                                  g_file.c_str(), seconds, g_stage.load());
      if (n > 0) {
        const ssize_t ignored = ::write(2, message, std::min<std::size_t>(n, sizeof message - 1));
        (void)ignored;
      }
      dirac::RemovePendingTemporaryFiles();
      ::_exit(1);
    });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

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
  input.row_sink = StreamInto(writer);
  SetStage("integrating");
  const dirac::Trajectory trajectory = model->Simulate(input, {}, &report);
  const auto done = std::chrono::steady_clock::now();
  SetStage("writing the CSV");
  writer.Finish();
  if (!o.quiet) {
    using ms = std::chrono::duration<double, std::milli>;
    std::fprintf(stderr,
                 "%s: %zu samples to t = %g, %ld IDAS steps; derive %.1f ms, integrate %.1f ms\n"
                 "  max |constraint residual| = %.3e, max |E - E0| = %.3e (E0 = %.17g)%s\n",
                 scenario.name.c_str(), trajectory.rows_appended(),
                 trajectory.at(trajectory.num_rows() - 1, 0), report.internal_steps,
                 ms(derived - start).count(), ms(done - derived).count(),
                 report.max_constraint_residual, report.max_energy_drift, report.initial_energy,
                 o.csv.empty() ? "" : ("\n  wrote " + o.csv).c_str());
    std::fprintf(stderr, "  IDAS: %ld error-test failures, %ld Newton failures, last order %d\n",
                 report.error_test_failures, report.nonlinear_failures, report.last_order);
    if (report.initial_projection > 0)
      std::fprintf(stderr,
                   model->constraint_chain()
                       ? "  initial values fixed by the constraints of M_f changed by %.3e\n"
                       : "  initial velocity projected onto the constraint by %.3e\n",
                   report.initial_projection);
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
  const dirac::GaugeTwoForm* gauge = model->gauge_two_form();
  if (!gauge)
    throw dirac::ModelError(scenario.source_file + ": this model (" + model->formulation() +
                            ") has no gauge two-form: it needs a regular Lagrangian on TQ");
  SetStage("integrating the gauge two-form");
  const dirac::Trajectory tr = gauge->Compute(dirac::SimulationInput::FromScenario(scenario));
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
  const auto model = dirac::BuildModel(scenario);
  SetStage("solving the optimal-control problem");
  const dirac::OptimalControlSolution solution = dirac::SolveOptimalControl(*model, scenario);
  const dirac::SolveReport& report = solution.report;
  if (o.json) {
    std::printf("%s\n", dirac::SolveReportToJson(report, solution.cost).c_str());
  } else if (report.converged) {
    std::printf("cost = %.17g\n", solution.cost);
    const dirac::ExplicitFlow& flow = *model->explicit_flow();
    const auto x0 = model->FlowState(dirac::SimulationInput::FromScenario(solution.solved));
    for (std::size_t k = 0; k < flow.dimension(); ++k)
      std::printf("%s(0) = %.17g\n", flow.states[k].c_str(), x0[k]);
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
    if (!o.quiet)
      std::fprintf(stderr, "  Pontryagin H drift %.3e on the samples; wrote %s\n",
                   solution.hamiltonian_drift, o.csv.c_str());
  }
  return 0;
}

int Analyze(const Options& o) {
  dirac::Scenario scenario = LoadWithOverrides(o);
  if (scenario.formulation == dirac::Formulation::kAuto ||
      scenario.formulation == dirac::Formulation::kLagrangeDirac)
    scenario.formulation = dirac::Formulation::kConstraintAlgorithm;  // analyse even regular L
  SetStage("running the constraint algorithm");
  const auto system = dirac::ConstrainedSystem::Analyze(scenario);
  if (o.json) {
    std::fputs(dirac::ChainToJson(system->chain()).c_str(), stdout);
  } else {
    std::printf("# %s\n", scenario.name.c_str());
    std::fputs(dirac::FormatChain(system->chain()).c_str(), stdout);
  }
  return 0;
}

// "FILE: message" unless the message already names the file.
std::string NamingTheFile(const std::string& message) {
  if (g_file.empty() || message.find(g_file) != std::string::npos) return message;
  return g_file + ": " + message;
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
      std::fputs(kUsage, stdout);
      return CheckStandardOutput(0);
    }
    g_file = o.scenario;
    std::optional<Watchdog> watchdog;
    if (o.timeout) watchdog.emplace(*o.timeout);
    status = Dispatch(o);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "dirac: %s\n%s", e.message.c_str(), kUsage);
    status = 2;
  } catch (const dirac::Error& e) {
    std::fprintf(stderr, "dirac: %s\n", NamingTheFile(e.what()).c_str());
    status = 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "dirac: %s: out of memory while %s\n", g_file.c_str(), g_stage.load());
    status = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dirac: internal error: %s\n",
                 NamingTheFile(std::string(e.what()) + " (while " + g_stage.load() + ")").c_str());
    status = 3;
  }
  return CheckStandardOutput(status);
}
