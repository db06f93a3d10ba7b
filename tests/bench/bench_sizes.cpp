// Issue 21's size benchmarks ("Systems of any size"): for each generated family
// (dirac/families.hpp) at a spread of sizes,
//   BM_DeriveCompile/FAMILY/n:N  ParseScenario + BuildModel (derivation and tape compile;
//                                tape: interpreter, so no machine code is compiled);
//   BM_Rhs/FAMILY/n:N            one right-hand side x' = f(t, x) on the model's interpreted
//                                tapes, the function the integrator calls (the saddle solve of
//                                a Lagrange-Dirac model, the explicit flow of the constraint
//                                algorithm's model, Model::MakeRightHandSide of the first-order
//                                path: its tapes and the dense solve of B(q) q' = -dH);
//   BM_ShortRun/FAMILY/n:N       Model::Simulate over t_end = 0.2 (right-hand sides, Jacobians,
//                                linear solves and samples; counters rhs and steps), with
//                                `linear_solver: auto`;
//   BM_Solver/FAMILY/n:N/S       the same run with `linear_solver` S = dense or sparse (the
//                                Newton iteration's LU: dense, or KLU on the Jacobian's
//                                pattern), for the sizes where the choice matters.
// Process CPU time is measured (the machine is shared). Sizes whose derivation throws are
// skipped with the message. The counter `dim` is the state's coordinate count (pendulum n,
// so(n) n(n-1)/2, vortices 2N, trailers n + 3). scripts/bench-sizes.sh runs it and fits slopes.
#include <benchmark/benchmark.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dirac/build_model.hpp"
#include "dirac/families.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/compiled_dae.hpp"
#include "lagrange_dirac/saddle_system.hpp"
#include "model/explicit_flow.hpp"

