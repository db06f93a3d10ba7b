// A model's tapes as one batch of machine code (symbolic::NativeTapes, `simulation.tape`):
// bit-identical to the interpreter on every shipped free-dynamics scenario (same CSV bytes), the
// on-disk cache (hit without compiling, damaged entry replaced, concurrent compiles), and every
// failure falling back to the interpreter with a note: missing compiler, failing compiler,
// unwritable cache.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/csv.hpp"
#include "dirac/error.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "symbolic/native_tapes.hpp"

namespace dirac {
namespace {

namespace fs = std::filesystem;

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

// Sets an environment variable for the scope of a test.
class EnvOverride {
 public:
  EnvOverride(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value.c_str(), 1);
  }
  ~EnvOverride() {
    if (had_) {
      ::setenv(name_.c_str(), old_.c_str(), 1);
    } else {
      ::unsetenv(name_.c_str());
    }
  }

 private:
  std::string name_, old_;
  bool had_ = false;
};

// A fresh cache directory, removed afterwards.
class TempDir {
 public:
  explicit TempDir(const std::string& tag)
      : path_(fs::temp_directory_path() /
              ("dirac-native-" + tag + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

std::string Scenario(const std::string& name) {
  return std::string(DIRAC_SOURCE_DIR) + "/scenarios/" + name;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<const CompiledFunction*> Batch(const CompiledDae& dae) {
  std::vector<const CompiledFunction*> out;
  ForEachTape(const_cast<CompiledDae&>(dae), [&](CompiledFunction& f) { out.push_back(&f); });
  return out;
}

// Every tape of the Heisenberg model, as the pipeline compiles them (one batch), gives the
// interpreter's bits on random inputs; a second batch of the same tapes is a cache hit.
TEST(NativeTapes, ModelBatchGivesTheInterpretersBitsAndIsCached) {
  TempDir cache("batch");
  const EnvOverride env("DIRAC_TAPE_CACHE", cache.str());
  const auto system = LagrangeDiracSystem::Derive(LoadScenario(Scenario("heisenberg.yaml")));
  std::string description;
  const CompiledDae& native = TapesOf(*system, TapeMode::kNative, &description);
  if (&native == &CompiledDaeOf(*system)) GTEST_SKIP() << "no machine code: " << description;
  EXPECT_NE(description.find("native"), std::string::npos) << description;
  const auto interpreted = Batch(CompiledDaeOf(*system));
  const auto compiled = Batch(native);
  ASSERT_EQ(interpreted.size(), compiled.size());
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-2, 2);
  for (std::size_t f = 0; f < interpreted.size(); ++f) {
    EXPECT_TRUE(compiled[f]->is_machine_code()) << f;
    EXPECT_FALSE(interpreted[f]->is_machine_code()) << f;
    for (int sample = 0; sample < 300; ++sample) {
      std::vector<double> x(interpreted[f]->num_inputs());
      for (double& v : x) v = u(rng);
      const std::vector<double> a = interpreted[f]->Evaluate(x);
      const std::vector<double> b = compiled[f]->Evaluate(x);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t k = 0; k < a.size(); ++k) ASSERT_TRUE(SameBits(a[k], b[k])) << f << " " << k;
    }
  }
  // One translation unit per model: exactly one cache entry, no temporary left behind.
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(cache.path())) entries.push_back(e.path());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].extension(), ".so");

  // Another batch of the same tapes (a new process would do the same): loaded, not compiled.
  symbolic::NativeTapes again(Batch(CompiledDaeOf(*system)));
  EXPECT_EQ(again.library_path(), entries[0].string());
  EXPECT_TRUE(again.LoadCached());
  EXPECT_FALSE(again.compiled_here());
  // A model derived again from the same file has the same key.
  const auto rederived = LagrangeDiracSystem::Derive(LoadScenario(Scenario("heisenberg.yaml")));
  std::string second;
  const CompiledDae& cached = TapesOf(*rederived, TapeMode::kAuto, &second);
  EXPECT_NE(&cached, &CompiledDaeOf(*rederived)) << second;
  EXPECT_NE(second.find("from the cache"), std::string::npos) << second;
}

