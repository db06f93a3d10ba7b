#include "panels/scenario_browser.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QVBoxLayout>

#include <array>
#include <exception>

#include "dirac/scenario_io.hpp"

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

// The group a scenario file belongs in, from its top-level keys (a line scan, like the summary
// no derivation): 0 simulation, 1 constraint algorithm (a presymplectic or second-order
// formulation, or a gauge choice: the Gotay-Nester-Hinds chain runs), 2 optimal control.
int GroupOf(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return 0;
  int group = 0;
  while (!file.atEnd()) {
    const QString line = QString::fromUtf8(file.readLine());
    if (line.startsWith("optimal_control:") || line.startsWith("boundary_value:")) return 2;
    if (line.startsWith("gauge:") || line.startsWith("formulation: lagrange_dirac") ||
        line.startsWith("formulation: second_order"))
      group = 1;
  }
  return group;
}

}  // namespace

ScenarioBrowser::ScenarioBrowser(const QString& folder, QWidget* parent) : QDialog(parent) {
  setObjectName("scenarioBrowser");
  setWindowTitle(tr("Scenarios — %1").arg(QDir::toNativeSeparators(folder)));
  resize(760, 620);
  auto* layout = new QVBoxLayout(this);
  search_ = new QLineEdit(this);
  search_->setObjectName("scenarioBrowser.search");
  search_->setPlaceholderText(tr("Search names and descriptions (e.g. spline, constraint, SO(3))"));
  search_->setClearButtonEnabled(true);
  layout->addWidget(search_);
  connect(search_, &QLineEdit::textChanged, this, &ScenarioBrowser::Filter);
  connect(search_, &QLineEdit::returnPressed, this, &ScenarioBrowser::OpenSelected);
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
  // Grouped by what the scenario shows, each group under a heading row (no path, not
  // selectable), sorted by file name within.
  const std::array<QString, 3> headings{tr("Simulation"), tr("Constraint algorithm"),
                                        tr("Optimal control")};
  for (int group = 0; group < 3; ++group) {
    auto* heading = new QListWidgetItem(headings[static_cast<std::size_t>(group)], list_);
    heading->setFlags(Qt::ItemIsEnabled);
    QFont bold = heading->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    heading->setFont(bold);
    heading->setData(kHeadingRole, true);
    for (const QFileInfo& file : files)
      if (GroupOf(file.absoluteFilePath()) == group) AddItem(file, fallback);
  }
  Filter(QString());
}

void ScenarioBrowser::AddItem(const QFileInfo& file, const QIcon& fallback) {
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

void ScenarioBrowser::Filter(const QString& text) {
  // Every word of the search in the item's name, file name or description (any case).
  const QStringList words = text.split(' ', Qt::SkipEmptyParts);
  QListWidgetItem* heading = nullptr;
  bool heading_used = false;
  auto close_group = [&] {
    if (heading) heading->setHidden(!heading_used);
  };
  QListWidgetItem* first = nullptr;
  for (int i = 0; i < list_->count(); ++i) {
    QListWidgetItem* item = list_->item(i);
    if (item->data(kHeadingRole).toBool()) {
      close_group();
      heading = item;
      heading_used = false;
      continue;
    }
    const QString haystack = item->text() + ' ' + item->toolTip();
    const bool match = std::all_of(words.begin(), words.end(), [&](const QString& w) {
      return haystack.contains(w, Qt::CaseInsensitive);
    });
    item->setHidden(!match);
    heading_used = heading_used || match;
    if (match && !first) first = item;
  }
  close_group();
  QListWidgetItem* current = list_->currentItem();
  if (!current || current->isHidden() || current->data(kHeadingRole).toBool())
    list_->setCurrentItem(first);
}

QStringList ScenarioBrowser::paths() const {
  QStringList out;
  for (int i = 0; i < list_->count(); ++i)
    if (!list_->item(i)->data(kHeadingRole).toBool())
      out << list_->item(i)->data(Qt::UserRole).toString();
  return out;
}

QStringList ScenarioBrowser::shown_paths() const {
  QStringList out;
  for (int i = 0; i < list_->count(); ++i)
    if (!list_->item(i)->isHidden() && !list_->item(i)->data(kHeadingRole).toBool())
      out << list_->item(i)->data(Qt::UserRole).toString();
  return out;
}

QStringList ScenarioBrowser::shown_headings() const {
  QStringList out;
  for (int i = 0; i < list_->count(); ++i)
    if (!list_->item(i)->isHidden() && list_->item(i)->data(kHeadingRole).toBool())
      out << list_->item(i)->text();
  return out;
}

bool ScenarioBrowser::Select(const QString& path) {
  const QString wanted = QFileInfo(path).absoluteFilePath();
  for (int i = 0; i < list_->count(); ++i) {
    if (list_->item(i)->data(Qt::UserRole).toString() == wanted) {
      list_->item(i)->setHidden(false);
      list_->setCurrentRow(i);
      return true;
    }
  }
  return false;
}

void ScenarioBrowser::OpenSelected() {
  QListWidgetItem* item = list_->currentItem();
  if (!item || item->data(kHeadingRole).toBool()) return;
  const QString path = item->data(Qt::UserRole).toString();
  accept();
  emit scenarioChosen(path);
}

}  // namespace dirac::ui