namespace {

struct FamilySizes {
  const char* family;
  std::vector<int> sizes;
};

const std::vector<FamilySizes>& Spread() {
  static const std::vector<FamilySizes> spread = {
      {"pendulum_chain", {2, 4, 6, 8, 10, 14, 20, 28, 40}},
      {"rigid_body_so", {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 20, 24, 28}},
      {"point_vortices", {2, 3, 4, 8, 16, 32}},
      {"car_trailers", {1, 2, 4, 6, 10, 14, 20}},
  };
  return spread;
}

double Dimension(const std::string& family, int n) {
  if (family == "rigid_body_so") return n * (n - 1) / 2.0;
  if (family == "point_vortices") return 2.0 * n;
  if (family == "car_trailers") return n + 3.0;
  return n;
}

dirac::Scenario Generated(const std::string& family, int n) {
  dirac::Scenario s = dirac::ParseScenario(dirac::GenerateFamilyScenarioBeyondRange(family, n),
                                           family + "_" + std::to_string(n) + ".yaml");
  dirac::ApplyOverride(s, "tape=interpreter");
  return s;
}

// BuildModel of the generated scenario, or nullptr after SkipWithError with the message.
std::shared_ptr<const dirac::Model> BuildOrSkip(benchmark::State& state, const dirac::Scenario& s) {
  try {
    return dirac::BuildModel(s);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return nullptr;
  }
}

void DeriveCompile(benchmark::State& state, const std::string& family, int n) {
  const std::string text = dirac::GenerateFamilyScenarioBeyondRange(family, n);
  for (auto _ : state) {
    dirac::Scenario s = dirac::ParseScenario(text, family + ".yaml");
    dirac::ApplyOverride(s, "tape=interpreter");
    auto model = BuildOrSkip(state, s);
    if (!model) return;
    benchmark::DoNotOptimize(model.get());
  }
  state.counters["dim"] = Dimension(family, n);
}

// The state x at t = 0 as the model's run starts it (the first row of a one-sample run: t,
// then the state's columns in order), so the right-hand side is evaluated on the manifold.
std::vector<double> InitialState(const dirac::Model& model, dirac::SimulationInput input,
                                 std::size_t size) {
  input.spec.t_end = input.spec.output_step;
  const dirac::Trajectory trajectory = model.Simulate(input);
  const double* row = trajectory.row(0);
  return {row + 1, row + 1 + size};
}

void Rhs(benchmark::State& state, const std::string& family, int n) {
  const dirac::Scenario s = Generated(family, n);
  const auto model = BuildOrSkip(state, s);
  if (!model) return;
  const auto input = dirac::SimulationInput::FromScenario(s);
  std::vector<double> rates;
  if (const auto* lds = dynamic_cast<const dirac::LagrangeDiracSystem*>(model.get())) {
    dirac::lagrange_dirac::SaddleSystem saddle(dirac::TapesOf(*lds, dirac::TapeMode::kInterpreter),
                                               input.parameters);
    const std::vector<double> x = InitialState(*model, input, saddle.state_size());
    rates.resize(x.size());
    for (auto _ : state) {
      benchmark::DoNotOptimize(saddle.Rates(0.0, x.data(), rates.data()));
      benchmark::ClobberMemory();
    }
  } else if (const dirac::ExplicitFlow* flow = model->explicit_flow()) {
    std::vector<double> in{0.0};
    const std::vector<double> x = model->FlowState(input);
    in.insert(in.end(), x.begin(), x.end());
    in.insert(in.end(), input.parameters.begin(), input.parameters.end());
    if (in.size() != flow->rates.num_inputs()) {
      state.SkipWithError("explicit flow: unexpected input layout");
      return;
    }
    rates.resize(flow->rates.num_outputs());
    std::vector<double> scratch(flow->rates.scratch_size());
    for (auto _ : state) {
      flow->rates.Evaluate(in.data(), rates.data(), scratch.data());
      benchmark::ClobberMemory();
    }
  } else if (std::optional<dirac::RightHandSide> rhs = model->MakeRightHandSide(input)) {
    rates.resize(rhs->state.size());
    for (auto _ : state) {
      benchmark::DoNotOptimize(rhs->rates(0.0, rhs->state.data(), rates.data()));
      benchmark::ClobberMemory();
    }
  } else {
    state.SkipWithError("no right-hand side to evaluate");
    return;
  }
  state.counters["dim"] = Dimension(family, n);
}

void ShortRunWith(benchmark::State& state, const std::string& family, int n,
                  const std::string& solver) {
  dirac::Scenario s = Generated(family, n);
  dirac::ApplyOverride(s, "t_end=0.2");
  dirac::ApplyOverride(s, "linear_solver=" + solver);
  const auto model = BuildOrSkip(state, s);
  if (!model) return;
  const auto input = dirac::SimulationInput::FromScenario(s);
  dirac::SimulationReport report;
  for (auto _ : state) benchmark::DoNotOptimize(model->Simulate(input, {}, &report));
  state.counters["dim"] = Dimension(family, n);
  state.counters["rhs"] = static_cast<double>(report.rhs_evaluations);
  state.counters["steps"] = static_cast<double>(report.internal_steps);
}

void ShortRun(benchmark::State& state, const std::string& family, int n) {
  ShortRunWith(state, family, n, "auto");
}

// Dense against sparse Newton linear algebra, at the sizes where the choice matters.
void RegisterSolvers() {
  const std::vector<FamilySizes> spread = {
      {"pendulum_chain", {20, 40}},
      {"rigid_body_so", {10, 12, 16, 20, 24, 28, 32}},
      {"car_trailers", {10, 20}},
  };
  for (const FamilySizes& f : spread)
    for (int n : f.sizes)
      for (const char* solver : {"dense", "sparse"}) {
        const std::string family = f.family;
        const std::string name =
            "BM_Solver/" + family + "/n:" + std::to_string(n) + "/" + std::string(solver);
        benchmark::RegisterBenchmark(
            name.c_str(),
            [family, n, solver](benchmark::State& st) { ShortRunWith(st, family, n, solver); })
            ->MeasureProcessCPUTime()
            ->Unit(benchmark::kMillisecond);
      }
}

void RegisterAll() {
  using Body = void (*)(benchmark::State&, const std::string&, int);
  const std::pair<const char*, Body> kinds[] = {
      {"BM_DeriveCompile", DeriveCompile}, {"BM_Rhs", Rhs}, {"BM_ShortRun", ShortRun}};
  for (const auto& [prefix, body] : kinds)
    for (const FamilySizes& f : Spread())
      for (int n : f.sizes) {
        const std::string family = f.family;
        const std::string name = std::string(prefix) + "/" + family + "/n:" + std::to_string(n);
        auto* b = benchmark::RegisterBenchmark(
            name.c_str(), [body, family, n](benchmark::State& st) { body(st, family, n); });
        b->MeasureProcessCPUTime()->Unit(body == Rhs ? benchmark::kMicrosecond
                                                     : benchmark::kMillisecond);
      }
  RegisterSolvers();
}

}  // namespace

int main(int argc, char** argv) {
  RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return ran > 0 ? 0 : 1;  // a filter that matches nothing is an error
}