// A damaged entry (here: garbage under the key's name) is removed and compiled again.
TEST(NativeTapes, DamagedCacheEntryIsReplaced) {
  TempDir cache("damaged");
  const auto system = LagrangeDiracSystem::Derive(LoadScenario(Scenario("heisenberg.yaml")));
  symbolic::NativeTapeOptions options;
  options.cache_dir = cache.str();
  symbolic::NativeTapes batch(Batch(CompiledDaeOf(*system)), options);
  if (batch.library_path().empty()) GTEST_SKIP() << batch.note();
  std::ofstream(batch.library_path()) << "not a shared object";
  EXPECT_FALSE(batch.LoadCached());
  EXPECT_FALSE(fs::exists(batch.library_path()));
  if (!batch.Compile()) GTEST_SKIP() << "no working C compiler: " << batch.note();
  EXPECT_TRUE(batch.compiled_here());
  const CompiledFunction residual = batch.Native(0);
  std::vector<double> x(residual.num_inputs(), 0.25);
  const auto a = CompiledDaeOf(*system).residual.Evaluate(x);
  const auto b = residual.Evaluate(x);
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(SameBits(a[k], b[k]));
}

// Several compiles of the same entry at once (sweep shards on one machine) all succeed: each
// writes a private temporary file and renames it into place.
TEST(NativeTapes, ConcurrentCompilesOfOneEntryAllSucceed) {
  TempDir cache("concurrent");
  const auto system = LagrangeDiracSystem::Derive(LoadScenario(Scenario("suslov.yaml")));
  symbolic::NativeTapeOptions options;
  options.cache_dir = cache.str();
  {
    symbolic::NativeTapes probe(Batch(CompiledDaeOf(*system)), options);
    if (probe.library_path().empty()) GTEST_SKIP() << probe.note();
  }
  // Separate processes, as `dirac sweep --shard` would be.
  std::vector<pid_t> children;
  for (int c = 0; c < 3; ++c) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      symbolic::NativeTapes batch(Batch(CompiledDaeOf(*system)), options);
      ::_exit(batch.Compile() ? 0 : 1);
    }
    children.push_back(pid);
  }
  int ok = 0;
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  if (ok == 0) GTEST_SKIP() << "no working C compiler";
  EXPECT_EQ(ok, 3);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(cache.path())) {
    ++files;
    EXPECT_EQ(e.path().extension(), ".so") << e.path();
  }
  EXPECT_EQ(files, 1u);
  symbolic::NativeTapes batch(Batch(CompiledDaeOf(*system)), options);
  EXPECT_TRUE(batch.LoadCached());
}

// No compiler: the interpreter runs, with a note, and the results are those of the interpreter.
TEST(NativeTapes, MissingCompilerFallsBackWithANote) {
  TempDir cache("missing");
  const EnvOverride env("DIRAC_TAPE_CACHE", cache.str());
  const EnvOverride cc("DIRAC_CC", "/nonexistent/dirac-no-such-cc");
  const dirac::Scenario scenario = LoadScenario(Scenario("heisenberg.yaml"));
  const auto system = LagrangeDiracSystem::Derive(scenario);
  for (TapeMode mode : {TapeMode::kNative, TapeMode::kAuto}) {
    std::string description;
    EXPECT_EQ(&TapesOf(*system, mode, &description), &CompiledDaeOf(*system));
    EXPECT_NE(description.find("interpreter"), std::string::npos) << description;
    EXPECT_NE(description.find("no C compiler"), std::string::npos) << description;
  }
  SimulationInput input = SimulationInput::FromScenario(scenario);
  input.spec.t_end = 1.0;
  input.spec.tape = TapeMode::kNative;
  SimulationReport report;
  const Trajectory t = system->Simulate(input, {}, &report);
  EXPECT_NE(report.tape.find("no C compiler"), std::string::npos) << report.tape;
  EXPECT_GT(t.num_rows(), 10u);
  EXPECT_TRUE(fs::is_empty(cache.path()));
}

// A compiler that fails, and a cache that cannot be written, are fallbacks too.
TEST(NativeTapes, FailingCompilerAndUnwritableCacheFallBack) {
  const auto system = LagrangeDiracSystem::Derive(LoadScenario(Scenario("heisenberg.yaml")));
  {
    TempDir cache("failing");
    const EnvOverride env("DIRAC_TAPE_CACHE", cache.str());
    const EnvOverride cc("DIRAC_CC", "false");
    symbolic::NativeTapes batch(Batch(CompiledDaeOf(*system)));
    EXPECT_FALSE(batch.Compile());
    EXPECT_NE(batch.note().find("failed"), std::string::npos) << batch.note();
    std::size_t left = 0;
    for (const auto& e : fs::directory_iterator(cache.path())) left += e.exists();
    EXPECT_EQ(left, 0u) << "temporary files left behind";
  }
  {
    const EnvOverride env("DIRAC_TAPE_CACHE", "/dev/null/dirac-tapes");
    const EnvOverride cc("DIRAC_CC", "false");  // found, so the cache is what fails
    symbolic::NativeTapes batch(Batch(CompiledDaeOf(*system)));
    EXPECT_FALSE(batch.Compile());
    EXPECT_NE(batch.note().find("not writable"), std::string::npos) << batch.note();
    batch.CompileInBackground();  // nothing to start: no error either
    EXPECT_FALSE(batch.LoadCached());
  }
}

