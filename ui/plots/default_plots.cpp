#include "plots/default_plots.hpp"

#include <string>
#include <utility>

namespace dirac::ui {

std::vector<dirac::PlotSpec> DefaultPlots(const dirac::Model& model) {
  const std::pair<dirac::ColumnKind, std::string> groups[] = {
      {dirac::ColumnKind::kCoordinate, "Coordinates"},
      {dirac::ColumnKind::kEnergy, "Energy"},
      {dirac::ColumnKind::kMultiplier, "Multipliers"},
      {dirac::ColumnKind::kConstraintResidual, "Constraint residuals"}};
  std::vector<dirac::PlotSpec> plots;
  for (const auto& [kind, title] : groups) {
    std::vector<std::string> series = model.ColumnsOfKind(kind);
    if (series.empty()) continue;
    dirac::PlotSpec plot{title, std::move(series), {}};
    const std::size_t total = plot.series.size();
    if (total > static_cast<std::size_t>(kMaxDefaultSeries)) {
      plot.series.resize(kMaxDefaultSeries);
      plot.title +=
          " (first " + std::to_string(kMaxDefaultSeries) + " of " + std::to_string(total) + ")";
    }
    plots.push_back(std::move(plot));
  }
  return plots;
}

}  // namespace dirac::ui
