#include "panels/scenario_browser.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QVBoxLayout>

#include <exception>

#include "dirac/scenario.hpp"

namespace dirac::ui {

QString ThumbnailResource(const QString& path) {
  return QStringLiteral(":/thumbnails/%1.png").arg(QFileInfo(path).completeBaseName());
}

namespace {

// The comment block a scenario file opens with, as one paragraph ("" if none): the description
// of files without a description: key.
QString LeadingComment(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
  QStringList lines;
  while (!file.atEnd()) {
    const QString line = QString::fromUtf8(file.readLine()).trimmed();
    if (!line.startsWith('#')) break;
    lines << line.mid(1).trimmed();
  }
  return lines.join(' ').simplified();
}

}  // namespace

ScenarioBrowser::ScenarioBrowser(const QString& folder, QWidget* parent) : QDialog(parent) {
  setObjectName("scenarioBrowser");
  setWindowTitle(tr("Scenarios — %1").arg(QDir::toNativeSeparators(folder)));
  resize(760, 620);
  auto* layout = new QVBoxLayout(this);
  list_ = new QListWidget(this);
  list_->setObjectName("scenarioBrowser.list");
  list_->setIconSize(QSize(192, 120));
  list_->setSpacing(4);
  list_->setWordWrap(true);
  layout->addWidget(list_, 1);
  description_ = new QLabel(this);
  description_->setObjectName("scenarioBrowser.description");
  description_->setWordWrap(true);
  description_->setMinimumHeight(60);
  description_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  layout->addWidget(description_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
  QPushButton* open = buttons->button(QDialogButtonBox::Open);
  open->setObjectName("scenarioBrowser.open");
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &ScenarioBrowser::OpenSelected);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(list_, &QListWidget::itemActivated, this, [this] { OpenSelected(); });
  connect(list_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    description_->setText(item ? item->toolTip() : QString());
  });

  const QIcon fallback(":/icons/dirac-studio.png");
  const QFileInfoList files =
      QDir(folder).entryInfoList({"*.yaml", "*.yml"}, QDir::Files, QDir::Name);
  for (const QFileInfo& file : files) {
    QString name = file.completeBaseName(), description;
    try {
      // The summary only (no GiNaC, no symbolic lock): browsing never waits for a derivation;
      // the full checks run when a scenario is opened.
      const dirac::ScenarioSummary summary =
          dirac::ReadScenarioSummary(file.absoluteFilePath().toStdString());
      if (!summary.name.empty()) name = QString::fromStdString(summary.name);
      description = QString::fromStdString(summary.description).trimmed();
      if (description.isEmpty()) description = LeadingComment(file.absoluteFilePath());
    } catch (const std::exception& e) {
      description = tr("Cannot be read: %1").arg(QString::fromStdString(e.what()));
    }
    QString first_line = description.section('\n', 0, 0);
    if (first_line.size() > 110) first_line = first_line.left(107) + "…";
    auto* item = new QListWidgetItem(
        QStringLiteral("%1   (%2)\n%3").arg(name, file.fileName(), first_line), list_);
    const QPixmap thumbnail(ThumbnailResource(file.fileName()));
    item->setIcon(thumbnail.isNull() ? fallback : QIcon(thumbnail));
    item->setData(Qt::UserRole, file.absoluteFilePath());
    item->setToolTip(QStringLiteral("<b>%1</b> (%2)<br>%3")
                         .arg(name.toHtmlEscaped(), file.fileName(), description.toHtmlEscaped()));
  }
  if (list_->count() > 0) list_->setCurrentRow(0);
}

QStringList ScenarioBrowser::paths() const {
  QStringList out;
  for (int i = 0; i < list_->count(); ++i) out << list_->item(i)->data(Qt::UserRole).toString();
  return out;
}

bool ScenarioBrowser::Select(const QString& path) {
  const QString wanted = QFileInfo(path).absoluteFilePath();
  for (int i = 0; i < list_->count(); ++i) {
    if (list_->item(i)->data(Qt::UserRole).toString() == wanted) {
      list_->setCurrentRow(i);
      return true;
    }
  }
  return false;
}

void ScenarioBrowser::OpenSelected() {
  QListWidgetItem* item = list_->currentItem();
  if (!item) return;
  const QString path = item->data(Qt::UserRole).toString();
  accept();
  emit scenarioChosen(path);
}

}  // namespace dirac::ui
