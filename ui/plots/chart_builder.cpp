// Building one chart of the PlotPanel: its axes titled by quantity, its series and overlay
// curves, the time cursor, the legend that toggles curves, and axis titles that fit (the
// members BuildPlot and FitAxisTitles of PlotPanel; plot_panel.hpp).
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QPainter>
#include <QPen>
#include <QVariant>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "plots/axis_format.hpp"
#include "plots/chart_view.hpp"
#include "plots/plot_panel.hpp"
#include "plots/plot_parts.hpp"

namespace dirac::ui {
namespace {

// Series colours: distinguishable, print-friendly (Okabe–Ito palette without orange, which the
// 3D view reserves for the particle).
const QColor kSeriesColors[] = {QColor(0, 114, 178),  QColor(0, 158, 115), QColor(204, 121, 167),
                                QColor(86, 180, 233), QColor(213, 94, 0),  QColor(240, 228, 66)};
// A pinned run dark grey (not a lighter shade of its series' colour, which read as the same
// run); the comparison run dashed in its series' colours.
const QColor kPinnedColor(70, 70, 70);
const char* const kOverlayNames[] = {"pinned", "comparison"};
// An overlay's legend entry: its whole label and its name alone (marker properties, FitLegend).
const char* const kWholeLabel = "dirac.wholeLabel";
const char* const kShortLabel = "dirac.shortLabel";

}  // namespace

QString PlotPanel::WordsOf(const QStringList& columns) const {
  QStringList words;
  for (const QString& column : columns) {
    const auto it = quantities_.find(column.toStdString());
    const QString w =
        it == quantities_.end() ? QString() : QString::fromStdString(it->second.words);
    if (!w.isEmpty() && !words.contains(w)) words << w;
  }
  // Plural where several columns share one word: "costates", "controls".
  if (words.size() == 1 && columns.size() > 1 && !words[0].contains(' ') &&
      !words[0].endsWith('s') && !words[0].endsWith("um"))
    words[0] = words[0].endsWith('y') ? words[0].chopped(1) + "ies" : words[0] + 's';
  return words.join(QStringLiteral(", "));
}

std::unique_ptr<PlotPanel::Plot> PlotPanel::BuildPlot(std::size_t index,
                                                      const dirac::PlotSpec& spec, bool auxiliary,
                                                      bool last) {
  auto plot = std::make_unique<Plot>();
  plot->spec = spec;
  plot->auxiliary = auxiliary;
  const QString id = QStringLiteral("plot.%1").arg(index);

  plot->chart = new QChart();
  plot->chart->setObjectName(id + ".chart");
  plot->chart->setTitle(QString::fromStdString(spec.title));
  QFont title_font = plot->chart->titleFont();
  title_font.setBold(true);
  plot->chart->setTitleFont(title_font);
  plot->chart->setMargins(kChartMargins);
  plot->chart->setBackgroundRoundness(0);
  plot->chart->setAnimationOptions(QChart::NoAnimation);
  plot->chart->legend()->setAlignment(Qt::AlignTop);
  plot->chart->legend()->setShowToolTips(true);

  plot->x_axis = new QValueAxis(plot->chart);
  plot->x_axis->setTitleText(QStringLiteral("t [s]"));
  // The charts share one time axis: name it once, under the last chart, to save height.
  plot->x_axis->setTitleVisible(last);
  plot->x_axis->setRange(0.0, t_end_);
  NiceTicks(plot->x_axis);
  plot->chart->addAxis(plot->x_axis, Qt::AlignBottom);

  // Quantities in order of appearance: the first on the left, any other on the right.
  QStringList names;
  for (const std::string& s : spec.series) names << QString::fromStdString(s);
  std::vector<std::string> keys;
  for (const std::string& s : spec.series) {
    const auto it = quantities_.find(s);
    keys.push_back(it == quantities_.end() ? std::string() : it->second.Key());
  }
  std::string left_key;
  for (const std::string& k : keys) {
    if (!k.empty()) {
      left_key = k;
      break;
    }
  }
  for (const std::string& k : keys) plot->series_axis.push_back(k.empty() || k == left_key ? 0 : 1);
  const bool two_axes =
      std::find(plot->series_axis.begin(), plot->series_axis.end(), 1) != plot->series_axis.end();
  for (int a = 0; a < (two_axes ? 2 : 1); ++a) {
    // "x, y: position [m]", "mu: multiplier"; several quantities on one axis:
    // "x, y: position [m]; vx: velocity [m/s]".
    QStringList axis_keys;
    QList<QStringList> names_of_key;
    for (std::size_t s = 0; s < spec.series.size(); ++s) {
      if (plot->series_axis[s] != a) continue;
      const QString key = QString::fromStdString(keys[s]);
      qsizetype k = axis_keys.indexOf(key);
      if (k < 0) {
        axis_keys << key;
        names_of_key.append(QStringList());
        k = axis_keys.size() - 1;
      }
      names_of_key[k] << names[static_cast<qsizetype>(s)];
    }
    QStringList parts, short_parts, unit_parts, stacked_parts, broken_parts;
    for (qsizetype k = 0; k < axis_keys.size(); ++k) {
      const QString& key = axis_keys[k];
      // Kinds are named only where they are why the chart has two axes.
      const bool plain = key.isEmpty() || (key.startsWith('(') && !two_axes);
      const bool unit = !plain && !key.startsWith('(');
      const QString unit_text = unit ? QStringLiteral(" [%1]").arg(key) : QString();
      // Each quantity in words: "w1, w2, w3: angular velocity [rad/s]", on either axis.
      const QString words = WordsOf(names_of_key[k]);
      parts << CompactNames(names_of_key[k]) + (!words.isEmpty() ? ": " + words + unit_text
                                                : plain          ? QString()
                                                : unit           ? unit_text
                                                                 : " " + key);
      // Where the whole title does not fit the axis: the words and the unit, else the unit
      // alone, else the names' shared prefix ("residual" of residual_hidden1,
      // residual_hidden2), else the names.
      const QString prefix = UnderscorePrefix(names_of_key[k]);
      if (!words.isEmpty()) {
        short_parts << words + unit_text;
        const QString under = unit ? QStringLiteral("<br>[%1]").arg(key) : QString();
        if (unit) stacked_parts << words + under;    // two lines: the words over the unit
        broken_parts << BrokenInTwo(words) + under;  // the words on two lines too
        if (unit) unit_parts << QStringLiteral("[%1]").arg(key);
      } else if (unit) {
        short_parts << QStringLiteral("[%1]").arg(key);
        unit_parts << short_parts.back();
      } else {
        short_parts << (prefix.isEmpty() ? CompactNames(names_of_key[k]) : prefix.chopped(1));
      }
    }
    const QString title = parts.join(QStringLiteral("; "));
    auto* axis = new QValueAxis(plot->chart);
    axis->setObjectName(QStringLiteral("%1.axis.%2").arg(id, a == 0 ? "left" : "right"));
    axis->setTitleText(title);
    axis->setLabelFormat("%.6g");
    axis->setTickCount(5);
    QFont axis_font = axis->titleFont();
    axis_font.setPointSizeF(axis_font.pointSizeF() * 0.9);
    axis->setTitleFont(axis_font);
    plot->chart->addAxis(axis, a == 0 ? Qt::AlignLeft : Qt::AlignRight);
    plot->y_axis[static_cast<std::size_t>(a)] = axis;
    plot->title_full[static_cast<std::size_t>(a)] = title;
    plot->title_short[static_cast<std::size_t>(a)] = short_parts.join(QStringLiteral("; "));
    plot->title_units[static_cast<std::size_t>(a)] = unit_parts.join(QStringLiteral("; "));
    // The words over the unit, for a short axis (one quantity only).
    const bool one = axis_keys.size() == 1;
    plot->title_stacked[static_cast<std::size_t>(a)] =
        stacked_parts.size() == 1 && one ? stacked_parts[0] : QString();
    plot->title_broken[static_cast<std::size_t>(a)] =
        broken_parts.size() == 1 && one ? broken_parts[0] : QString();
    plot->title_font[static_cast<std::size_t>(a)] = axis_font;
  }

  AddBoundItems(*plot, id);  // under the curves

  // Legend entries without a shared prefix ("spatial_momentum_x" -> "x"); the axis says it.
  // Not down to bare numbers: "mu_2 … mu_7" kept whole (a legend "2 3 4 5 6 7" named nothing).
  QString prefix = UnderscorePrefix(names);
  for (const QString& name : names)
    if (!prefix.isEmpty() && name.size() > prefix.size() && name[prefix.size()].isDigit())
      prefix.clear();
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const QString& name = names[static_cast<qsizetype>(s)];
    auto* series = new QLineSeries(plot->chart);
    series->setObjectName(id + "." + name);
    series->setName(prefix.isEmpty() ? name : name.mid(prefix.size()));
    QPen pen(kSeriesColors[s % std::size(kSeriesColors)]);
    pen.setWidthF(
        1.0);  // one pixel: the raster engine's fast path (wider pens are stroked as polygons)
    series->setPen(pen);
    plot->chart->addSeries(series);
    series->attachAxis(plot->x_axis);
    series->attachAxis(plot->y_axis[static_cast<std::size_t>(plot->series_axis[s])]);
    plot->series.push_back(series);
  }
  for (int o = 0; o < 2; ++o) {
    const OverlayData& overlay = overlays_[static_cast<std::size_t>(o)];
    auto& list = plot->overlay[static_cast<std::size_t>(o)];
    list.assign(spec.series.size(), nullptr);
    if (!overlay.trajectory || auxiliary) continue;
    for (std::size_t s = 0; s < spec.series.size(); ++s) {
      if (!overlay.trajectory->FindColumn(spec.series[s])) continue;
      const QString& name = names[static_cast<qsizetype>(s)];
      auto* series = new QLineSeries(plot->chart);
      series->setObjectName(id + "." + name + "." + kOverlayNames[o]);
      series->setName(QStringLiteral("%1 (%2)").arg(
          prefix.isEmpty() ? name : name.mid(prefix.size()), overlay.label));
      // The comparison dashed in its curve's colour (all magenta, x, y and z of the other
      // motion could not be told apart); the pinned run dotted grey.
      QPen pen(o == kComparison ? plot->series[s]->pen().color() : kPinnedColor);
      pen.setWidthF(1.5);
      pen.setStyle(o == kComparison ? Qt::DashLine : Qt::DotLine);
      series->setPen(pen);
      plot->chart->addSeries(series);
      series->attachAxis(plot->x_axis);
      series->attachAxis(plot->y_axis[static_cast<std::size_t>(plot->series_axis[s])]);
      list[s] = series;
    }
  }

