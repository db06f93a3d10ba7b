#pragma once
/// @file scenario_drops.hpp
/// A scenario file (*.yaml, *.yml) dropped onto the window opens.

#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace dirac::ui {

/// Installed on `window` (which accepts drops from then on): takes drags that carry a local
/// scenario file and calls `open` with the first one dropped.
class ScenarioDrops : public QObject {
  Q_OBJECT

 public:
  ScenarioDrops(QWidget& window, std::function<void(const QString&)> open);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  std::function<void(const QString&)> open_;
};

}  // namespace dirac::ui