// The cache stays bounded: past 256 entries the least recently used go, down to 192, and
// temporary files of a compile killed long ago are removed; fresh temporaries stay.
TEST(NativeTapes, CacheIsBoundedAndStaleTemporariesAreRemoved) {
  TempDir cache("prune");
  const auto old_time = fs::file_time_type::clock::now() - std::chrono::hours(2);
  for (int i = 0; i < 300; ++i) {
    const fs::path entry = cache.path() / ("entry" + std::to_string(1000 + i) + ".so");
    std::ofstream(entry) << i;
    fs::last_write_time(entry, old_time + std::chrono::seconds(i));
  }
  const fs::path stale = cache.path() / "x.abc123.c";
  const fs::path fresh = cache.path() / "y.def456.so.part";
  std::ofstream(stale) << "int x;";
  std::ofstream(fresh) << "partial";
  fs::last_write_time(stale, old_time);
  const EnvOverride env("DIRAC_TAPE_CACHE", cache.str());
  const EnvOverride cc("DIRAC_CC", "false");  // the prune runs before any compile
  const auto system = LagrangeDiracSystem::Derive(LoadScenario(Scenario("heisenberg.yaml")));
  symbolic::NativeTapes batch(Batch(CompiledDaeOf(*system)));
  EXPECT_FALSE(batch.Compile());
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(cache.path()))
    entries += e.path().extension() == ".so";
  EXPECT_EQ(entries, 192u);
  EXPECT_FALSE(fs::exists(cache.path() / "entry1000.so"));  // the oldest went
  EXPECT_TRUE(fs::exists(cache.path() / "entry1299.so"));   // the newest stayed
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));
}

// `auto` never waits for the compiler: the first run is interpreted while the compile fills the
// cache in the background; a later run of the same model loads it. Same bytes either way.
TEST(NativeTapes, AutoCompilesInTheBackgroundAndLaterRunsAreNative) {
  TempDir cache("auto");
  const EnvOverride env("DIRAC_TAPE_CACHE", cache.str());
  const dirac::Scenario scenario = LoadScenario(Scenario("heisenberg.yaml"));
  const auto model = BuildModel(scenario);
  SimulationInput input = SimulationInput::FromScenario(scenario);
  input.spec.t_end = 2.0;
  SimulationReport first, later;
  const Trajectory a = model->Simulate(input, {}, &first);
  EXPECT_NE(first.tape.find("interpreter"), std::string::npos) << first.tape;
  if (first.tape.find("background") == std::string::npos)
    GTEST_SKIP() << "no background compile: " << first.tape;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  bool native = false;
  Trajectory b = a;
  while (!native && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    b = model->Simulate(input, {}, &later);
    native = later.tape.rfind("native", 0) == 0;
  }
  if (!native) GTEST_SKIP() << "the background compile did not finish: " << later.tape;
  EXPECT_NE(later.tape.find("from the cache"), std::string::npos) << later.tape;
  ASSERT_EQ(a.num_rows(), b.num_rows());
  for (std::size_t r = 0; r < a.num_rows(); ++r)
    for (std::size_t c = 0; c < a.num_columns(); ++c)
      ASSERT_TRUE(SameBits(a.at(r, c), b.at(r, c))) << r << " " << c;
}

bool IsFreeDynamics(const fs::path& scenario) {
  const std::string text = ReadFile(scenario);
  return text.find("\noptimal_control:") == std::string::npos &&
         text.find("\nboundary_value:") == std::string::npos;
}

std::string RunToCsv(const Model& model, SimulationInput input, TapeMode mode, const fs::path& csv,
                     SimulationReport& report) {
  input.spec.tape = mode;
  const Trajectory t = model.Simulate(input, {}, &report);
  WriteCsv(t, csv.string());
  return ReadFile(csv);
}