  DrawActiveStretches(*plot);

  plot->cursor = new QLineSeries(plot->chart);
  plot->cursor->setObjectName(id + ".cursor");
  QPen cursor_pen(QColor(230, 120, 0));
  cursor_pen.setWidthF(1.2);
  cursor_pen.setStyle(Qt::DashLine);
  plot->cursor->setPen(cursor_pen);
  plot->chart->addSeries(plot->cursor);
  plot->cursor->attachAxis(plot->x_axis);
  plot->cursor->attachAxis(plot->y_axis[0]);
  for (QLegendMarker* marker : plot->chart->legend()->markers(plot->cursor))
    marker->setVisible(false);
  int legend_entries = 0;
  // An overlay has one legend entry per chart, named by its label ("nonholonomic", "pinned"):
  // an entry per curve ("x (nonholonomic)", ...) made the legend elide every name. A click on it
  // hides or shows all the overlay's curves.
  for (int o = 0; o < 2; ++o) {
    std::vector<QLineSeries*> curves;
    for (QLineSeries* series : plot->overlay[static_cast<std::size_t>(o)])
      if (series) curves.push_back(series);
    if (curves.empty()) continue;
    for (std::size_t c = 0; c < curves.size(); ++c) {
      for (QLegendMarker* marker : plot->chart->legend()->markers(curves[c])) {
        marker->setVisible(c == 0);
        if (c != 0) continue;
        ++legend_entries;
        // The entry stands for every curve of the overlay: the comparison's are in their
        // curves' colours, so its entry is grey and says how they are drawn.
        const QString label = overlays_[static_cast<std::size_t>(o)].label;
        const QString whole = label + (o == kComparison ? QObject::tr(" (dashed)") : QString());
        marker->setLabel(whole);
        // FitLegend drops " (dashed)" where the whole label does not fit.
        marker->setProperty(kWholeLabel, whole);
        marker->setProperty(kShortLabel, label);
        marker->setBrush(kPinnedColor);
        QLegend* legend = plot->chart->legend();
        QObject::connect(marker, &QLegendMarker::clicked, plot->chart, [marker, curves, legend] {
          const bool visible = !curves.front()->isVisible();
          // The legend shows a curve's entry when the curve is shown: keep only the first.
          for (QLineSeries* series : curves) {
            series->setVisible(visible);
            for (QLegendMarker* other : legend->markers(series)) other->setVisible(other == marker);
          }
          QColor label = marker->labelBrush().color();
          label.setAlphaF(visible ? 1.0 : 0.35);
          marker->setLabelBrush(label);
        });
      }
    }
  }
  auto is_overlay = [&plot](const QAbstractSeries* series) {
    for (const auto& list : plot->overlay)
      if (std::find(list.begin(), list.end(), series) != list.end()) return true;
    return false;
  };
  for (QLegendMarker* marker : plot->chart->legend()->markers()) {
    if (marker->series() == plot->cursor || is_overlay(marker->series()) ||
        IsBoundItem(*plot, marker->series()))
      continue;
    ++legend_entries;
    // A click on an entry hides or shows its curve (the entry stays, faded).
    QObject::connect(marker, &QLegendMarker::clicked, plot->chart, [marker] {
      QAbstractSeries* series = marker->series();
      series->setVisible(!series->isVisible());
      marker->setVisible(true);
      QColor label = marker->labelBrush().color();
      label.setAlphaF(series->isVisible() ? 1.0 : 0.35);
      marker->setLabelBrush(label);
    });
  }
  plot->chart->legend()->setVisible(legend_entries > 1);

