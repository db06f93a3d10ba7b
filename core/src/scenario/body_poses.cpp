#include "dirac/body_poses.hpp"

#include <Eigen/Dense>
#include <stdexcept>

#include "scenario/multibody.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/expression_compiler.hpp"

namespace dirac {

BodyPoseEvaluator::BodyPoseEvaluator(const Scenario& s)
    : num_q_(s.coordinates.size()), num_parameters_(s.parameters.size()) {
  if (s.multibody.bodies.empty()) return;
  num_bodies_ = s.multibody.bodies.size();
  const scenario::ScenarioSymbols symbols(s, {scenario::Velocities::kNone});
  auto parse = [&](const std::string& text, std::size_t line, const std::string& key) {
    return symbols.Parse(text, line, key);
  };
  scenario::MultibodyModel model(s, parse, symbols.q(), {}, symbols.t());
  // Outputs per body: position (3), rotation (9), mass, inertia (6), shape sizes; per wheel:
  // contact point (3), radius.
  std::vector<GiNaC::ex> outputs;
  for (const auto& b : s.multibody.bodies) {
    const GiNaC::matrix& p = model.Position(b.point);
    const GiNaC::matrix& R = model.Rotation(b.frame);
    for (unsigned i = 0; i < 3; ++i) outputs.push_back(p(i, 0));
    for (unsigned i = 0; i < 3; ++i)
      for (unsigned j = 0; j < 3; ++j) outputs.push_back(R(i, j));
    outputs.push_back(parse(b.mass, b.line, b.name + ".mass"));
    for (const auto& e : b.inertia) outputs.push_back(parse(e, b.line, b.name + ".inertia"));
    for (const auto& e : b.size) outputs.push_back(parse(e, b.line, b.name + ".shape.size"));
    size_counts_.push_back(b.size.size());
    names_.bodies.push_back({b.name, {}, {}, b.shape, {}, {}, 0.0});
  }
  for (const auto& w : s.multibody.rolling) {
    const GiNaC::matrix P = model.ContactPoint(w);
    for (unsigned i = 0; i < 3; ++i) outputs.push_back(P(i, 0));
    outputs.push_back(parse(w.radius, w.line, w.name + ".radius"));
    names_.contacts.push_back({w.name, w.body, {}, 0.0});
  }
  std::vector<GiNaC::symbol> inputs{symbols.t()};
  inputs.insert(inputs.end(), symbols.q().begin(), symbols.q().end());
  inputs.insert(inputs.end(), symbols.parameters().begin(), symbols.parameters().end());
  function_ =
      std::make_shared<const CompiledFunction>(symbolic::CompileExpressions(outputs, inputs));
}

BodyPoses BodyPoseEvaluator::Evaluate(double t, const std::vector<double>& q,
                                      const std::vector<double>& parameters) const {
  if (q.size() != num_q_ || parameters.size() != num_parameters_)
    throw std::invalid_argument("BodyPoseEvaluator::Evaluate: expected " + std::to_string(num_q_) +
                                " coordinates and " + std::to_string(num_parameters_) +
                                " parameters");
  BodyPoses poses = names_;
  if (!function_) return poses;
  std::vector<double> in{t};
  in.insert(in.end(), q.begin(), q.end());
  in.insert(in.end(), parameters.begin(), parameters.end());
  const std::vector<double> out = function_->Evaluate(in);
  std::size_t k = 0;
  for (std::size_t b = 0; b < poses.bodies.size(); ++b) {
    BodyPose& pose = poses.bodies[b];
    for (auto& x : pose.position) x = out[k++];
    for (auto& x : pose.rotation) x = out[k++];
    pose.mass = out[k++];
    Eigen::Matrix3d J;
    const double* I = &out[k];
    J << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
    k += 6;
    const Eigen::Vector3d eig = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(J).eigenvalues();
    pose.inertia = {eig[0], eig[1], eig[2]};
    for (std::size_t i = 0; i < size_counts_[b]; ++i) pose.size.push_back(out[k++]);
  }
  for (auto& contact : poses.contacts) {
    for (auto& x : contact.point) x = out[k++];
    contact.radius = out[k++];
  }
  return poses;
}

BodyPoses InitialBodyPoses(const Scenario& s) {
  std::vector<double> q, parameters;
  for (const auto& c : s.coordinates) q.push_back(c.initial);
  for (const auto& p : s.parameters) parameters.push_back(p.value);
  return BodyPoseEvaluator(s).Evaluate(0.0, q, parameters);
}

}  // namespace dirac
