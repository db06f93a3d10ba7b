#include "window/error_reporter.hpp"

#include <QMessageBox>
#include <QRegularExpression>
#include <QStringList>

#include "window/workbench_state.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {

QString ErrorDialogHtml(const QString& message) {
  // A quoted line of the scenario: "  <line number> | <text>" (yaml_syntax_error.cpp and the
  // expression parser's messages), and the caret line under it with spaces for the number.
  static const QRegularExpression quoted(QStringLiteral(R"(^\s+\d*\s*\|( |$))"));
  QString html;
  QStringList block;
  auto flush = [&] {
    if (block.isEmpty()) return;
    html += QStringLiteral("<pre style=\"font-family: monospace; white-space: pre;\">") +
            block.join('\n').toHtmlEscaped() + QStringLiteral("</pre>");
    block.clear();
  };
  for (const QString& line : message.split('\n')) {
    if (quoted.match(line).hasMatch()) {
      block << line;
      continue;
    }
    flush();
    html += QStringLiteral("<p>") + line.toHtmlEscaped() + QStringLiteral("</p>");
  }
  flush();
  return html;
}

ErrorReporter::ErrorReporter(WorkbenchStatusBar* status, QWidget* dialog_parent,
                             WorkbenchState* state)
    : QObject(dialog_parent), status_(status), dialog_parent_(dialog_parent) {
  if (state)
    connect(state, &WorkbenchState::scenarioLoading, this, [this] {
      SetSceneError(QString());
      Clear();
    });
}

void ErrorReporter::Show(const QString& message, bool dialog) {
  last_error_ = message;
  status_->SetError(message);
  emit errorShown(message);
  if (dialog && dialogs_) {
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Dirac Studio"), ErrorDialogHtml(message),
                                QMessageBox::Ok, dialog_parent_);
    box->setTextFormat(Qt::RichText);
    box->setObjectName("errorDialog");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // non-modal for the event loop: a running simulation keeps updating
  }
}

void ErrorReporter::Clear() {
  last_error_.clear();
  status_->SetError(QString());
  // A scene that cannot be drawn stays reported while its scenario is loaded.
  if (!scene_error_.isEmpty()) Show(scene_error_, false);
}

void ErrorReporter::SetSceneError(const QString& message) {
  scene_error_ = message;
  if (!message.isEmpty()) Show(message, false);
}

}  // namespace dirac::ui