  plot->view = MakeChartView(plot->chart, this);
  plot->view->setObjectName(id);
  plot->view->setRenderHint(QPainter::Antialiasing);
  plot->view->setMinimumHeight(kMinChartHeight);
  QStringList about;  // what the names leave open (the gauge two-form's columns)
  for (const std::string& s : spec.series)
    if (const auto it = quantities_.find(s); it != quantities_.end() && !it->second.about.empty())
      about << QString::fromStdString(it->second.about);
  if (!about.isEmpty()) about << QString();
  plot->view->setToolTip(
      about.join('\n') +
      tr("Wheel: zoom · drag: pan · Shift+drag: zoom to rectangle · double-click: reset · "
         "click: move the time cursor · right-click: columns, export"));
  // The tick step follows the shown span (zoomed or not).
  QValueAxis* x_axis = plot->x_axis;
  QChart* chart = plot->chart;
  connect(x_axis, &QValueAxis::rangeChanged, chart,
          [x_axis, chart] { NiceTicks(x_axis, TimeDivisionsFor(chart->plotArea().width())); });
  // Axis titles that fit the axis' length (Qt would elide them, units first).
  Plot* raw = plot.get();
  connect(plot->chart, &QChart::plotAreaChanged, plot->chart, [this, raw] {
    // As many time ticks as the width has room for (a narrow chart elided them to "…").
    const double interval = raw->x_axis->tickInterval();
    NiceTicks(raw->x_axis, TimeDivisionsFor(raw->chart->plotArea().width()));
    if (raw->x_axis->tickInterval() != interval) raw->view->viewport()->update();
    FitAxisTitles(*raw);
    UpdateTitle(*raw);  // on two lines if it no longer fits
    FitLegend(*raw);
    ScheduleAlignment();
  });
  Fill(*plot);
  return plot;
}

