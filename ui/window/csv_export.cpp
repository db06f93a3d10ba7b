#include "window/csv_export.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>

#include <charconv>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "dirac/csv.hpp"
#include "dirac/scenario_overrides.hpp"
#include "dirac/scenario_spec.hpp"
#include "plots/chart_export.hpp"
#include "run/boundary_values.hpp"
#include "run/simulation_controller.hpp"
#include "window/error_reporter.hpp"
#include "window/window_settings.hpp"
#include "window/workbench_status_bar.hpp"

namespace dirac::ui {
namespace {

// The shortest text that reads back as the same double (std::to_chars).
std::string Shortest(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

// The values of a run: its parameters and settings, as "name: value" (valid YAML).
std::vector<std::string> RunValues(const dirac::Scenario& run) {
  std::vector<std::string> lines;
  lines.push_back("scenario: " + (run.name.empty() ? std::string("unnamed") : run.name) +
                  (run.source_file.empty() ? std::string() : "  # " + run.source_file));
  for (const dirac::Parameter& p : run.parameters)
    lines.push_back(p.name + ": " + Shortest(p.value) + (p.unit.empty() ? "" : "  # " + p.unit));
  // A solve's boundary values (its targets), "free" where the optimum chose them.
  for (const BoundaryValueInfo& info : ListBoundaryValues(run)) {
    if (info.horizon) continue;  // t_end below
    const auto v = GetBoundaryValue(run, info.name);
    lines.push_back(info.name + ": " + (v ? Shortest(*v) : std::string("free")) +
                    (info.unit.empty() || !v ? std::string() : "  # " + info.unit));
  }
  for (const char* name : {"t_end", "output_step", "rtol", "atol", "stabilization"}) {
    if (const auto v = dirac::CurrentValue(run, name))
      lines.push_back(std::string(name) + ": " + Shortest(*v));
  }
  return lines;
}

// Writes `lines` atomically to the sidecar of `csv_path`; throws on failure.
void WriteSidecar(const QString& csv_path, const std::vector<std::string>& lines) {
  QSaveFile sidecar(CsvExport::SidecarPath(csv_path));
  if (!sidecar.open(QIODevice::WriteOnly | QIODevice::Text))
    throw std::runtime_error("cannot write " + sidecar.fileName().toStdString());
  QByteArray text =
      "# Parameters of the run exported to " + QFileInfo(csv_path).fileName().toUtf8() + "\n";
  for (const std::string& line : lines) text += QByteArray::fromStdString(line) + "\n";
  sidecar.write(text);
  if (!sidecar.commit())
    throw std::runtime_error("cannot write " + sidecar.fileName().toStdString());
}

}  // namespace

QString CsvExport::SidecarPath(const QString& csv_path) {
  const QFileInfo info(csv_path);
  return info.path() + "/" + info.completeBaseName() + ".parameters.yaml";
}

bool CsvExport::Export(const QString& path, CsvParameters parameters) {
  const SnapshotPtr snapshot = context_.controller->latest();
  if (!snapshot || !snapshot->trajectory || snapshot->trajectory->empty()) {
    context_.errors->Show(tr("Nothing to export yet: no trajectory has been computed."), false);
    return false;
  }
  const std::vector<std::string> lines =
      RunValues(snapshot->run_scenario ? *snapshot->run_scenario : context_.controller->scenario());
  try {
    if (parameters == CsvParameters::kHeaderComment) {
      dirac::WriteCsv(*snapshot->trajectory, path.toStdString(), lines);
    } else {
      dirac::WriteCsv(*snapshot->trajectory, path.toStdString());
    }
    if (parameters == CsvParameters::kSidecar) WriteSidecar(path, lines);
  } catch (const std::exception& e) {
    context_.errors->Show(tr("Export failed: %1").arg(QString::fromStdString(e.what())),
                          context_.errors->dialogs());
    return false;
  }
  context_.status->showMessage(
      tr("Exported %1 samples to %2%3")
          .arg(snapshot->trajectory->num_rows())
          .arg(path, snapshot->complete ? QString() : tr(" (partial run)")),
      8000);
  return true;
}

void CsvExport::ExportDialog(QWidget* parent, const QString& scenario_path) {
  const QString plain = tr("CSV, the columns only (*.csv)");
  const QString header = tr("CSV with the parameters in a header comment (*.csv)");
  const QString sidecar = tr("CSV and a .parameters.yaml sidecar file (*.csv)");
  // By default the file says which run it is: the parameters and the scenario in its header.
  QString filter = header;
  // In the export folder the screenshot and chart dialogs share (chart_export.hpp).
  const QString name = scenario_path.isEmpty()
                           ? QStringLiteral("trajectory.csv")
                           : QFileInfo(scenario_path).completeBaseName() + ".csv";
  const QString path =
      QFileDialog::getSaveFileName(parent, tr("Export trajectory"), ExportFolder() + "/" + name,
                                   QStringList{header, plain, sidecar}.join(";;"), &filter);
  if (path.isEmpty()) return;
  RememberExportFolder(path);
  Export(path, filter == header    ? CsvParameters::kHeaderComment
               : filter == sidecar ? CsvParameters::kSidecar
                                   : CsvParameters::kNone);
}

}  // namespace dirac::ui
