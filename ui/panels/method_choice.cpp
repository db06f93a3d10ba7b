#include "panels/method_choice.hpp"

#include <QComboBox>
#include <QSignalBlocker>
#include <QStandardItemModel>

#include <algorithm>
#include <cmath>

namespace dirac::ui {

namespace {

void AddMethod(QComboBox* combo, IntegrationMethod method, const QString& tip, bool enabled) {
  const IntegratorInfo& info = IntegratorInfoOf(method);
  combo->addItem(QString::fromLatin1(info.name), IntegrationMethodCode(method));
  const int index = combo->count() - 1;
  combo->setItemData(index, tip, Qt::ToolTipRole);
  if (!enabled)
    if (auto* model = qobject_cast<QStandardItemModel*>(combo->model()))
      model->item(index)->setEnabled(false);
}

QString Tip(const IntegratorInfo& info) {
  return QString::fromLatin1(info.summary) +
         (info.fixed_step ? QObject::tr("\nFixed step: the step field below.") : QString());
}

}  // namespace

QComboBox* MakeMethodCombo(QWidget* parent, IntegrationMethod current) {
  auto* combo = new QComboBox(parent);
  combo->setObjectName("simulation.method");
  combo->setToolTip(QObject::tr("simulation.method: how the motion is integrated (--set method=)"));
  AddMethod(combo, current, Tip(IntegratorInfoOf(current)), true);
  combo->setEnabled(false);  // until the model says which methods apply
  return combo;
}

void FillMethodCombo(QComboBox* combo, const std::vector<MethodVerdict>& verdicts,
                     IntegrationMethod current) {
  const QSignalBlocker block(combo);
  combo->clear();
  bool listed = false;
  for (const MethodVerdict& verdict : verdicts) {
    if (verdict.applies) {
      AddMethod(combo, verdict.method, Tip(IntegratorInfoOf(verdict.method)), true);
      listed = listed || verdict.method == current;
    } else if (verdict.method == current) {
      AddMethod(combo, verdict.method, QString::fromStdString(verdict.reason), false);
      listed = true;
    }
  }
  if (!listed) AddMethod(combo, current, Tip(IntegratorInfoOf(current)), false);
  SelectMethodCode(combo, IntegrationMethodCode(current));
  combo->setEnabled(combo->count() > 1);
}

bool SelectMethodCode(QComboBox* combo, double code) {
  const int index = combo->findData(code);
  if (index < 0) return false;
  const QSignalBlocker block(combo);
  combo->setCurrentIndex(index);
  return true;
}

IntegrationMethod SelectedMethod(const QComboBox* combo) {
  const auto method = IntegrationMethodFromCode(combo->currentData().toDouble());
  return method.value_or(IntegrationMethod::kAuto);
}

double DefaultFixedStep(const SimulationSpec& spec) {
  for (int k = 1; k <= 1000; ++k) {
    const double step = spec.output_step / k;
    const double ratio = spec.t_end / step;
    if (std::abs(ratio - std::round(ratio)) <= 1e-9 * std::max(1.0, ratio)) return step;
  }
  return spec.output_step;
}

}  // namespace dirac::ui
