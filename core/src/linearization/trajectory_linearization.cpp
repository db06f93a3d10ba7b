// Linearizer::LinearizeAlong's loop over a run's rows (RunAlong) and its CSV / JSON: A(t), B(t)
// on the constraint manifold along a computed trajectory (docs/linearization.md, "Along a run").
#include <cmath>
#include <cstdio>

#include "dirac/error.hpp"
#include "linearization/reduced_point.hpp"

namespace dirac {
namespace linearization {
namespace {

std::string AlongNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string AlongJoin(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

}  // namespace

TrajectoryLinearization RunAlong(
    const Trajectory& run, const std::string& source, const std::vector<std::string>& columns,
    const std::function<ReducedPoint(std::size_t row, const Eigen::VectorXd& x)>& at) {
  const std::string file = source.empty() ? std::string("the run") : source;
  const auto time = run.FindColumn("t");
  std::vector<std::string> missing;
  std::vector<std::size_t> index;
  if (!time) missing.push_back("t");
  for (const auto& name : columns) {
    const auto c = run.FindColumn(name);
    if (c)
      index.push_back(*c);
    else
      missing.push_back(name);
  }
  if (!missing.empty())
    throw ModelError(file + " is not a run of this scenario: missing the column" +
                     (missing.size() > 1 ? "s " : " ") + AlongJoin(missing) +
                     " (the scenario's states: t, " + AlongJoin(columns) + ")");
  if (run.num_rows() == 0) throw ModelError(file + " has no rows to linearize along");

  TrajectoryLinearization out;
  std::vector<Eigen::Index> kept, ignorable;
  for (std::size_t row = 0; row < run.num_rows(); ++row) {
    const double t = run.at(row, *time);
    const std::string where =
        file + ", data row " + std::to_string(row + 1) + " (t = " + AlongNumber(t) + "): ";
    Eigen::VectorXd x(static_cast<Eigen::Index>(index.size()));
    for (std::size_t i = 0; i < index.size(); ++i) {
      x[static_cast<Eigen::Index>(i)] = run.at(row, index[i]);
      if (!std::isfinite(x[static_cast<Eigen::Index>(i)]))
        throw ModelError(where + columns[i] + " is not a finite number");
    }
    ReducedPoint p;
    try {
      p = at(row, x);
    } catch (const SweepCancelled&) {
      throw;
    } catch (const Error& e) {
      throw ModelError(where + e.what());
    }
    if (row == 0) {
      out.formulation = p.formulation;
      out.controls = p.controls;
      out.dependent_coordinates = p.report.dependent_coordinates;
      out.dependent_speeds = p.report.dependent_speeds;
      for (std::size_t i = 0; i < p.names.size(); ++i) {
        const bool dropped = i < p.num_coordinates && p.ignorable[i];
        if (dropped) {
          ignorable.push_back(static_cast<Eigen::Index>(i));
          out.ignorable_named.push_back(p.names[i]);
          continue;
        }
        kept.push_back(static_cast<Eigen::Index>(i));
        out.states.push_back(p.names[i]);
        if (i < p.num_coordinates) ++out.num_coordinate_states;
      }
    }
    // A named ignorable coordinate: no kept rate may depend on it, here as at a steady motion.
    const double scale = std::max(1.0, p.J.cwiseAbs().maxCoeff());
    for (Eigen::Index c : ignorable)
      for (Eigen::Index r : kept)
        if (std::abs(p.J(r, c)) > 1e-8 * scale)
          throw ModelError(where + "'" + p.names[static_cast<std::size_t>(c)] +
                           "' is not an ignorable coordinate here: d(" +
                           p.names[static_cast<std::size_t>(r)] +
                           ")/dt depends on it (derivative " + AlongNumber(p.J(r, c)) + ")");
    const auto nk = static_cast<Eigen::Index>(kept.size());
    Eigen::MatrixXd A(nk, nk), B(nk, p.B.cols());
    for (Eigen::Index i = 0; i < nk; ++i) {
      for (Eigen::Index j = 0; j < nk; ++j)
        A(i, j) = p.J(kept[static_cast<std::size_t>(i)], kept[static_cast<std::size_t>(j)]);
      if (p.B.cols() > 0) B.row(i) = p.B.row(kept[static_cast<std::size_t>(i)]);
    }
    out.t.push_back(t);
    out.A.push_back(std::move(A));
    out.B.push_back(std::move(B));
    if (p.manifold_residual > out.manifold_residual || row == 0) {
      out.manifold_residual = p.manifold_residual;
      out.manifold_residual_row = row;
    }
    if (p.chart_quality < out.chart_quality || row == 0) {
      out.chart_quality = p.chart_quality;
      out.chart_quality_row = row;
    }
  }
  return out;
}

}  // namespace linearization

TrajectoryLinearization Linearizer::LinearizeAlong(const Trajectory&, const std::string&) const {
  throw ModelError(
      "linearizing along a run is available for Lagrangian systems (on TQ or a Lie algebroid); "
      "this model is linearized as an explicit flow on M_f");
}

std::vector<std::string> Linearizer::StateColumns() const { return {}; }

namespace {

std::string AlongFull(double value) {
  if (!std::isfinite(value)) return "null";
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string AlongQuoted(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", \"" : "\"") + names[i] + "\"";
  return out + "]";
}

std::string AlongMatrix(const Eigen::MatrixXd& m) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    out += i ? ", [" : "[";
    for (Eigen::Index j = 0; j < m.cols(); ++j) out += (j ? ", " : "") + AlongFull(m(i, j));
    out += "]";
  }
  return out + "]";
}

std::string Numbered(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i ? ", " : "") + std::to_string(i + 1) + " " + names[i];
  return out.empty() ? "none" : out;
}

}  // namespace

