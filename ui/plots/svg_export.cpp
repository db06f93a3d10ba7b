#include "plots/svg_export.hpp"

#include <QFileInfo>
#include <QPainter>
#include <QPalette>
#include <QSvgGenerator>
#include <QTextDocumentFragment>
#include <QWidget>

namespace dirac::ui {
namespace {

// The document title as XML text. A chart's title is rich text ("Multiplier<br>mu(t)" when it
// is broken in two) and QSvgGenerator (Qt 6.4) writes the title into <title> as given: the
// "<br>" made the exported file invalid XML. Tags become spaces, then the text is escaped.
QString SvgTitle(const QString& rich_text) {
  QString plain = QTextDocumentFragment::fromHtml(rich_text).toPlainText();
  for (const QChar separator : {QChar(QChar::LineSeparator), QChar(QChar::ParagraphSeparator)})
    plain.replace(separator, QLatin1Char(' '));
  return plain.simplified().toHtmlEscaped();
}

}  // namespace

QString RenderWidgetToSvg(QWidget& widget, const QString& path, const QString& title,
                          const std::function<void(QPainter&)>& draw_over) {
  const QSize size = widget.size();
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(size);
  generator.setViewBox(QRect(QPoint(0, 0), size));
  // The screen's resolution: fonts keep their size relative to the chart (the generator's
  // default of 72 dpi drew 9 pt text as 9 px on a chart laid out at 96 dpi).
  generator.setResolution(widget.logicalDpiX());
  generator.setTitle(SvgTitle(title));
  generator.setDescription(QStringLiteral("Dirac Studio chart"));
  QPainter painter;
  if (!painter.begin(&generator)) return QStringLiteral("cannot write %1").arg(path);
  // White, as the PNG: the widget painted opaque on white (else its parents' grey background
  // was drawn under it).
  painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
  painter.setRenderHint(QPainter::Antialiasing);
  const QPalette palette = widget.palette();
  const bool fills = widget.autoFillBackground();
  QPalette white = palette;
  white.setColor(QPalette::Window, Qt::white);
  widget.setPalette(white);
  widget.setAutoFillBackground(true);
  widget.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
  widget.setAutoFillBackground(fills);
  widget.setPalette(palette);
  if (draw_over) draw_over(painter);
  painter.end();
  if (!QFileInfo(path).isFile() || QFileInfo(path).size() == 0)
    return QStringLiteral("cannot write %1").arg(path);
  return {};
}

}  // namespace dirac::ui