void PlotPanel::FitLegend(Plot& plot) {
  // Above the plot in one row where its entries fit, an overlay's entry shortened to its name
  // ("nonholonomic", not "nonholonomic (dashed)") if that makes them fit; else beside the plot,
  // where Qt gives the legend at most 0.4 of the chart's width (it elided every name to "w…":
  // the so(5) body's w1_2 … w2_4; and the comparison's entry to "nonholono…" at 1012 px).
  QLegend* legend = plot.chart->legend();
  if (!legend->isVisible()) return;
  const QFontMetricsF metrics(legend->font());
  const auto needed = [&](const char* overlay_label) {
    double width = 0.0;
    for (QLegendMarker* marker : legend->markers()) {
      if (!marker->isVisible()) continue;
      const QVariant overlay = marker->property(overlay_label);
      width += metrics.horizontalAdvance(overlay.isValid() ? overlay.toString() : marker->label()) +
               3.0 * metrics.height();
    }
    return width;
  };
  const double room = plot.chart->size().width() - 40.0;
  const bool whole = needed(kWholeLabel) <= room;
  const bool top = whole || needed(kShortLabel) <= room;
  for (QLegendMarker* marker : legend->markers()) {
    const QVariant label = marker->property(whole ? kWholeLabel : kShortLabel);
    if (label.isValid() && marker->label() != label.toString()) marker->setLabel(label.toString());
  }
  const Qt::Alignment side = top ? Qt::AlignTop : Qt::AlignRight;
  if (legend->alignment() != side) legend->setAlignment(side);
}

