#include "plots/chart_view.hpp"

#include <QChartView>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLegend>
#include <QMouseEvent>
#include <QRubberBand>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "plots/plot_panel.hpp"

namespace dirac::ui {

// The view of one chart: mouse and wheel to the panel (the class PlotPanel befriends).
class ChartView : public QChartView {
 public:
  ChartView(QChart* chart, PlotPanel* panel) : QChartView(chart, panel), panel_(panel) {
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);  // for Ctrl+C
    setRubberBand(QChartView::NoRubberBand);
    setDragMode(QGraphicsView::NoDrag);
    readout_ = new QLabel(this);
    readout_->setObjectName("plotPanel.readout");
    readout_->setStyleSheet(
        "QLabel { background: rgba(255,255,255,225); border: 1px solid #888; padding: 2px 5px; "
        "font-family: monospace; }");
    readout_->setAttribute(Qt::WA_TransparentForMouseEvents);
    readout_->hide();
  }

  QLabel* readout() const { return readout_; }

 protected:
  // Ctrl+C on a chart that has focus (a click gives it): its image and data to the clipboard.
  void keyPressEvent(QKeyEvent* event) override {
    if (const int index = panel_->IndexOf(this); index >= 0 && event->matches(QKeySequence::Copy)) {
      panel_->CopyChart(index);
      event->accept();
      return;
    }
    QChartView::keyPressEvent(event);
  }

  void wheelEvent(QWheelEvent* event) override {
    const int index = panel_->IndexOf(this);
    const int delta = event->angleDelta().y();
    if (index < 0 || delta == 0) return;
    const QPointF value = chart()->mapToValue(event->position(), CursorSeries());
    const bool time = !(event->modifiers() & Qt::ShiftModifier);
    const bool values = !(event->modifiers() & Qt::ControlModifier);
    panel_->Zoom(index, std::pow(0.999, delta), value, time, values);
    event->accept();
  }

  void mousePressEvent(QMouseEvent* event) override {
    if (event->button() != Qt::LeftButton || OnLegend(event->position())) {
      QChartView::mousePressEvent(event);
      return;
    }
    press_ = event->position().toPoint();
    last_ = press_;
    dragging_ = false;
    pressed_ = true;
    if (event->modifiers() & Qt::ShiftModifier) {
      if (!band_) band_ = new QRubberBand(QRubberBand::Rectangle, this);
      band_->setGeometry(QRect(press_, QSize()));
      band_->show();
    }
    event->accept();
  }

  void mouseMoveEvent(QMouseEvent* event) override {
    const QPoint pos = event->position().toPoint();
    if (pressed_) {
      if ((pos - press_).manhattanLength() > 4) dragging_ = true;
      if (band_ && band_->isVisible()) {
        band_->setGeometry(QRect(press_, pos).normalized());
      } else if (dragging_) {
        const QPoint d = pos - last_;
        chart()->scroll(-d.x(), d.y());
        panel_->MarkZoomed(this);
      }
      last_ = pos;
      readout_->hide();
      return;
    }
    ShowReadout(pos);
  }

  void mouseReleaseEvent(QMouseEvent* event) override {
    if (event->button() != Qt::LeftButton || !pressed_) {
      QChartView::mouseReleaseEvent(event);
      return;
    }
    pressed_ = false;
    const int index = panel_->IndexOf(this);
    if (band_ && band_->isVisible()) {
      band_->hide();
      const QRect r = band_->geometry();
      if (index >= 0 && r.width() > 4 && r.height() > 4) {
        const QPointF a = chart()->mapToValue(r.topLeft(), CursorSeries());
        const QPointF b = chart()->mapToValue(r.bottomRight(), CursorSeries());
        panel_->ZoomTo(index, a.x(), b.x(), b.y(), a.y());
      }
    } else if (!dragging_ && index >= 0 && chart()->plotArea().contains(event->position())) {
      emit panel_->seekRequested(chart()->mapToValue(event->position(), CursorSeries()).x());
    }
    event->accept();
  }

  void mouseDoubleClickEvent(QMouseEvent* event) override {
    if (const int index = panel_->IndexOf(this); index >= 0) panel_->ResetZoom(index);
    event->accept();
  }

  void contextMenuEvent(QContextMenuEvent* event) override {
    if (const int index = panel_->IndexOf(this); index >= 0)
      panel_->ShowContextMenu(index, event->globalPos());
    event->accept();
  }

  void leaveEvent(QEvent* event) override {
    readout_->hide();
    QChartView::leaveEvent(event);
  }

  // The pointer leaves the viewport (where the mouse events go): the readout goes too.
  bool viewportEvent(QEvent* event) override {
    if (event->type() == QEvent::Leave) readout_->hide();
    return QChartView::viewportEvent(event);
  }

  void resizeEvent(QResizeEvent* event) override {
    QChartView::resizeEvent(event);
    // After the chart's layout has placed the new plot area.
    QMetaObject::invokeMethod(
        this, [this] { panel_->RefillIfResolutionChanged(this); }, Qt::QueuedConnection);
  }

 private:
  // Legend entries take their own clicks (QLegendMarker::clicked).
  bool OnLegend(const QPointF& pos) const {
    const QLegend* legend = chart()->legend();
    return legend->isVisible() &&
           legend->mapRectToScene(legend->boundingRect()).contains(mapToScene(pos.toPoint()));
  }

  QAbstractSeries* CursorSeries() const { return panel_->CursorSeriesOf(panel_->IndexOf(this)); }

  void ShowReadout(const QPoint& pos) {
    const int index = panel_->IndexOf(this);
    if (index < 0 || !chart()->plotArea().contains(pos)) {
      readout_->hide();
      return;
    }
    const double t = chart()->mapToValue(pos, CursorSeries()).x();
    readout_->setText(panel_->Readout(index, t));
    readout_->adjustSize();
    // Inside the plot area, beside the pointer: never over the axes' labels.
    const QRect area = chart()->plotArea().toRect();
    QPoint at = pos + QPoint(14, 10);
    if (at.x() + readout_->width() > area.right()) at.setX(pos.x() - 14 - readout_->width());
    if (at.y() + readout_->height() > area.bottom()) at.setY(pos.y() - 10 - readout_->height());
    at.setY(std::max(at.y(), area.top()));
    at.setX(std::max(at.x(), area.left()));
    readout_->move(at);
    readout_->show();
    readout_->raise();
  }

  PlotPanel* panel_;
  QLabel* readout_ = nullptr;
  QRubberBand* band_ = nullptr;
  QPoint press_, last_;
  bool pressed_ = false;
  bool dragging_ = false;
};

QChartView* MakeChartView(QChart* chart, PlotPanel* panel) { return new ChartView(chart, panel); }

void HideReadout(QChartView* view) {
  if (auto* readout = view->findChild<QLabel*>("plotPanel.readout")) readout->hide();
}

}  // namespace dirac::ui
