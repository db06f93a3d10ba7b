// The linearization's text report, its JSON and the sweep's CSV and summary.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "dirac/linearization.hpp"

namespace dirac {
namespace {

std::string LrFull(double value) {
  if (!std::isfinite(value)) return "null";
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string LrShort(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

std::string LrQuoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string LrList(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

std::string LrJsonNames(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + LrQuoted(names[i]);
  return out + "]";
}

std::string LrJsonMatrix(const Eigen::MatrixXd& m) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    out += i ? ", [" : "[";
    for (Eigen::Index j = 0; j < m.cols(); ++j) out += (j ? ", " : "") + LrFull(m(i, j));
    out += "]";
  }
  return out + "]";
}

std::string LrJsonComplex(std::complex<double> z) {
  return "{\"re\": " + LrFull(z.real()) + ", \"im\": " + LrFull(z.imag()) + "}";
}

std::string LrEigenvalue(std::complex<double> z) {
  if (z.imag() == 0.0) return LrShort(z.real());
  return LrShort(z.real()) + (z.imag() < 0 ? " - " : " + ") + LrShort(std::abs(z.imag())) + " i";
}

void LrMatrix(std::ostringstream& out, const Eigen::MatrixXd& m,
              const std::vector<std::string>& rows, const std::vector<std::string>& cols) {
  std::size_t width = 8;
  for (const auto& r : rows) width = std::max(width, r.size() + 2);
  out << std::string(width, ' ');
  for (const auto& c : cols) {
    char cell[64];
    std::snprintf(cell, sizeof cell, "%17s", c.c_str());
    out << cell;
  }
  out << "\n";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    std::string name = rows[static_cast<std::size_t>(i)];
    out << name << std::string(width - name.size(), ' ');
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      char cell[64];
      std::snprintf(cell, sizeof cell, "%17.10g", m(i, j) + 0.0);  // + 0.0: no "-0"
      out << cell;
    }
    out << "\n";
  }
}

}  // namespace

std::string LinearizationText(const Linearization& lin) {
  std::ostringstream out;
  out << "model: " << lin.formulation << "\n";
  out << "operating point:";
  for (const auto& [name, value] : lin.point) out << " " << name << "=" << LrShort(value);
  out << "\n";
  if (lin.state_change > 1e-12)
    out << "  (the engine changed the given state by up to " << LrShort(lin.state_change) << " in "
        << lin.state_change_name << ": dependent values solved"
        << ", or Newton's search with --find)\n";
  out << "max |rate| of the kept states: " << LrShort(lin.rate_residual)
      << (lin.rate_residual_state.empty() ? "" : " (d(" + lin.rate_residual_state + ")/dt)")
      << "\n";
  out << "dependent coordinates (pivoting on df/dq): " << LrList(lin.dependent_coordinates) << "\n";
  out << "independent speeds (pivoting on the velocity constraints): "
      << LrList(lin.independent_speeds) << "; dependent speeds: " << LrList(lin.dependent_speeds)
      << "\n";
  out << "ignorable coordinates dropped: named " << LrList(lin.ignorable_named)
      << "; found (absent from L and the constraints) " << LrList(lin.ignorable_found) << "\n";
  if (!lin.dropped_speeds.empty())
    out << "speeds conserved to first order, dropped (eigenvalue 0 each): "
        << LrList(lin.dropped_speeds) << "\n";
  out << "states: " << LrList(lin.states) << "\n\nA =\n";
  LrMatrix(out, lin.A, lin.states, lin.states);
  if (lin.B.cols() > 0) {
    out << "\nB =\n";
    LrMatrix(out, lin.B, lin.states, lin.controls);
  }
  if (lin.mass_matrix.size() > 0) {
    std::vector<std::string> speeds(
        lin.states.begin() + static_cast<long>(lin.num_coordinate_states), lin.states.end());
    out << "\nmass matrix N^T W N over the kept speeds =\n";
    LrMatrix(out, lin.mass_matrix, speeds, speeds);
  }
  out << "\neigenvalues:\n";
  for (const auto& z : lin.eigenvalues) out << "  " << LrEigenvalue(z) << "\n";
  out << "\nmodes (dominant states):\n";
  for (const auto& mode : lin.modes) {
    out << "  " << LrEigenvalue(mode.eigenvalue);
    if (mode.eigenvalue.imag() > 0.0) out << " (and its conjugate)";
    out << ": " << LrList(mode.dominant) << "\n";
  }
  double size = 1.0;
  for (const auto& z : lin.eigenvalues) size = std::max(size, std::abs(z));
  bool stable = true;
  for (const auto& z : lin.eigenvalues) stable &= z.real() <= 1e-9 * size;
  out << "\nverdict: "
      << (stable ? "no eigenvalue with positive real part (beyond 1e-9 of the largest |eigenvalue|)"
                 : "unstable (an eigenvalue with positive real part)")
      << "\n";
  return out.str();
}

