// Optimal-control solves (issue 8 targets: warm re-solve <= 3 ms, cold <= 10 ms on this
// machine), and the new multiple shooting with exact sensitivities against the single shooting
// with a difference-quotient Jacobian (dirac/shooting.hpp) on the same boundary-value problems.
#include <benchmark/benchmark.h>

#include "dirac/build_model.hpp"
#include "dirac/optimal_control.hpp"
#include "dirac/scenario.hpp"
#include "dirac/shooting.hpp"

namespace {

dirac::Scenario Load(const char* name) {
  return dirac::LoadScenario(std::string(DIRAC_SOURCE_DIR) + "/scenarios/" + name);
}

dirac::SolveOptions Quiet() {
  dirac::SolveOptions options;
  options.sample = false;  // the solve only; sampling the optimum is the same for all methods
  return options;
}

void Cold(benchmark::State& state, const char* file) {
  const dirac::Scenario s = Load(file);
  const auto model = dirac::BuildModel(s);
  for (auto _ : state) {
    const auto solution = dirac::SolveOptimalControl(*model, s, Quiet());
    if (!solution.report.converged) state.SkipWithError(solution.report.message.c_str());
    state.counters["iterations"] = solution.report.iterations;
    state.counters["steps"] = solution.report.integrator_steps;
    state.counters["rhs"] = solution.report.rhs_evaluations;
  }
}

// Re-solve after a small change of one value, from the previous optimum.
void Warm(benchmark::State& state, const char* file, const char* name, double delta) {
  const dirac::Scenario s = Load(file);
  const auto model = dirac::BuildModel(s);
  const auto base = dirac::SolveOptimalControl(*model, s, Quiet());
  dirac::Scenario changed = s;
  dirac::ApplyOverride(changed, name, *dirac::CurrentValue(s, name) + delta);
  dirac::SolveOptions options = Quiet();
  options.warm_start = &base.warm_start;
  for (auto _ : state) {
    const auto solution = dirac::SolveOptimalControl(*model, changed, options);
    if (!solution.report.converged) state.SkipWithError(solution.report.message.c_str());
    state.counters["iterations"] = solution.report.iterations;
    state.counters["steps"] = solution.report.integrator_steps;
    state.counters["rhs"] = solution.report.rhs_evaluations;
  }
}

void BM_So3SplineCold(benchmark::State& state) { Cold(state, "so3_spline.yaml"); }
BENCHMARK(BM_So3SplineCold)->Unit(benchmark::kMillisecond);
void BM_So3SplineWarmTarget5deg(benchmark::State& state) {
  Warm(state, "so3_spline.yaml", "final.R.x", 5 * 3.14159265358979 / 180);
}
BENCHMARK(BM_So3SplineWarmTarget5deg)->Unit(benchmark::kMillisecond);
void BM_So3SplineWarmInertia10pct(benchmark::State& state) {
  Warm(state, "so3_spline.yaml", "I2", 0.2);
}
BENCHMARK(BM_So3SplineWarmInertia10pct)->Unit(benchmark::kMillisecond);
void BM_ElroyCold(benchmark::State& state) { Cold(state, "elroys_beanie_ocp.yaml"); }
BENCHMARK(BM_ElroyCold)->Unit(benchmark::kMillisecond);
void BM_ElroyWarmPsi(benchmark::State& state) {
  Warm(state, "elroys_beanie_ocp.yaml", "final.psi", 0.05);
}
BENCHMARK(BM_ElroyWarmPsi)->Unit(benchmark::kMillisecond);

// Side by side on the same boundary-value problem (cubic spline on R; rigid-body spline on
// so(3) with w(T) targets): multiple shooting with exact sensitivities vs single shooting
// with a difference-quotient Jacobian.
dirac::Scenario RigidBodySplineBvp() {
  dirac::Scenario s = Load("rigid_body_spline.yaml");
  s.boundary_value.unknowns = {"p_w1", "p_w2", "p_w3", "pbar_w1", "pbar_w2", "pbar_w3"};
  s.boundary_value.targets = {{"w1", 0.0},   {"w2", 0.5},   {"w3", -0.2},
                              {"p_w1", 0.1}, {"p_w2", 0.0}, {"p_w3", 0.0}};
  dirac::ApplyOverride(s, "t_end", 2.0);
  return s;
}

void BM_CubicSplineMultipleShooting(benchmark::State& state) {
  Cold(state, "cubic_spline_bvp.yaml");
}
BENCHMARK(BM_CubicSplineMultipleShooting)->Unit(benchmark::kMillisecond);
void BM_CubicSplineSingleShootingDQ(benchmark::State& state) {
  const dirac::Scenario s = Load("cubic_spline_bvp.yaml");
  for (auto _ : state) benchmark::DoNotOptimize(dirac::SolveBoundaryValueProblem(s));
}
BENCHMARK(BM_CubicSplineSingleShootingDQ)->Unit(benchmark::kMillisecond);
void BM_RigidBodySplineMultipleShooting(benchmark::State& state) {
  const dirac::Scenario s = RigidBodySplineBvp();
  const auto model = dirac::BuildModel(s);
  for (auto _ : state) {
    const auto solution = dirac::SolveOptimalControl(*model, s, Quiet());
    if (!solution.report.converged) state.SkipWithError(solution.report.message.c_str());
  }
}
BENCHMARK(BM_RigidBodySplineMultipleShooting)->Unit(benchmark::kMillisecond);
void BM_RigidBodySplineSingleShootingDQ(benchmark::State& state) {
  const dirac::Scenario s = RigidBodySplineBvp();
  for (auto _ : state) benchmark::DoNotOptimize(dirac::SolveBoundaryValueProblem(s));
}
BENCHMARK(BM_RigidBodySplineSingleShootingDQ)->Unit(benchmark::kMillisecond);

// Issue 24: PSOPT's time-optimal reorientation by direct collocation, cold (the derivation of
// the controlled equations included, as `dirac solve` does it); target under 1 s.
void BM_ReorientationCollocationCold(benchmark::State& state) {
  const dirac::Scenario s = Load("reorientation_min_time.yaml");
  for (auto _ : state) {
    const auto solution = dirac::SolveOptimalControl(s, Quiet());
    if (!solution.report.converged) state.SkipWithError(solution.report.message.c_str());
    state.counters["iterations"] = solution.report.iterations;
    state.counters["intervals"] = solution.report.nodes;
    state.counters["final_time"] = solution.report.final_time;
  }
}
BENCHMARK(BM_ReorientationCollocationCold)->Unit(benchmark::kMillisecond);

}  // namespace
