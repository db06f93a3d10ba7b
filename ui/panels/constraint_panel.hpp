#pragma once
/// @file constraint_panel.hpp
/// The "Constraints" panel: the constraint algorithm's chain M_0 ⊃ M_1 ⊃ … ⊃ M_f of the current
/// model as formatted text, or a short note for a regular (index-1) model.

#include <QString>
#include <QTextBrowser>

#include <string>
#include <vector>

#include "dirac/constrained_system.hpp"
#include "dirac/model.hpp"
#include "dirac/scenario_spec.hpp"

namespace dirac::ui {

/// Read-only rich text (objectName "constraints.panel"). Shows, for a model with a
/// ConstraintChain: each step's dimension and new constraints (and which residual column,
/// ConstraintStep::residual_columns, plots them), the verdict, the final constraints, Omega on E_f
/// (symplectic / modulo gauge), the gauge directions (fibre-only or moving the configuration, the
/// value integrated), the dynamics on M_f and the numeric cross-check.
class ConstraintPanel : public QTextBrowser {
  Q_OBJECT

 public:
  explicit ConstraintPanel(QWidget* parent = nullptr);

  /// Shows the model's chain, or the note for a regular model. Null: a waiting message.
  void SetModel(const dirac::Model* model, const dirac::Scenario& scenario);
  /// Shows `message` (e.g. "deriving…" or why there is no model).
  void ShowMessage(const QString& message);
  /// True if the shown model has a constraint chain.
  bool has_chain() const { return has_chain_; }

 private:
  bool has_chain_ = false;
};

/// The chain as an HTML document (what the panel shows).
QString ConstraintChainHtml(const dirac::ConstraintChain& chain);
/// The note for a model without a chain (a regular Lagrangian: the index-1 DAE).
QString RegularModelHtml(const dirac::Model& model, const dirac::Scenario& scenario);
/// A derived expression in plain text ("C2^(-1)*C4*q2") as HTML (superscripts, middle dots).
QString ExpressionHtml(const std::string& expression);

/// Coordinates of M_0 the algorithm solved for (ConstraintStep::solved_for), in chain order:
/// their values follow from the others on M_f. (Which initial values are free is the model's
/// Model::initial_values(); the parameter panel reads that.)
std::vector<std::string> EliminatedCoordinates(const dirac::ConstraintChain& chain);

}  // namespace dirac::ui
