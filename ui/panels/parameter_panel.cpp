#include "panels/parameter_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSlider>
#include <QStringList>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "dirac/constrained_system.hpp"
#include "panels/method_choice.hpp"
#include "panels/number_editors.hpp"
#include "run/boundary_values.hpp"

namespace dirac::ui {

namespace {

constexpr double kUnboundedRange = 1e9;

// A grey, italic, wrapped note named `name`.
QLabel* MakeNote(const QString& text, const char* name, QWidget* parent) {
  auto* note = new QLabel(text, parent);
  note->setObjectName(name);
  note->setWordWrap(true);
  note->setStyleSheet("color: #5a5f6a; font-style: italic;");
  return note;
}

QString UnitSuffix(const std::string& unit) {
  return unit.empty() ? QString() : QStringLiteral(" ") + QString::fromStdString(unit);
}

// The display unit the scenario gives the coordinate or fibre coordinate `name` ("" if none).
QString UnitOf(const dirac::Scenario& scenario, const std::string& name) {
  for (const dirac::Coordinate& c : scenario.coordinates) {
    if (c.name == name) return QString::fromStdString(c.unit);
    if (c.velocity == name && !c.unit.empty()) return QString::fromStdString(c.unit) + "/s";
  }
  for (const dirac::FibreCoordinate& y : scenario.algebroid.fibre)
    if (y.name == name) return QString::fromStdString(y.unit);
  for (const dirac::ControlSpec& u : scenario.optimal_control.controls)
    if (u.name == name) return QString::fromStdString(u.unit);
  return QString();
}

// The fibre-only gauge direction of the model's chain that moves `name` alone (v2 of the LC
// circuit: v2' = lambda1), or null: its initial value changes no coordinate's motion.
const dirac::GaugeDirection* GaugeAlong(const dirac::Model& model, const std::string& name) {
  const dirac::ConstraintChain* chain = model.constraint_chain();
  if (!chain) return nullptr;
  const auto at = std::find(chain->coordinates.begin(), chain->coordinates.end(), name);
  if (at == chain->coordinates.end()) return nullptr;
  const auto k = static_cast<std::size_t>(at - chain->coordinates.begin());
  for (const dirac::GaugeDirection& g : chain->gauge) {
    if (!g.fibre_only || g.components.size() != chain->coordinates.size()) continue;
    bool alone = g.components[k] != "0";
    for (std::size_t j = 0; j < g.components.size() && alone; ++j)
      alone = j == k || g.components[j] == "0";
    if (alone) return &g;
  }
  return nullptr;
}

}  // namespace

ParameterPanel::ParameterPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("parameterPanel");
  layout_ = new QVBoxLayout(this);
  layout_->setContentsMargins(8, 8, 8, 8);
  title_ = new QLabel(this);
  title_->setObjectName("parameterPanel.title");
  QFont title_font = title_->font();
  title_font.setBold(true);
  title_font.setPointSizeF(title_font.pointSizeF() * 1.15);
  title_->setFont(title_font);
  title_->setWordWrap(true);
  description_ = new QLabel(this);
  description_->setObjectName("parameterPanel.description");
  description_->setWordWrap(true);
  description_->setTextFormat(Qt::PlainText);
  description_->setStyleSheet("color: #5a5f6a;");
  model_ = new QLabel(this);
  model_->setObjectName("parameterPanel.model");
  model_->setWordWrap(true);
  model_->setTextFormat(Qt::PlainText);
  model_->setStyleSheet("color: #2c6e91;");
  model_->setVisible(false);
  layout_->addWidget(title_);
  layout_->addWidget(description_);
  layout_->addWidget(model_);
  layout_->addStretch(1);
}

void ParameterPanel::Clear() {
  editors_.clear();
  fixed_.clear();
  defaults_.clear();
  initial_ = nullptr;
  method_ = nullptr;
  delete content_;
  content_ = nullptr;
}

