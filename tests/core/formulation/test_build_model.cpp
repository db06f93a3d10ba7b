// BuildModel (core/src/formulation/build_model.cpp): which model a scenario gets, branch by
// branch in the order core/src/formulation/README.md gives (Euler–Poincaré on a named Lie
// algebra; the regular Lagrange–Dirac system; above the exact chain's size the first-order system
// of a Lagrangian affine in the velocities; else the constraint algorithm), the formulations that
// always take the constraint algorithm, and the refusal of holonomic constraints where they do
// not apply. Each verdict is checked by the model's type or its formulation text and by a number
// the branch fixes (state dimension, column count).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "canonical_problems.hpp"
#include "constraints/generic_rank_chain.hpp"
#include "dirac/build_model.hpp"
#include "dirac/constrained_system.hpp"
#include "dirac/error.hpp"
#include "dirac/families.hpp"
#include "lagrange_dirac/lagrange_dirac_system.hpp"
#include "dirac/model.hpp"
#include "dirac/simulation_types.hpp"

namespace dirac {
namespace {

Scenario Load(const std::string& name) {
  return LoadScenario(testing::SourcePath("scenarios/" + name));
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

std::size_t ColumnsOf(const Model& model, ColumnKind kind) {
  std::size_t count = 0;
  for (const ColumnInfo& c : model.columns()) count += c.kind == kind;
  return count;
}

TEST(BuildModel, NamedLieAlgebraWithoutConstraintsIsEulerPoincare) {
  // so(4) named by its family, L = (1/2) sum I_A y_A^2 (a constant Hessian), no constraints:
  // n(n-1)/2 = 6 velocities, no base, no multiplier.
  const std::string text =
      "name: so4\nalgebroid:\n  algebra: {family: so, size: 4}\n"
      "  inertia: {diagonal: [1, 2, 3, 4, 5, 6]}\n"
      "simulation: {t_end: 1, output_step: 0.5}\n";
  const auto model = BuildModel(ParseScenario(text, "so4.yaml"));
  EXPECT_EQ(std::dynamic_pointer_cast<const LagrangeDiracSystem>(model), nullptr);
  EXPECT_EQ(std::dynamic_pointer_cast<const ConstrainedSystem>(model), nullptr);
  EXPECT_TRUE(StartsWith(model->formulation(), "Euler-Poincare equations on the Lie algebra so(4)"))
      << model->formulation();
  EXPECT_EQ(ColumnsOf(*model, ColumnKind::kVelocity), 6u);
  EXPECT_EQ(ColumnsOf(*model, ColumnKind::kMultiplier), 0u);
  // The same algebra written out as brackets (dirac generate rigid_body_so 4) is an algebroid
  // with a regular Lagrangian: the Lagrange-Dirac system, with the same 6 velocities.
  const auto written =
      BuildModel(ParseScenario(GenerateFamilyScenario("rigid_body_so", 4), "so4w.yaml"));
  ASSERT_NE(std::dynamic_pointer_cast<const LagrangeDiracSystem>(written), nullptr)
      << written->formulation();
  EXPECT_EQ(ColumnsOf(*written, ColumnKind::kVelocity), 6u);
}

TEST(BuildModel, RegularLagrangianWithConstraintsIsTheLagrangeDiracSystem) {
  // Heisenberg: L = (vx^2 + vy^2 + vz^2)/2 has W = I (regular), one constraint.
  const auto model = BuildModel(Load("heisenberg.yaml"));
  const auto regular = std::dynamic_pointer_cast<const LagrangeDiracSystem>(model);
  ASSERT_NE(regular, nullptr) << model->formulation();
  EXPECT_EQ(regular->num_coordinates(), 3u);
  EXPECT_EQ(regular->num_constraints(), 1u);
  EXPECT_EQ(ColumnsOf(*model, ColumnKind::kMultiplier), 1u);
}

TEST(BuildModel, AffineLagrangianAboveTheExactChainSizeIsTheFirstOrderSystem) {
  // Point vortices: L = sum G_i (y_i vx_i - x_i vy_i)/2 + ... is affine in the velocities
  // (W = 0). Seven vortices give M_0 of dimension 28 > kMaxExactChainDimension.
  const Scenario seven =
      ParseScenario(GenerateFamilyScenario("point_vortices", 7), "vortices-7.yaml");
  ASSERT_TRUE(constraints::AboveExactChainSize(seven));
  const auto model = BuildModel(seven);
  EXPECT_EQ(std::dynamic_pointer_cast<const ConstrainedSystem>(model), nullptr);
  EXPECT_TRUE(StartsWith(model->formulation(), "Lagrangian affine in the velocities"))
      << model->formulation();
  EXPECT_EQ(ColumnsOf(*model, ColumnKind::kCoordinate), 14u);
}

TEST(BuildModel, DegenerateLagrangianBelowTheSizeGoesThroughTheConstraintAlgorithm) {
  // Two vortices: the same affine Lagrangian with M_0 of dimension 8 <= 12 takes the exact
  // Gotay-Nester-Hinds algorithm; the four coordinates x1, y1, x2, y2 stay columns.
  const Scenario two =
      ParseScenario(GenerateFamilyScenario("point_vortices", 2), "vortices-2.yaml");
  ASSERT_FALSE(constraints::AboveExactChainSize(two));
  const auto model = BuildModel(two);
  const auto constrained = std::dynamic_pointer_cast<const ConstrainedSystem>(model);
  ASSERT_NE(constrained, nullptr) << model->formulation();
  EXPECT_NE(model->formulation().find("Gotay-Nester-Hinds"), std::string::npos);
  EXPECT_EQ(ColumnsOf(*model, ColumnKind::kCoordinate), 4u);
}

TEST(BuildModel, VakonomicFormulationAlwaysTakesTheConstraintAlgorithm) {
  // The vakonomic Heisenberg problem: regular L, but `formulation: vakonomic` asks for the
  // Skinner-Rusk system (seed V).
  const auto model = BuildModel(Load("vakonomic_heisenberg.yaml"));
  ASSERT_NE(std::dynamic_pointer_cast<const ConstrainedSystem>(model), nullptr);
  EXPECT_TRUE(StartsWith(model->formulation(), "vakonomic problem")) << model->formulation();
  EXPECT_EQ(ColumnsOf(*model, ColumnKind::kMomentum), 3u);
}

TEST(BuildModel, HolonomicConstraintsAreRefusedByFormulationsThatDoNotTakeThem) {
  Scenario s = Load("vakonomic_heisenberg.yaml");
  HolonomicSpec h;
  h.name = "sphere";
  h.equation = "x^2 + y^2 + z^2 - 1";
  h.multiplier = "nu";
  h.where.line = 42;
  s.holonomic.push_back(h);
  try {
    BuildModel(s);
    FAIL() << "the vakonomic formulation took a holonomic constraint";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file(), s.source_file);
    EXPECT_EQ(e.line(), 42u);
    EXPECT_EQ(e.symbol(), "holonomic");
    EXPECT_NE(std::string(e.what()).find("the vakonomic formulation does not take them"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dirac
