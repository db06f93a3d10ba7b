#include "lagrange_dirac/fixed_step_simulation.hpp"

#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>

#include "dirac/error.hpp"
#include "dynamics/sampled_run.hpp"
#include "geometry/lie_group.hpp"
#include "lagrange_dirac/lie_variational_step.hpp"
#include "lagrange_dirac/sample_recorder.hpp"
#include "lagrange_dirac/variational_step.hpp"

namespace dirac::lagrange_dirac {

// method: variational (lagrange_dirac/variational_step.hpp): whole steps between the samples; the
// node velocities lie on the distribution and the nodes on the holonomic constraints (RATTLE), so
// no projection is needed.
Trajectory SimulateVariational(const CompiledDae& dae,
                               const ReconstructionSpec& reconstruction_spec,
                               const std::vector<std::string>& columns,
                               const SimulationInput& input, const SimulationProgress& progress,
                               bool conservative, const std::vector<double>& x0,
                               SimulationReport report, SimulationReport* report_out) {
  const SimulationSpec& spec = input.spec;
  dynamics::WholeSteps(spec.output_step, spec.step, "output_step");
  dynamics::WholeSteps(spec.t_end, spec.step, "t_end");
  SampleRecorder recorder(dae, reconstruction_spec, columns, input, conservative, report);
  if (recorder.reconstruction().active())
    throw ModelError(
        "simulation.method: variational does not apply to this Lagrange-Dirac system: its group "
        "reconstruction needs the body velocity between the steps; use one of auto, adams, "
        "bdf, idas");
  VariationalIntegrator driver(dae, input.parameters, spec.step, spec.order, 0.0, x0);
  const double* x = driver.y();
  auto body_velocity = [&](double t) {
    driver.Advance(t);
    return recorder.BodyVelocity(t, x);
  };
  auto record = [&](double t) { recorder.Record(t, x); };
  recorder.Record(0.0, x);
  std::ostringstream method;
  method << "variational (midpoint discrete Lagrangian"
         << (spec.order == 4 ? ", triple-jump composition, order 4" : ", order 2")
         << (dae.layout.m > dae.holonomic.num_outputs() ? ", discrete Lagrange-d'Alembert" : "")
         << (dae.holonomic.num_outputs() > 0 ? ", RATTLE for the holonomic constraints" : "")
         << ", step " << spec.step << ")";
  report.method = method.str();
  dynamics::RunSampled(spec, driver, recorder.reconstruction(), body_velocity, record, progress,
                       recorder.trajectory(), report);
  report.rhs_evaluations = driver.rhs_evaluations();
  if (report_out) *report_out = report;
  return recorder.Take();
}

// method: lie_variational (lagrange_dirac/lie_variational_step.hpp): the discrete rigid body on
// SO(3) or planar body on SE(2) carries its group element, which the samples take instead of the
// Magnus reconstruction between samples.
Trajectory SimulateLieVariational(const CompiledDae& dae,
                                  const ReconstructionSpec& reconstruction_spec,
                                  const std::vector<std::string>& columns,
                                  const SimulationInput& input, const SimulationProgress& progress,
                                  bool conservative, const std::vector<double>& x0,
                                  SimulationReport report, SimulationReport* report_out) {
  const SimulationSpec& spec = input.spec;
  dynamics::WholeSteps(spec.output_step, spec.step, "output_step");
  dynamics::WholeSteps(spec.t_end, spec.step, "t_end");
  const bool se2 = reconstruction_spec.group == "SE2";
  const std::vector<double>& initial = reconstruction_spec.initial;
  const Eigen::Vector3d xi0(x0[0], x0[1], x0[2]);
  std::unique_ptr<dynamics::Integrator> driver;
  std::function<const Eigen::Matrix3d&()> element;
  std::ostringstream method;
  if (se2) {
    const std::optional<Eigen::Matrix3d> M =
        PlanarBodyOnSE2(dae, input.parameters, reconstruction_spec, nullptr);
    if (!M) throw ModelError("simulation.method: lie_variational: not a free planar body on SE(2)");
    Eigen::Matrix3d g0 = Eigen::Matrix3d::Identity();
    if (initial.size() == 3) {
      g0 = geometry::Exp(geometry::MatrixGroup::kSE2, {0.0, 0.0, initial[2]});
      g0(0, 2) = initial[0];
      g0(1, 2) = initial[1];
    }
    auto planar = std::make_unique<PlanarBodyLieVariational>(*M, g0, xi0, spec.step, 0.0);
    element = [body = planar.get()]() -> const Eigen::Matrix3d& { return body->element(); };
    driver = std::move(planar);
    method << "lie_variational (discrete Euler-Poincare on SE(2) with the exponential map: "
              "dexp^-1_{-h xi}^T M xi = m by Newton, g' = g exp(h xi), m' = dexp^-1_{h xi}^T M "
              "xi; order 2, step ";
  } else {
    const std::optional<Eigen::Matrix3d> J =
        RigidBodyOnSO3(dae, input.parameters, reconstruction_spec, nullptr);
    if (!J)
      throw ModelError("simulation.method: lie_variational: not the free rigid body on SO(3)");
    Eigen::Matrix3d R0 = Eigen::Matrix3d::Identity();
    if (initial.size() == 9)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) R0(i, j) = initial[3 * i + j];
    auto rigid = std::make_unique<RigidBodyLieVariational>(*J, R0, xi0, spec.step, 0.0);
    element = [body = rigid.get()]() -> const Eigen::Matrix3d& { return body->attitude(); };
    driver = std::move(rigid);
    method << "lie_variational (Lee-Leok-McClamroch discrete rigid body on SO(3): h Pi^ = F J_d "
              "- J_d F^T by Newton on F = exp(f^), R' = R F, Pi' = F^T Pi; order 2, step ";
  }
  SampleRecorder recorder(dae, reconstruction_spec, columns, input, conservative, report);
  auto record = [&](double t) {
    recorder.reconstruction().SetElement(element());
    recorder.Record(t, driver->y());
  };
  method << spec.step << ")";
  report.method = method.str();
  dynamics::RunSampledOde(spec, *driver, record, progress, recorder.trajectory(), report);
  if (report_out) *report_out = report;
  return recorder.Take();
}

}  // namespace dirac::lagrange_dirac