void WriteTrajectoryLinearization(const TrajectoryLinearization& along, CsvWriter& writer) {
  writer.WriteComment("dirac linearize --along: A(t), B(t) on the constraint manifold (" +
                      along.formulation + ")");
  writer.WriteComment("states (A_i_j: d(state i)'/d(state j), row-major): " +
                      Numbered(along.states));
  writer.WriteComment("controls (B_i_k): " + Numbered(along.controls));
  writer.WriteComment("chart chosen at the first row: dependent coordinates " +
                      linearization::AlongJoin(along.dependent_coordinates) +
                      "; dependent speeds " + linearization::AlongJoin(along.dependent_speeds) +
                      "; ignorable (dropped) " + linearization::AlongJoin(along.ignorable_named));
  std::vector<std::string> header{"t"};
  const std::size_t n = along.states.size(), nu = along.controls.size();
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= n; ++j)
      header.push_back("A_" + std::to_string(i) + "_" + std::to_string(j));
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t k = 1; k <= nu; ++k)
      header.push_back("B_" + std::to_string(i) + "_" + std::to_string(k));
  writer.WriteHeader(header);
  std::vector<double> row(header.size());
  for (std::size_t r = 0; r < along.t.size(); ++r) {
    std::size_t c = 0;
    row[c++] = along.t[r];
    for (Eigen::Index i = 0; i < along.A[r].rows(); ++i)
      for (Eigen::Index j = 0; j < along.A[r].cols(); ++j) row[c++] = along.A[r](i, j);
    for (Eigen::Index i = 0; i < along.B[r].rows(); ++i)
      for (Eigen::Index k = 0; k < along.B[r].cols(); ++k) row[c++] = along.B[r](i, k);
    writer.WriteRow(row.data(), row.size());
  }
}

std::string TrajectoryLinearizationJson(const TrajectoryLinearization& along) {
  std::string out = "{\n  \"formulation\": \"" + along.formulation +
                    "\",\n  \"states\": " + AlongQuoted(along.states) +
                    ",\n  \"controls\": " + AlongQuoted(along.controls) +
                    ",\n  \"dependent_coordinates\": " + AlongQuoted(along.dependent_coordinates) +
                    ",\n  \"dependent_speeds\": " + AlongQuoted(along.dependent_speeds) +
                    ",\n  \"ignorable\": " + AlongQuoted(along.ignorable_named) +
                    ",\n  \"manifold_residual\": " + AlongFull(along.manifold_residual) +
                    ",\n  \"chart_quality\": " + AlongFull(along.chart_quality) +
                    ",\n  \"rows\": [";
  for (std::size_t r = 0; r < along.t.size(); ++r)
    out += std::string(r ? ",\n    " : "\n    ") + "{\"t\": " + AlongFull(along.t[r]) +
           ", \"A\": " + AlongMatrix(along.A[r]) + ", \"B\": " + AlongMatrix(along.B[r]) + "}";
  out += "\n  ]\n}\n";
  return out;
}

}  // namespace dirac