void ParameterPanel::SetScenario(const dirac::Scenario& scenario) {
  Clear();
  title_->setText(QString::fromStdString(scenario.name));
  description_->setText(QString::fromStdString(scenario.description));
  description_->setVisible(!scenario.description.empty());

  content_ = new QWidget(this);
  auto* content_layout = new QVBoxLayout(content_);
  content_layout->setContentsMargins(0, 0, 0, 0);

  if (!scenario.parameters.empty()) {
    auto* group = new QGroupBox(tr("Parameters"), content_);
    group->setObjectName("parameterPanel.parameters");
    auto* grid = new QGridLayout(group);
    grid->setColumnStretch(1, 1);
    for (const dirac::Parameter& parameter : scenario.parameters) AddParameterRow(group, parameter);
    auto* reset = new QPushButton(tr("Reset to defaults"), group);
    reset->setObjectName("parameterPanel.reset");
    connect(reset, &QPushButton::clicked, this, &ParameterPanel::ResetToDefaults);
    grid->addWidget(reset, grid->rowCount(), 0, 1, 3, Qt::AlignRight);
    content_layout->addWidget(group);
  }

  initial_ = MakeInitialGroup(nullptr, scenario);
  content_layout->addWidget(initial_);
  if (PosesSolve(scenario)) content_layout->addWidget(MakeBoundaryGroup(scenario));
  if (QGroupBox* bounds = MakeBoundsGroup(scenario)) content_layout->addWidget(bounds);

  if (scenario.optimal_control.present) {
    // One field for T: the horizon of the Boundary values group is also the final time.
    if (QDoubleSpinBox* horizon = editors_.value("horizon", nullptr))
      editors_.insert("t_end", horizon);
  } else {
    auto* simulation = new QGroupBox(tr("Simulation"), content_);
    simulation->setObjectName("parameterPanel.simulation");
    new QFormLayout(simulation);
    QDoubleSpinBox* t_end = AddSpinRow(simulation, "t_end", "simulation.t_end", tr("final time"),
                                       "s", scenario.simulation.t_end);
    t_end->setMinimum(std::max(scenario.simulation.output_step, 1e-6));
    method_ = MakeMethodCombo(simulation, scenario.simulation.method);
    static_cast<QFormLayout*>(simulation->layout())->addRow(tr("method"), method_);
    connect(method_, &QComboBox::activated, this, &ParameterPanel::OnMethodChosen);
    QDoubleSpinBox* step = AddSpinRow(simulation, "step", "simulation.step", tr("step"), "s",
                                      scenario.simulation.step);
    step->setMinimum(0.0);
    step->setSingleStep(0.001);
    step->setToolTip(
        tr("simulation.step: the fixed step of variational, isospectral and "
           "lie_variational (output_step and t_end are whole multiples of it)"));
    EnableStep();
    content_layout->addWidget(simulation);
  }

  layout_->insertWidget(3, content_);
  SetModelDescription(QString());
}

void ParameterPanel::SetModel(const dirac::Model& model, const dirac::Scenario& scenario) {
  SetModelDescription(tr("Model: %1").arg(QString::fromStdString(model.formulation())));
  simulation_ = scenario.simulation;
  if (method_) {
    // The methods that apply to this model (its refusals are not offered).
    std::vector<double> parameters;
    for (const dirac::Parameter& parameter : scenario.parameters)
      parameters.push_back(parameter.value);
    FillMethodCombo(method_, model.integration_methods(parameters), scenario.simulation.method);
    EnableStep();
  }
  if (!content_ || !initial_) return;
  for (QDoubleSpinBox* spin : initial_->findChildren<QDoubleSpinBox*>())
    editors_.remove(editors_.key(spin));
  auto* content_layout = static_cast<QVBoxLayout*>(content_->layout());
  const int index = content_layout->indexOf(initial_);
  delete initial_;
  initial_ = MakeInitialGroup(&model, scenario);
  content_layout->insertWidget(index, initial_);
}