std::string LinearizationJson(const Linearization& lin) {
  std::ostringstream out;
  out << "{\n  \"formulation\": " << LrQuoted(lin.formulation) << ",\n";
  out << "  \"states\": " << LrJsonNames(lin.states) << ",\n";
  out << "  \"controls\": " << LrJsonNames(lin.controls) << ",\n";
  out << "  \"eigenvalues\": [";
  for (std::size_t i = 0; i < lin.eigenvalues.size(); ++i)
    out << (i ? ", " : "") << LrJsonComplex(lin.eigenvalues[i]);
  out << "],\n  \"A\": " << LrJsonMatrix(lin.A) << ",\n";
  out << "  \"B\": " << (lin.B.cols() > 0 ? LrJsonMatrix(lin.B) : std::string("[]")) << ",\n";
  out << "  \"M\": " << LrJsonMatrix(lin.mass_matrix) << ",\n";
  out << "  \"modes\": [";
  for (std::size_t i = 0; i < lin.modes.size(); ++i) {
    const auto& mode = lin.modes[i];
    out << (i ? ",\n    " : "\n    ") << "{\"eigenvalue\": " << LrJsonComplex(mode.eigenvalue)
        << ", \"dominant\": " << LrJsonNames(mode.dominant) << ", \"shape\": [";
    for (std::size_t j = 0; j < mode.shape.size(); ++j)
      out << (j ? ", " : "") << LrJsonComplex(mode.shape[j]);
    out << "]}";
  }
  out << "],\n  \"point\": {";
  for (std::size_t i = 0; i < lin.point.size(); ++i)
    out << (i ? ", " : "") << LrQuoted(lin.point[i].first) << ": " << LrFull(lin.point[i].second);
  out << "},\n  \"rate_residual\": " << LrFull(lin.rate_residual) << ",\n";
  out << "  \"dependent_coordinates\": " << LrJsonNames(lin.dependent_coordinates) << ",\n";
  out << "  \"independent_speeds\": " << LrJsonNames(lin.independent_speeds) << ",\n";
  out << "  \"dependent_speeds\": " << LrJsonNames(lin.dependent_speeds) << ",\n";
  out << "  \"ignorable_named\": " << LrJsonNames(lin.ignorable_named) << ",\n";
  out << "  \"ignorable_found\": " << LrJsonNames(lin.ignorable_found) << ",\n";
  out << "  \"dropped_speeds\": " << LrJsonNames(lin.dropped_speeds) << "\n}\n";
  return out.str();
}

std::string StabilitySweepCsv(const StabilitySweep& sweep) {
  std::ostringstream out;
  out << sweep.parameter;
  for (Eigen::Index j = 0; j < sweep.eigenvalues.cols(); ++j)
    out << ",re_" << (j + 1) << ",im_" << (j + 1);
  out << "\n";
  for (Eigen::Index i = 0; i < sweep.eigenvalues.rows(); ++i) {
    out << LrFull(sweep.values[static_cast<std::size_t>(i)]);
    for (Eigen::Index j = 0; j < sweep.eigenvalues.cols(); ++j)
      out << "," << LrFull(sweep.eigenvalues(i, j).real()) << ","
          << LrFull(sweep.eigenvalues(i, j).imag());
    out << "\n";
  }
  return out.str();
}

std::string StabilitySweepText(const StabilitySweep& sweep) {
  std::ostringstream out;
  out << "swept " << sweep.parameter << " over " << sweep.values.size() << " values from "
      << LrShort(sweep.values.front()) << " to " << LrShort(sweep.values.back()) << "; states "
      << LrList(sweep.states) << "\n";
  out << "critical values (a real part crosses zero):\n";
  if (sweep.critical.empty()) out << "  none in the range\n";
  for (const auto& c : sweep.critical)
    out << "  " << sweep.parameter << " = " << LrFull(c.value) << ": "
        << (c.collision     ? "eigenvalues meet on the imaginary axis"
            : c.oscillatory ? "a complex pair"
                            : "a real eigenvalue")
        << " (branch " << c.branch + 1
        << (c.oscillatory ? ", frequency " + LrShort(std::abs(c.eigenvalue.imag())) + " rad/s" : "")
        << ") becomes " << (c.stabilizing ? "stable" : "unstable") << "\n";
  out << "stable intervals (no eigenvalue with positive real part):\n";
  if (sweep.stable_intervals.empty()) out << "  none\n";
  for (const auto& [from, to] : sweep.stable_intervals)
    out << "  " << LrFull(from) << " <= " << sweep.parameter << " <= " << LrFull(to) << "\n";
  return out.str();
}

}  // namespace dirac
