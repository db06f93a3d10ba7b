#pragma once
/// @file method_choice.hpp
/// The Simulation group's method combo ("simulation.method"): the registry's methods
/// (dirac/integrators.hpp) that apply to the open model, by name, each with its summary as
/// tooltip and its IntegrationMethodCode as item data, so that a choice is the edit
/// `--set method=NAME` as a number (the window's undo and sessions hold numbers).

#include <vector>

#include "dirac/integrators.hpp"
#include "dirac/simulation_settings.hpp"

class QComboBox;
class QWidget;

namespace dirac::ui {

/// A combo named "simulation.method" holding only `current` until the model says what applies
/// (FillMethodCombo).
QComboBox* MakeMethodCombo(QWidget* parent, IntegrationMethod current);

/// Lists the methods of `verdicts` that apply, in registry order, and selects `current`. A
/// current method that does not apply (a file that asks for it) stays listed, disabled, with its
/// refusal as tooltip; the others that do not apply are not offered. Emits nothing.
void FillMethodCombo(QComboBox* combo, const std::vector<MethodVerdict>& verdicts,
                     IntegrationMethod current);

/// Selects the method of `code` (IntegrationMethodCode) without emitting anything; false if the
/// combo does not list it.
bool SelectMethodCode(QComboBox* combo, double code);

/// The method the combo shows (auto if none).
IntegrationMethod SelectedMethod(const QComboBox* combo);

/// A step for a fixed-step method when `spec.step` is not set [s]: the largest output_step / k
/// (k = 1 ... 1000) of which t_end is a whole multiple, else output_step.
double DefaultFixedStep(const SimulationSpec& spec);

}  // namespace dirac::ui