// Every shipped free-dynamics scenario over its whole run: the same CSV bytes from the
// interpreter and from machine code, on every formulation (ODE path, constraint algorithm).
TEST(NativeTapes, EveryShippedScenarioGivesTheSameCsvBytes) {
  TempDir cache("scenarios");
  const EnvOverride env("DIRAC_TAPE_CACHE", cache.str());
  std::vector<fs::path> scenarios;
  for (const auto& e : fs::directory_iterator(fs::path(DIRAC_SOURCE_DIR) / "scenarios"))
    if (e.path().extension() == ".yaml" && IsFreeDynamics(e.path())) scenarios.push_back(e.path());
  std::sort(scenarios.begin(), scenarios.end());
  ASSERT_GE(scenarios.size(), 10u);
  int native_runs = 0;
  for (const fs::path& path : scenarios) {
    const dirac::Scenario scenario = LoadScenario(path.string());
    const auto model = BuildModel(scenario);
    const SimulationInput input = SimulationInput::FromScenario(scenario);
    SimulationReport interpreted, native;
    const std::string a = RunToCsv(*model, input, TapeMode::kInterpreter,
                                   cache.path() / "interpreted.csv", interpreted);
    const std::string b =
        RunToCsv(*model, input, TapeMode::kNative, cache.path() / "native.csv", native);
    EXPECT_NE(interpreted.tape.find("interpreter"), std::string::npos) << path;
    if (native.tape.rfind("native", 0) != 0) {
      if (native.tape.find("sanitizer build") != std::string::npos ||
          native.tape.find("no C compiler") != std::string::npos)
        GTEST_SKIP() << native.tape;
      ADD_FAILURE() << path.filename() << ": " << native.tape;
      continue;
    }
    ++native_runs;
    EXPECT_GT(a.size(), 1000u) << path;
    EXPECT_TRUE(a == b) << path.filename() << ": the CSVs differ";
  }
  if (native_runs == 0) GTEST_SKIP() << "no working C compiler";
}

// `simulation.tape` in the file and `--set tape=`: read, checked, written back.
TEST(NativeTapes, TapeSettingIsReadOverriddenAndWritten) {
  dirac::Scenario s = LoadScenario(Scenario("heisenberg.yaml"));
  EXPECT_EQ(s.simulation.tape, TapeMode::kAuto);
  ApplyOverrides(s, {"tape=interpreter"});
  EXPECT_EQ(s.simulation.tape, TapeMode::kInterpreter);
  const std::string text = SaveScenarioToString(s);
  EXPECT_NE(text.find("tape: interpreter"), std::string::npos) << text;
  EXPECT_EQ(ParseScenario(text, "round-trip.yaml").simulation.tape, TapeMode::kInterpreter);
  try {
    ApplyOverrides(s, {"tape=fast"});
    ADD_FAILURE() << "tape=fast accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("auto, native, interpreter"), std::string::npos)
        << e.what();
  }
  std::string bad = text;
  bad.replace(bad.find("tape: interpreter"), 17, "tape: jit");
  try {
    ParseScenario(bad, "bad.yaml");
    ADD_FAILURE() << "tape: jit accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("tape"), std::string::npos) << e.what();
  }
}

// The CLI says which tape ran, and the CSV bytes do not depend on it.
TEST(NativeTapes, CliReportsTheTapeAndWritesTheSameBytes) {
  TempDir cache("cli");
  const std::string env = "DIRAC_TAPE_CACHE='" + cache.str() + "' ";
  auto run = [&](const std::string& tape, const fs::path& csv) {
    const std::string command = env + DIRAC_CLI + std::string(" run '") +
                                Scenario("heisenberg.yaml") + "' --t-end 5 --set tape=" + tape +
                                " --csv '" + csv.string() + "' 2>&1";
    std::string output;
    FILE* pipe = ::popen(command.c_str(), "r");
    char buffer[4096];
    while (pipe && std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
    EXPECT_EQ(pipe ? ::pclose(pipe) : -1, 0) << output;
    return output;
  };
  const std::string interpreted = run("interpreter", cache.path() / "a.csv");
  EXPECT_NE(interpreted.find("tapes: interpreter"), std::string::npos) << interpreted;
  const std::string native = run("native", cache.path() / "b.csv");
  if (native.find("tapes: native") == std::string::npos)
    GTEST_SKIP() << "no machine code: " << native;
  EXPECT_EQ(ReadFile(cache.path() / "a.csv"), ReadFile(cache.path() / "b.csv"));
  const std::string cached = run("auto", cache.path() / "c.csv");
  EXPECT_NE(cached.find("tapes: native (machine code from the cache)"), std::string::npos)
      << cached;
  EXPECT_EQ(ReadFile(cache.path() / "a.csv"), ReadFile(cache.path() / "c.csv"));
}

}  // namespace
}  // namespace dirac
