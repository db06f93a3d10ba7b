// Linearizer::Derive (which path a scenario takes) and the explicit-flow path: a model of the
// constraint algorithm (or any model with Model::explicit_flow()) linearizes with the flow's
// exact Jacobian df/dx on the free coordinates of M_f.
#include <algorithm>
#include <cstdio>

#include "base/foreign_errors.hpp"
#include "dirac/build_model.hpp"
#include "dirac/error.hpp"
#include "dirac/simulation_types.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "linearization/manifold_linearizer.hpp"
#include "linearization/reduced_point.hpp"
#include "model/explicit_flow.hpp"
#include "scenario/initial_state.hpp"

namespace dirac {
namespace linearization {
namespace {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

std::string FlowShort(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

class FlowLinearizer final : public Linearizer {
 public:
  FlowLinearizer(const Scenario& scenario, const LinearizationOptions& options,
                 std::shared_ptr<const Model> model)
      : scenario_(scenario), options_(options), model_(std::move(model)) {
    flow_ = model_->explicit_flow();
    if (!options.speeds.empty())
      throw ScenarioError(scenario.source_file, 0, options.speeds.front(),
                          "--speeds applies to Lagrangian systems with velocity constraints; "
                          "this model (" +
                              model_->formulation() + ") is an explicit flow");
    ignorable_.assign(flow_->dimension(), false);
    for (const auto& name : options.ignorable) {
      auto it = std::find(flow_->states.begin(), flow_->states.end(), name);
      if (it == flow_->states.end())
        throw ScenarioError(scenario.source_file, 0, name,
                            "--ignorable names no state of the flow on M_f");
      ignorable_[static_cast<std::size_t>(it - flow_->states.begin())] = true;
    }
  }

  std::shared_ptr<const Linearizer> WithValues(const Scenario& scenario) const override {
    auto copy = std::make_shared<FlowLinearizer>(*this);
    copy->scenario_ = scenario;
    return copy;
  }

  Linearization Linearize() const override { return At(scenario_, nullptr); }
  Linearization Linearize(const std::string& name, double value) const override {
    Scenario copy = scenario_;
    ApplyOverride(copy, name, value);
    return At(copy, nullptr);
  }
  using Linearizer::Sweep;
  StabilitySweep Sweep(const std::string& name, const std::vector<double>& values,
                       const std::atomic<bool>* cancel) const override {
    CheckSweepValues(name, values);
    const std::vector<std::string> states = Linearize(name, values.front()).states;
    return RunStabilitySweep(
        [&](double value) {
          Scenario copy = scenario_;
          ApplyOverride(copy, name, value);
          return At(copy, &states);
        },
        name, values, cancel);
  }
  std::vector<std::string> StateColumns() const override { return flow_->states; }

  // Along a run: the flow's Jacobian at each row's free coordinates x of M_f; the run's columns
  // of the other coordinates of M (eliminated: z(x)) must agree with x's reconstruction.
  TrajectoryLinearization LinearizeAlong(const Trajectory& run,
                                         const std::string& source) const override {
    parameters_ = SimulationInput::FromScenario(scenario_).parameters;
    std::vector<std::pair<std::size_t, std::size_t>> checked;  // (index in z, the run's column)
    for (std::size_t i = 0; i < flow_->coordinates.size(); ++i)
      if (const auto c = run.FindColumn(flow_->coordinates[i])) checked.emplace_back(i, *c);
    const auto d = static_cast<Index>(flow_->dimension());
    return RunAlong(run, source, flow_->states, [&](std::size_t row, const VectorXd& x) {
      const std::vector<double> z = flow_->coordinate_values.Evaluate(Input(x));
      double worst = 0.0;
      std::size_t at = 0;
      for (const auto& [i, c] : checked) {
        const double off = std::abs(z[i] - run.at(row, c));
        if (!(off <= worst)) {
          worst = off;
          at = i;
        }
      }
      if (!(worst <= options_.manifold_tolerance))
        throw ModelError("the state is off M_f: |" + flow_->coordinates[at] + " - " +
                         flow_->coordinates[at] + "(flow's states)| = " + FlowShort(worst) +
                         " (tolerance " + FlowShort(options_.manifold_tolerance) + ")");
      ReducedPoint p;
      p.formulation = model_->formulation() + " (explicit flow on M_f)";
      p.names = flow_->states;
      p.num_coordinates = flow_->dimension();
      p.J = Jacobian(x);
      p.B = MatrixXd::Zero(d, 0);
      p.ignorable = ignorable_;
      p.named.assign(flow_->dimension(), true);
      p.manifold_residual = worst;
      return p;
    });
  }

  VectorXd ReducedRates(const VectorXd& z, std::vector<std::string>* names) const override {
    if (names) *names = flow_->states;
    return Evaluate(flow_->rates, z, flow_->dimension());
  }
  MatrixXd ReducedJacobian(VectorXd* z) const override {
    const VectorXd x = State(scenario_);
    if (z) *z = x;
    return Jacobian(x);
  }

 private:
  VectorXd State(const Scenario& s) const {
    const std::vector<double> x = model_->FlowState(SimulationInput::FromScenario(s));
    return Eigen::Map<const VectorXd>(x.data(), static_cast<Index>(x.size()));
  }
  std::vector<double> Input(const VectorXd& x) const {
    std::vector<double> in{0.0};
    in.insert(in.end(), x.data(), x.data() + x.size());
    in.insert(in.end(), parameters_.begin(), parameters_.end());
    return in;
  }
  VectorXd Evaluate(const CompiledFunction& f, const VectorXd& x, std::size_t outputs) const {
    const std::vector<double> out = f.Evaluate(Input(x));
    (void)outputs;
    return Eigen::Map<const VectorXd>(out.data(), static_cast<Index>(out.size()));
  }
  MatrixXd Jacobian(const VectorXd& x) const {
    const auto d = static_cast<Index>(flow_->dimension());
    const std::vector<double> out = flow_->rates_jacobian.Evaluate(Input(x));
    return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        out.data(), d, d);
  }
  Linearization At(const Scenario& s, const std::vector<std::string>* states) const {
    parameters_ = SimulationInput::FromScenario(s).parameters;
    VectorXd x = State(s);
    if (options_.find) {
      for (int it = 0;; ++it) {
        const VectorXd r = Evaluate(flow_->rates, x, flow_->dimension());
        const MatrixXd J = Jacobian(x);
        if (r.size() == 0 ||
            r.cwiseAbs().maxCoeff() <= 1e-13 * std::max(1.0, J.cwiseAbs().maxCoeff()))
          break;
        if (it == 50)
          throw ModelError("Newton's method did not find an equilibrium of the flow on M_f");
        x += J.completeOrthogonalDecomposition().solve(-r);
      }
    }
    ReducedPoint p;
    p.formulation = model_->formulation() + " (explicit flow on M_f)";
    p.names = flow_->states;
    p.num_coordinates = flow_->dimension();
    p.J = Jacobian(x);
    p.rates = Evaluate(flow_->rates, x, flow_->dimension());
    p.B = MatrixXd::Zero(p.J.rows(), 0);
    p.ignorable = ignorable_;
    p.named.assign(flow_->dimension(), true);
    const VectorXd given = State(s);
    for (std::size_t i = 0; i < flow_->dimension(); ++i) {
      p.report.point.emplace_back(flow_->states[i], x[static_cast<Index>(i)]);
      const double change = std::abs(x[static_cast<Index>(i)] - given[static_cast<Index>(i)]);
      if (change > p.report.state_change) {
        p.report.state_change = change;
        p.report.state_change_name = flow_->states[i];
      }
    }
    return Finish(std::move(p), options_.tolerance, true, states);
  }

  Scenario scenario_;
  LinearizationOptions options_;
  std::shared_ptr<const Model> model_;
  const ExplicitFlow* flow_ = nullptr;
  std::vector<bool> ignorable_;
  // The parameters of the point being linearized (one thread at a time).
  mutable std::vector<double> parameters_;
};

}  // namespace

std::shared_ptr<const Linearizer> MakeFlowLinearizer(const Scenario& scenario,
                                                     const LinearizationOptions& options,
                                                     std::shared_ptr<const Model> model) {
  return std::make_shared<FlowLinearizer>(scenario, options, std::move(model));
}

}  // namespace linearization

std::shared_ptr<const Linearizer> Linearizer::Derive(const Scenario& scenario,
                                                     const LinearizationOptions& options) try {
  const bool lagrangian = scenario.formulation == Formulation::kAuto ||
                          scenario.formulation == Formulation::kLagrangeDirac ||
                          scenario.optimal_control.present;
  if (lagrangian && !scenario.second_order.accelerations.size()) {
    // Holonomic constraints join as their differentials, as BuildModel has them.
    Scenario plain = scenario::WithHolonomicDifferentials(scenario);
    plain.formulation = Formulation::kAuto;
    if (auto regular = LagrangeDiracSystem::DeriveIfRegular(plain))
      return linearization::MakeManifoldLinearizer(scenario, options, regular);
  }
  std::shared_ptr<const Model> model = BuildModel(scenario);
  if (!model->explicit_flow())
    throw ModelError(scenario.source_file + ": this model (" + model->formulation() +
                     ") has neither a regular Lagrangian nor an explicit flow on M_f to "
                     "linearize");
  return linearization::MakeFlowLinearizer(scenario, options, model);
} catch (...) {
  base::RethrowNamingFile(scenario.source_file, "linearizing");
}

std::shared_ptr<const Linearizer> Linearizer::FromModel(const Scenario& scenario,
                                                        const LinearizationOptions& options,
                                                        std::shared_ptr<const Model> model) try {
  const bool lagrangian = scenario.formulation == Formulation::kAuto ||
                          scenario.formulation == Formulation::kLagrangeDirac ||
                          scenario.optimal_control.present;
  if (lagrangian && !scenario.second_order.accelerations.size() && !scenario.algebroid.present)
    if (auto regular = std::dynamic_pointer_cast<const LagrangeDiracSystem>(model))
      return linearization::MakeManifoldLinearizer(scenario, options, std::move(regular));
  if (!lagrangian && model && model->explicit_flow())
    return linearization::MakeFlowLinearizer(scenario, options, std::move(model));
  return Derive(scenario, options);
} catch (...) {
  base::RethrowNamingFile(scenario.source_file, "linearizing");
}

}  // namespace dirac