QGroupBox* ParameterPanel::MakeInitialGroup(const dirac::Model* model,
                                            const dirac::Scenario& scenario) {
  // A solve's initial conditions are its boundary values at t = 0 (the Boundary values group
  // edits them); what is left of the model's initial values are the shooting's unknowns.
  const bool solve = PosesSolve(scenario);
  auto* group =
      new QGroupBox(solve ? tr("Solver's start at t = 0") : tr("Initial conditions"), content_);
  group->setObjectName("parameterPanel.initial");
  auto* form = new QFormLayout(group);
  if (!model) {
    auto* waiting = new QLabel(tr("Deriving the model: its initial values follow."), group);
    waiting->setStyleSheet("color: #5a5f6a; font-style: italic;");
    form->addRow(waiting);
    return group;
  }
  guesses_.clear();
  bool any_fixed = false, any_shown = false, any_gauge = false;
  for (const dirac::InitialValueInfo& info : model->initial_values()) {
    // In a solve, values the model fixes (accelerations on M_f) are not the user's either: the
    // Constraints panel shows the equations that fix them.
    if (solve && (!info.free || IsBoundaryValueName(scenario, "initial." + info.name))) continue;
    const QString name = QString::fromStdString(info.name);
    // A value no --set name reaches (an optimal-control costate) is shown, never edited.
    const std::optional<double> current = dirac::CurrentValue(scenario, info.name);
    QDoubleSpinBox* spin = AddSpinRow(group, name, "initial." + name, name + "(0)",
                                      UnitOf(scenario, info.name), current.value_or(0.0));
    any_shown = true;
    QString tip = tr("initial %1").arg(QString::fromLatin1(dirac::ColumnKindName(info.kind)));
    if (solve) {
      guesses_.push_back(name);
      tip = current ? tr("The shooting's start guess of %1(0): the solver starts here (or from "
                         "the previous optimum). After a solve: the solved value.")
                          .arg(name)
                    : tr("Solved %1(0), an unknown of the shooting (the solver picks its own "
                         "start guess): shown, not edited.")
                          .arg(name);
    }
    if (!info.free) {
      any_fixed = true;
      tip = tr("Fixed by the model: %1 (not a free initial condition)")
                .arg(QString::fromStdString(info.fixed_because));
    }
    // A gauge direction's value moves nothing but itself: an edit would change no motion.
    const dirac::GaugeDirection* gauge = info.free ? GaugeAlong(*model, info.name) : nullptr;
    if (gauge) {
      any_gauge = true;
      tip = tr("%1 lies along the gauge direction %2 (%3' = %2, integrated with %2 = %4): the "
               "motion of the coordinates does not depend on %1(0), so it is not edited here "
               "(set the gauge: block to choose %2)")
                .arg(name, QString::fromStdString(gauge->name))
                .arg(name)
                .arg(QString::fromStdString(gauge->value.empty() ? "0" : gauge->value));
    }
    spin->setEnabled(info.free && !gauge && current.has_value());
    spin->setToolTip(tip);
    if (QWidget* label = form->labelForField(spin)) {
      label->setEnabled(spin->isEnabled() || solve);
      label->setToolTip(tip);
    }
  }
  if (solve) {
    form->addRow(MakeNote(
        tr("The shooting's unknowns: after each solve they show the solved values at t = 0."),
        "parameterPanel.guessNote", group));
    group->setVisible(any_shown);
  } else if (model->initial_values().empty()) {
    form->addRow(new QLabel(tr("none"), group));
  }
  if (any_fixed) {
    form->addRow(
        MakeNote(tr("Greyed: fixed by the model (constraint algorithm) — hover for the equation."),
                 "parameterPanel.fixedNote", group));
  }
  if (any_gauge) {
    form->addRow(MakeNote(tr("Greyed: gauge directions — their initial values change no motion "
                             "(hover for the free function)."),
                          "parameterPanel.gaugeNote", group));
  }
  return group;
}

