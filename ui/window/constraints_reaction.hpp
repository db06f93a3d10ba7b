#pragma once
/// @file constraints_reaction.hpp
/// The Constraints dock follows the open scenario: "Deriving the model…" while it loads, the
/// model's constraint chain when it is ready (the dock shown iff there is one).

#include <QObject>

#include "window/reaction_context.hpp"

class QDockWidget;

namespace dirac::ui {

class ConstraintPanel;

/// Subscribes to the state's scenarioLoading and modelReady (context.state must be set).
class ConstraintsReaction : public QObject {
  Q_OBJECT

 public:
  ConstraintsReaction(const ReactionContext& context, ConstraintPanel* panel, QDockWidget* dock);

 private:
  void OnModelReady();

  ReactionContext context_;
  ConstraintPanel* panel_;
  QDockWidget* dock_;
};

}  // namespace dirac::ui
