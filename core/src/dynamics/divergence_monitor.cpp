#include "dynamics/divergence_monitor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dirac::dynamics {

namespace {

std::string Exceeded(const char* what, double value, double bound) {
  char text[160];
  std::snprintf(text, sizeof text, "%s %.3e > bound %.3e", what, value, bound);
  return text;
}

}  // namespace

DivergenceMonitor::DivergenceMonitor(const SimulationSpec& spec, bool conservative)
    : spec_(spec), conservative_(conservative) {
  SetScales(nullptr, 0, 0.0);
}

void DivergenceMonitor::SetScales(const double* x0, std::size_t size, double energy0) {
  double s = 1.0;
  for (std::size_t i = 0; i < size; ++i)
    if (std::isfinite(x0[i])) s = std::max(s, std::abs(x0[i]));
  residual_bound_ = kResidualSafety * (spec_.atol + spec_.rtol * s);
  energy_scale_ = std::isfinite(energy0) ? std::max(1.0, std::abs(energy0)) : 1.0;
}

double DivergenceMonitor::energy_bound(double t) const {
  if (spec_.method == IntegrationMethod::kVariational ||
      spec_.method == IntegrationMethod::kIsospectral ||
      spec_.method == IntegrationMethod::kLieVariational)
    return kFixedStepEnergyFraction * energy_scale_;
  // The global error of the energy grows at most linearly in time for a stable run; T = 1 s.
  return kEnergySafety * (spec_.atol + spec_.rtol * energy_scale_) * (1.0 + std::abs(t));
}

void DivergenceMonitor::Observe(double t, double residual, double energy_drift,
                                SimulationReport& report) const {
  if (report.diverged_at) return;
  std::string what;
  if (!std::isfinite(residual))
    what = "constraint residual is not finite";
  else if (residual > residual_bound_)
    what = Exceeded("constraint residual", residual, residual_bound_);
  else if (conservative_ && !std::isfinite(energy_drift))
    what = "energy is not finite";
  else if (conservative_ && energy_drift > energy_bound(t))
    what = Exceeded("energy drift |E - E0|", energy_drift, energy_bound(t));
  if (what.empty()) return;
  report.diverged_at = t;
  report.divergence = what;
}

void DivergenceMonitor::MarkCollapse(double t, const std::string& what, SimulationReport& report) {
  if (report.diverged_at) return;
  report.diverged_at = t;
  report.divergence = "the integrator's error control collapsed: " + what;
}

}  // namespace dirac::dynamics
