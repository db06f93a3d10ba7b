#include "dynamics/sampled_run.hpp"

#include "dynamics/local_tolerance.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace dirac::dynamics {

void RunSampled(const SimulationSpec& spec, Integrator& driver,
                geometry::GroupReconstruction& reconstruction,
                const std::function<Eigen::Vector3d(double)>& body_velocity,
                const std::function<void(double)>& record, const SimulationProgress& progress,
                const Trajectory& trajectory, SimulationReport& report) {
  const auto total = static_cast<long>(std::ceil(spec.t_end / spec.output_step - 1e-9));
  if (!trajectory.streaming())
    RequireTrajectoryFits(static_cast<double>(total) + 1, trajectory.num_columns(), "simulation");
  const long batch = std::max<long>(1, total / 50);
  // Also at least every 50 ms of wall time: a long output interval (a huge t_end decimated to a
  // few thousand samples) must not keep a cancel waiting for 2% of the run.
  using Clock = std::chrono::steady_clock;
  auto last_report = Clock::now();
  double t_prev = 0.0;
  for (long step = 1; step <= total; ++step) {
    const double tout = std::min(spec.t_end, static_cast<double>(step) * spec.output_step);
    reconstruction.Advance(t_prev, tout, body_velocity);
    record(driver.Advance(tout));
    t_prev = tout;
    const bool due = step % batch == 0 || step == total ||
                     Clock::now() - last_report > std::chrono::milliseconds(50);
    if (progress && due) last_report = Clock::now();
    if (progress && due && !progress(trajectory)) {
      report.cancelled = true;
      break;
    }
  }
  CopyStatistics(driver.statistics(), &report.internal_steps, &report.error_test_failures,
                 &report.nonlinear_failures, &report.last_order);
}

SampledExplicitOde MakeExplicitOde(
    const SimulationSpec& spec, const std::string& system, std::vector<std::string> names,
    std::function<bool(double t, const double* x, double* xdot)> rates,
    const std::vector<double>& x0, SystemForm form) {
  const IntegrationMethod family = ResolveMethod(
      spec.method, form, system, spec.t_end,
      [&] { return DifferenceJacobian(rates, x0.size(), 0.0, x0.data()); }, spec.step);
  const bool bdf = family == IntegrationMethod::kBdf;
  SampledExplicitOde out;
  out.method = bdf ? MultistepMethod::kBdf : MultistepMethod::kAdams;
  out.ode.size = names.size();
  out.ode.names = std::move(names);
  out.ode.rtol = LocalTolerance(spec.rtol, family);
  out.ode.atol = LocalTolerance(spec.atol, family);
  out.ode.rates = std::move(rates);
  return out;
}

void RunSampledOde(const SimulationSpec& spec, Integrator& driver,
                   const std::function<void(double)>& record, const SimulationProgress& progress,
                   const Trajectory& trajectory, SimulationReport& report) {
  geometry::GroupReconstruction none{ReconstructionSpec{}};
  record(0.0);
  RunSampled(
      spec, driver, none,
      [&](double t) {
        driver.Advance(t);
        return Eigen::Vector3d::Zero().eval();
      },
      record, progress, trajectory, report);
  report.rhs_evaluations = driver.rhs_evaluations();
}

}  // namespace dirac::dynamics
