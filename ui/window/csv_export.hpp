#pragma once
/// @file csv_export.hpp
/// File > Export CSV: the newest trajectory as CSV, with the run's parameter values recorded
/// nowhere, in a header comment or in a sidecar file.

#include <QCoreApplication>
#include <QString>

#include "window/reaction_context.hpp"

class QWidget;

namespace dirac::ui {

/// Where Export records the parameter values of the run: nowhere, in "# name: value" comment
/// lines before the CSV header (dirac::ReadCsv skips them), or in a sidecar
/// "<base>.parameters.yaml" next to the CSV (both written atomically).
enum class CsvParameters { kNone, kHeaderComment, kSidecar };

/// Exports the controller's newest trajectory; errors go to the context's reporter, the
/// success to its status bar.
class CsvExport {
  Q_DECLARE_TR_FUNCTIONS(CsvExport)

 public:
  explicit CsvExport(const ReactionContext& context) : context_(context) {}

  /// Writes the newest trajectory (atomically) to `path` as CSV, with the run's parameters,
  /// a solve's boundary values ("free" where the optimum chose them) and its settings as
  /// `parameters` says. Shows the error and returns false if there is none yet or it cannot be
  /// written.
  bool Export(const QString& path, CsvParameters parameters = CsvParameters::kNone);
  /// The sidecar file Export writes for `csv_path`.
  static QString SidecarPath(const QString& csv_path);
  /// The save dialog over `parent` (starting in the last folder, named after `scenario_path`;
  /// the file type chooses where the parameters go), then Export.
  void ExportDialog(QWidget* parent, const QString& scenario_path);

 private:
  ReactionContext context_;
};

}  // namespace dirac::ui