void ParameterPanel::ShowSolvedStart(const dirac::Trajectory& solved, bool shooting) {
  if (solved.empty()) return;
  bool any = false;
  for (const QString& name : guesses_)
    if (const auto column = solved.FindColumn(name.toStdString())) {
      SyncValue(name, solved.at(0, *column));
      any = true;
    }
  // The unknowns the solve has: none for a solve by collocation (its unknowns are the mesh's).
  if (initial_ && !guesses_.isEmpty()) initial_->setVisible(any && shooting);
  // A free horizon: the T the solve found, where the optimum ends.
  if (QCheckBox* fixed = fixed_.value("horizon", nullptr); fixed && !fixed->isChecked())
    SyncValue("horizon", solved.at(solved.num_rows() - 1, 0));
}

QGroupBox* ParameterPanel::MakeBoundsGroup(const dirac::Scenario& scenario) {
  const dirac::OptimalControlSpec& oc = scenario.optimal_control;
  const bool horizon_bounds = oc.present && std::isfinite(oc.horizon_max);
  if (!oc.present || (oc.bounds.empty() && !horizon_bounds)) return nullptr;
  auto* group = new QGroupBox(tr("Bounds"), content_);
  group->setObjectName("parameterPanel.bounds");
  group->setToolTip(
      tr("min <= quantity <= max along the whole motion (the plots draw them as dashed lines, "
         "the solution's stretches on a bound thick). Every edit re-solves."));
  auto* grid = new QGridLayout(group);
  grid->setColumnStretch(1, 1);
  grid->setColumnStretch(2, 1);
  for (const auto& [column, text] : {std::pair{1, tr("min")}, std::pair{2, tr("max")}}) {
    auto* heading = new QLabel(text, group);
    heading->setStyleSheet("color: #5a5f6a; font-style: italic;");
    grid->addWidget(heading, 0, column, Qt::AlignHCenter);
  }
  // One row: the label, then per side a spin box named by its --set name (an open side: "—").
  auto add_row = [&](const QString& label, const QString& prefix, double min, double max,
                     const QString& unit, const QString& tip) {
    const int row = grid->rowCount();
    auto* name = new QLabel(label, group);
    name->setToolTip(tip);
    grid->addWidget(name, row, 0);
    // The unit once, after both fields (in each field's suffix the numbers had no room).
    auto* unit_label = new QLabel(unit, group);
    unit_label->setObjectName(prefix + ".unit");
    unit_label->setStyleSheet("color: #5a5f6a;");
    grid->addWidget(unit_label, row, 3);
    for (const auto& [column, value, side] :
         {std::tuple{1, min, QStringLiteral(".min")}, std::tuple{2, max, QStringLiteral(".max")}}) {
      if (!std::isfinite(value)) {
        auto* open = new QLabel(QStringLiteral("—"), group);
        open->setObjectName(prefix + side);
        open->setToolTip(tr("open: --set %1%2=VALUE bounds it").arg(prefix, side));
        grid->addWidget(open, row, column, Qt::AlignHCenter);
        continue;
      }
      const QString set_name = prefix + side;
      QDoubleSpinBox* spin = new NumberSpinBox(group);
      spin->setObjectName(set_name);
      spin->setRange(-kUnboundedRange, kUnboundedRange);
      spin->setSingleStep(std::isfinite(max - min) && max > min ? (max - min) / 100.0 : 0.1);
      spin->setKeyboardTracking(false);
      spin->setValue(value);
      spin->setMinimumWidth(60);
      spin->setMinimumHeight(spin->sizeHint().height());
      spin->setToolTip(tip + "\n--set " + set_name);
      connect(spin, &QDoubleSpinBox::valueChanged, this,
              [this, set_name](double v) { emit valueChanged(set_name, v); });
      grid->addWidget(spin, row, column);
      editors_.insert(set_name, spin);
    }
  };
  for (const dirac::VariableBound& b : oc.bounds) {
    const QString name = QString::fromStdString(b.name);
    add_row(name, "bounds." + name, b.min, b.max, UnitOf(scenario, b.name),
            tr("%1 held in [min, max] along the whole motion").arg(name));
  }
  if (horizon_bounds) {
    add_row(tr("horizon T"), "horizon_bounds", oc.horizon_min, oc.horizon_max, "s",
            tr("Where a free horizon T is sought (unchecked \"fixed\" box of the horizon)"));
    EnableHorizonBounds(oc.horizon_free);
  }
  return group;
}