void PlotPanel::FitAxisTitles(Plot& plot) {
  const double room = plot.chart->plotArea().height() - 8.0;
  if (!(room > 0.0)) return;
  const bool legend = plot.chart->legend()->isVisible();
  for (std::size_t a = 0; a < 2; ++a) {
    QValueAxis* axis = plot.y_axis[a];
    if (!axis) continue;
    // The whole title, smaller, then the short one; with a legend naming the curves, at last
    // the units alone (or no title).
    QFont small = plot.title_font[a];
    small.setPointSizeF(small.pointSizeF() * 0.8);
    const std::pair<const QString*, const QFont*> choices[] = {
        {&plot.title_full[a], &plot.title_font[a]},
        {&plot.title_full[a], &small},
        {&plot.title_short[a], &plot.title_font[a]},
        {&plot.title_short[a], &small},
        {&plot.title_stacked[a], &small},
        {&plot.title_broken[a], &small},
        {legend && !plot.title_units[a].isEmpty() ? &plot.title_units[a]
         : plot.title_broken[a].isEmpty()         ? &plot.title_short[a]
                                                  : &plot.title_broken[a],
         &small}};
    auto [text, font] = choices[std::size(choices) - 1];
    for (const auto& [t, f] : choices) {
      if (t->isEmpty()) continue;
      double length = 0.0;  // of the longest line
      for (const QString& line : t->split(QStringLiteral("<br>")))
        length = std::max(length, QFontMetricsF(*f).horizontalAdvance(line));
      if (length <= room) {
        text = t;
        font = f;
        break;
      }
    }
    if (axis->titleFont() != *font) axis->setTitleFont(*font);
    if (axis->titleText() != *text) axis->setTitleText(*text);
  }
}

}  // namespace dirac::ui