void ParameterPanel::EnableHorizonBounds(bool enabled) {
  for (const char* side : {"horizon_bounds.min", "horizon_bounds.max"})
    if (QDoubleSpinBox* spin = editors_.value(side, nullptr)) spin->setEnabled(enabled);
}

QGroupBox* ParameterPanel::MakeBoundaryGroup(const dirac::Scenario& scenario) {
  auto* group = new QGroupBox(tr("Boundary values"), content_);
  group->setObjectName("parameterPanel.boundary");
  group->setToolTip(
      tr("Checked: the value is prescribed. Unchecked: free (its transversality "
         "condition holds instead). Every edit re-solves from the previous "
         "optimum."));
  auto* grid = new QGridLayout(group);
  grid->setColumnStretch(2, 1);
  const bool optimal_control = scenario.optimal_control.present;
  int section = -1;   // 0: at t = 0, 1: at t = T, 2: the horizon
  QStringList notes;  // what the less obvious quantities mean (R.x: a rotation vector)
  for (const BoundaryValueInfo& info : ListBoundaryValues(scenario)) {
    const int this_section = info.horizon ? 2 : info.initial ? 0 : 1;
    if (this_section != section && this_section < 2) {
      section = this_section;
      const int heading_row = grid->rowCount();
      auto* heading = new QLabel(
          section == 0 ? tr("at t = 0") : (optimal_control ? tr("at t = T") : tr("at t = t_end")),
          group);
      heading->setStyleSheet("color: #5a5f6a; font-style: italic;");
      grid->addWidget(heading, heading_row, 0);
      // The check boxes' column says what they mean.
      auto* fixed_heading = new QLabel(tr("fixed"), group);
      fixed_heading->setObjectName(
          QStringLiteral("parameterPanel.boundary.fixedHeading%1").arg(section));
      fixed_heading->setStyleSheet("color: #5a5f6a; font-style: italic;");
      fixed_heading->setToolTip(
          tr("Checked: prescribed. Unchecked: free (its transversality "
             "condition holds instead)."));
      grid->addWidget(fixed_heading, heading_row, 1, Qt::AlignHCenter);
    }
    const QString name = QString::fromStdString(info.name);
    const QString quantity = QString::fromStdString(info.quantity);
    const std::optional<double> value = GetBoundaryValue(scenario, info.name);
    const int row = grid->rowCount();
    auto* label = new QLabel(
        info.horizon ? tr("horizon T (final time)") : quantity + (info.initial ? "(0)" : "(T)"),
        group);
    label->setObjectName("boundary." + name + ".label");
    label->setWordWrap(true);  // "horizon T (final time)" on two lines in a narrow dock
    if (!info.description.empty()) label->setToolTip(QString::fromStdString(info.description));
    auto* fixed = new QCheckBox(group);
    fixed->setObjectName("boundary." + name + ".fixed");
    fixed->setChecked(value.has_value());
    fixed->setEnabled(info.can_free);
    fixed->setToolTip(info.can_free ? tr("prescribed (uncheck: free)")
                                    : tr("always prescribed in this problem"));
    fixed->setAccessibleName(tr("%1 fixed").arg(label->text()));
    QDoubleSpinBox* spin = new NumberSpinBox(group);
    spin->setObjectName("boundary." + name);
    spin->setRange(info.horizon ? 1e-3 : -kUnboundedRange, kUnboundedRange);
    spin->setSingleStep(info.horizon ? 0.1 : 0.05);
    spin->setKeyboardTracking(false);
    // A free horizon shows its guess (after a solve, the T found: ShowSolvedStart).
    spin->setValue(value.value_or(info.horizon ? scenario.optimal_control.horizon : 0.0));
    spin->setEnabled(value.has_value());
    spin->setMinimumWidth(64);  // with the unit after it, the row fits the dock's 300 px
    spin->setMinimumHeight(spin->sizeHint().height());
    spin->setToolTip(label->toolTip());
    const QString about = QString::fromStdString(info.description);
    if (!about.isEmpty() && !notes.contains(about)) notes << about;
    connect(spin, &QDoubleSpinBox::valueChanged, this,
            [this, name](double v) { emit valueChanged(name, v); });
    connect(fixed, &QCheckBox::toggled, this, [this, name, spin](bool on) {
      spin->setEnabled(on);
      if (name == "horizon") EnableHorizonBounds(!on);
      if (on) {
        emit valueChanged(name, spin->value());
      } else {
        emit boundaryValueFreed(name);
      }
    });
    grid->addWidget(label, row, 0);
    grid->addWidget(fixed, row, 1, Qt::AlignHCenter);
    grid->addWidget(spin, row, 2);
    // The unit after the field, never cut: in the field's suffix a narrow dock cut it ("rad/").
    if (!info.unit.empty()) {
      auto* unit = new QLabel(QString::fromStdString(info.unit), group);
      unit->setObjectName("boundary." + name + ".unit");
      unit->setStyleSheet("color: #5a5f6a;");
      grid->addWidget(unit, row, 3);
    }
    editors_.insert(name, spin);
    fixed_.insert(name, fixed);
  }
  if (!notes.isEmpty()) {
    grid->addWidget(MakeNote(notes.join('\n'), "parameterPanel.boundaryNote", group),
                    grid->rowCount(), 0, 1, 4);
  }
  return group;
}

void ParameterPanel::SyncValue(const QString& name, double value) {
  if (name == "method" && method_) {
    SelectMethodCode(method_, value);
    EnableStep();
    return;
  }
  QDoubleSpinBox* spin = editors_.value(name, nullptr);
  if (!spin) return;
  const QSignalBlocker block(spin);
  spin->setValue(value);
  if (auto* slider = findChild<QSlider*>("parameter." + name + ".slider")) {
    const QSignalBlocker block_slider(slider);
    slider->setValue(SliderPosition(value, spin->minimum(), spin->maximum()));
  }
}

void ParameterPanel::SyncBoundaryValues(const dirac::Scenario& scenario) {
  for (auto it = fixed_.cbegin(); it != fixed_.cend(); ++it) {
    const std::optional<double> value = GetBoundaryValue(scenario, it.key().toStdString());
    QDoubleSpinBox* spin = editors_.value(it.key(), nullptr);
    {
      const QSignalBlocker block(it.value());
      it.value()->setChecked(value.has_value());
    }
    if (!spin) continue;
    spin->setEnabled(value.has_value());
    if (value) {
      const QSignalBlocker block(spin);
      spin->setValue(*value);
    }
  }
  EnableHorizonBounds(scenario.optimal_control.horizon_free);
}

void ParameterPanel::AddParameterRow(QWidget* group, const dirac::Parameter& parameter) {
  auto* grid = static_cast<QGridLayout*>(group->layout());
  const int row = grid->rowCount();
  const QString name = QString::fromStdString(parameter.name);
  // The range always contains the current value (a --set may lie outside the file's range).
  const double min = std::min({parameter.min, parameter.max, parameter.value});
  const double max = std::max({parameter.min, parameter.max, parameter.value});

  auto* label = new QLabel(name, group);
  label->setObjectName("parameter." + name + ".label");
  QString tip = QString::fromStdString(parameter.description);
  if (!parameter.unit.empty())
    tip += QStringLiteral(" [%1]").arg(QString::fromStdString(parameter.unit));
  tip += tr("\nrange %1 … %2, default %3").arg(min).arg(max).arg(parameter.default_value);
  label->setToolTip(tip.trimmed());

  auto* slider = new PanelSlider(Qt::Horizontal, group);
  slider->setObjectName("parameter." + name + ".slider");
  slider->setRange(0, kSliderSteps);
  slider->setValue(SliderPosition(parameter.value, min, max));
  slider->setToolTip(label->toolTip());

  auto* spin = new NumberSpinBox(group);
  spin->setObjectName("parameter." + name);
  spin->setRange(min, max);
  spin->setSingleStep((max - min) / 100.0);
  spin->setSuffix(UnitSuffix(parameter.unit));
  spin->setKeyboardTracking(false);
  spin->setValue(parameter.value);
  spin->setToolTip(label->toolTip());
  spin->setMinimumWidth(90);
  // Every value the slider can give, whole with its unit.
  for (int position = 0; position <= kSliderSteps; ++position)
    spin->AlsoFit(SliderValue(position, min, max));

  connect(slider, &QSlider::valueChanged, spin,
          [spin, min, max](int position) { spin->setValue(SliderValue(position, min, max)); });
  connect(spin, &QDoubleSpinBox::valueChanged, this, [this, slider, name, min, max](double v) {
    const QSignalBlocker block(slider);
    slider->setValue(SliderPosition(v, min, max));
    emit valueChanged(name, v);
  });

  grid->addWidget(label, row, 0);
  grid->addWidget(slider, row, 1);
  grid->addWidget(spin, row, 2);
  editors_.insert(name, spin);
  defaults_.insert(name, parameter.default_value);
}

QDoubleSpinBox* ParameterPanel::AddSpinRow(QWidget* group, const QString& symbol,
                                           const QString& object_name, const QString& label,
                                           const QString& unit, double value) {
  QDoubleSpinBox* spin = new NumberSpinBox(group);
  spin->setObjectName(object_name);
  spin->setRange(-kUnboundedRange, kUnboundedRange);
  spin->setSingleStep(0.1);
  spin->setSuffix(unit.isEmpty() ? QString() : " " + unit);
  spin->setKeyboardTracking(false);
  spin->setValue(value);
  // Full height even when many rows share a short dock (the panel scrolls instead).
  spin->setMinimumHeight(spin->sizeHint().height());
  connect(spin, &QDoubleSpinBox::valueChanged, this,
          [this, symbol](double v) { emit valueChanged(symbol, v); });
  static_cast<QFormLayout*>(group->layout())->addRow(label, spin);
  editors_.insert(symbol, spin);
  return spin;
}

void ParameterPanel::OnMethodChosen(int index) {
  const auto method = IntegrationMethodFromCode(method_->itemData(index).toDouble());
  if (!method) return;
  QDoubleSpinBox* step = editors_.value("step", nullptr);
  // A fixed-step method without a step would be refused: give it one first (its own edit).
  if (IntegratorInfoOf(*method).fixed_step && step && !(step->value() > 0.0)) {
    dirac::SimulationSpec spec = simulation_;
    if (QDoubleSpinBox* t_end = editors_.value("t_end", nullptr)) spec.t_end = t_end->value();
    step->setValue(DefaultFixedStep(spec));
  }
  EnableStep();
  emit valueChanged("method", IntegrationMethodCode(*method));
}

void ParameterPanel::EnableStep() {
  QDoubleSpinBox* step = editors_.value("step", nullptr);
  if (!step || !method_) return;
  const bool fixed = IntegratorInfoOf(SelectedMethod(method_)).fixed_step;
  step->setEnabled(fixed);
  if (QWidget* label =
          static_cast<QFormLayout*>(step->parentWidget()->layout())->labelForField(step))
    label->setEnabled(fixed);
}

void ParameterPanel::SetModelDescription(const QString& text) {
  model_->setText(text);
  model_->setVisible(!text.isEmpty());
}

void ParameterPanel::ResetToDefaults() {
  for (auto it = defaults_.cbegin(); it != defaults_.cend(); ++it) {
    if (QDoubleSpinBox* spin = editors_.value(it.key())) spin->setValue(it.value());
  }
}

}  // namespace dirac::ui
