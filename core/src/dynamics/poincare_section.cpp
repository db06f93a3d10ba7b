// Poincaré sections of sampled trajectories: crossings of g = 0 found between samples and
// interpolated by the cubic through the four samples around them (dirac/poincare_section.hpp).
#include "dirac/poincare_section.hpp"

#include <ginac/ginac.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "dirac/error.hpp"
#include "scenario/scenario_symbols.hpp"
#include "symbolic/compiled_function.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac {

CrossingDirection ParseCrossingDirection(const std::string& text, const std::string& what) {
  if (text == "+" || text == "increasing") return CrossingDirection::kIncreasing;
  if (text == "-" || text == "decreasing") return CrossingDirection::kDecreasing;
  if (text == "both") return CrossingDirection::kBoth;
  throw Error(what + ": '" + text + "' is no crossing direction (expected +, - or both)");
}

const char* CrossingDirectionName(CrossingDirection direction) {
  switch (direction) {
    case CrossingDirection::kIncreasing:
      return "+";
    case CrossingDirection::kDecreasing:
      return "-";
    case CrossingDirection::kBoth:
      break;
  }
  return "both";
}

// ---- the function g --------------------------------------------------------------------------

struct SectionFunction::Impl {
  std::string expression;
  std::size_t num_columns = 0;
  std::vector<std::size_t> input_columns;  // input j of the tape reads row[input_columns[j]]
  CompiledFunction tape;
};

SectionFunction::SectionFunction(const std::string& expression,
                                 const std::vector<std::string>& columns, const std::string& file,
                                 std::size_t line, const std::string& key)
    : impl_(std::make_unique<Impl>()) {
  impl_->expression = expression;
  impl_->num_columns = columns.size();
  if (expression.find_first_not_of(" \t") == std::string::npos)
    throw ScenarioError(file, line, key, "the section's expression is empty");
  std::vector<std::string> names;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (!symbolic::IsValidIdentifier(columns[c]) || symbolic::IsReservedName(columns[c])) continue;
    if (std::find(names.begin(), names.end(), columns[c]) != names.end()) continue;
    names.push_back(columns[c]);
    impl_->input_columns.push_back(c);
  }
  std::vector<GiNaC::symbol> inputs;
  const GiNaC::symtab table = scenario::TableOfNames(names, &inputs);
  // TableOfNames adds "t" when it is not a column; the tape then reads it as 0.
  const GiNaC::ex g = symbolic::ParseExpression(expression, table, {file, line, key});
  impl_->tape = symbolic::CompileExpressions({g}, inputs);
  if (inputs.size() > names.size())
    impl_->input_columns.resize(inputs.size(), std::numeric_limits<std::size_t>::max());
}

SectionFunction::~SectionFunction() = default;
SectionFunction::SectionFunction(SectionFunction&&) noexcept = default;
SectionFunction& SectionFunction::operator=(SectionFunction&&) noexcept = default;

double SectionFunction::operator()(const double* row) const {
  std::vector<double> in(impl_->input_columns.size());
  for (std::size_t j = 0; j < in.size(); ++j) {
    const std::size_t c = impl_->input_columns[j];
    in[j] = c < impl_->num_columns ? row[c] : 0.0;
  }
  return impl_->tape.Evaluate(in)[0];
}

std::size_t SectionFunction::num_columns() const { return impl_->num_columns; }
const std::string& SectionFunction::expression() const { return impl_->expression; }

// ---- crossings -------------------------------------------------------------------------------

namespace {

bool Crosses(double a, double b, CrossingDirection direction) {
  if (!std::isfinite(a) || !std::isfinite(b)) return false;
  const bool up = a < 0.0 && b >= 0.0;
  const bool down = a >= 0.0 && b < 0.0;
  switch (direction) {
    case CrossingDirection::kIncreasing:
      return up;
    case CrossingDirection::kDecreasing:
      return down;
    case CrossingDirection::kBoth:
      break;
  }
  return up || down;
}

// Lagrange weights of the m nodes `t` at x, and their derivatives in x.
void Weights(const double* t, int m, double x, double* w, double* dw) {
  for (int i = 0; i < m; ++i) {
    double value = 1.0, slope = 0.0;
    for (int j = 0; j < m; ++j) {
      if (j == i) continue;
      const double denominator = t[i] - t[j];
      slope = (slope * (x - t[j]) + value) / denominator;
      value *= (x - t[j]) / denominator;
    }
    w[i] = value;
    dw[i] = slope;
  }
}

}  // namespace

SectionDetector::SectionDetector(const SectionFunction& g, CrossingDirection direction,
                                 RowSink emit)
    : g_(g), direction_(direction), emit_(std::move(emit)) {}

SectionDetector::~SectionDetector() = default;

void SectionDetector::AddRow(const double* row) {
  const std::size_t n = g_.num_columns();
  samples_.push_back({next_index_, g_(row), std::vector<double>(row, row + n)});
  ++next_index_;
  if (samples_.size() >= 2) {
    const Sample& a = samples_[samples_.size() - 2];
    const Sample& b = samples_.back();
    if (Crosses(a.g, b.g, direction_)) pending_.push_back(a.index);
  }
  // A crossing in (t_k, t_k+1] is resolved with samples k-1 .. k+2 (k .. k+3 for k = 0).
  const std::size_t last = samples_.back().index;
  while (!pending_.empty()) {
    const std::size_t k = pending_.front();
    if (last < k + 2 || (k == 0 && last < 3)) break;
    pending_.erase(pending_.begin());
    Resolve(k);
  }
  Trim();
}

void SectionDetector::Finish() {
  while (!pending_.empty()) {
    const std::size_t k = pending_.front();
    pending_.erase(pending_.begin());
    Resolve(k);
  }
}

void SectionDetector::Trim() {
  // Keep what the crossings still to be found need: the last four samples (a crossing in the
  // last interval, resolved at Finish, takes the cubic through them) and, for a pending one,
  // its sample k-1.
  std::size_t keep_from = next_index_ >= 4 ? next_index_ - 4 : 0;
  if (!pending_.empty() && pending_.front() > 0)
    keep_from = std::min(keep_from, pending_.front() - 1);
  else if (!pending_.empty())
    keep_from = 0;
  while (!samples_.empty() && samples_.front().index < keep_from) samples_.erase(samples_.begin());
}

void SectionDetector::Resolve(std::size_t k) {
  const std::size_t lo = samples_.front().index;
  const std::size_t hi = samples_.back().index;
  // Four consecutive samples containing k and k+1, centred where possible.
  const std::size_t count = std::min<std::size_t>(4, hi - lo + 1);
  std::size_t start = k > lo ? k - 1 : lo;
  if (start + count - 1 > hi) start = hi + 1 - count;
  const int m = static_cast<int>(count);
  const Sample* s[4] = {};
  double t[4] = {}, gv[4] = {};
  for (int i = 0; i < m; ++i) {
    s[i] = &samples_[start - lo + static_cast<std::size_t>(i)];
    t[i] = s[i]->row[0];
    gv[i] = s[i]->g;
  }
  const int a_i = static_cast<int>(k - start);
  const Sample& a = *s[a_i];
  const Sample& b = *s[a_i + 1];
  const std::size_t n = a.row.size();
  std::vector<double> out(n);
  ++crossings_;
  bool increasing = true;
  for (int i = 0; i + 1 < m; ++i) increasing = increasing && t[i + 1] > t[i];
  if (b.g == 0.0 || !increasing) {  // on the sample itself, or times that do not interpolate
    emit_(b.row.data());
    return;
  }
  if (a.g == 0.0) {
    emit_(a.row.data());
    return;
  }
  // The zero of the interpolating polynomial in (t_a, t_b): Newton, kept inside the bracket.
  double lo_t = t[a_i], hi_t = t[a_i + 1], lo_g = a.g;
  double x = lo_t - a.g * (hi_t - lo_t) / (b.g - a.g);
  double w[4], dw[4];
  for (int iteration = 0; iteration < 100; ++iteration) {
    Weights(t, m, x, w, dw);
    double p = 0.0, dp = 0.0;
    for (int i = 0; i < m; ++i) {
      p += w[i] * gv[i];
      dp += dw[i] * gv[i];
    }
    if (p == 0.0) break;
    if ((p < 0.0) == (lo_g < 0.0)) {
      lo_t = x;
      lo_g = p;
    } else {
      hi_t = x;
    }
    double next = dp != 0.0 ? x - p / dp : 0.5 * (lo_t + hi_t);
    const double a_end = std::min(lo_t, hi_t), b_end = std::max(lo_t, hi_t);
    if (!(next > a_end && next < b_end)) next = 0.5 * (a_end + b_end);
    const double scale = std::max(std::abs(a_end), std::abs(b_end));
    const bool done = std::abs(next - x) <= 4.0 * std::numeric_limits<double>::epsilon() * scale ||
                      b_end - a_end <= 4.0 * std::numeric_limits<double>::epsilon() * scale;
    x = next;
    if (done) break;
  }
  Weights(t, m, x, w, dw);
  for (std::size_t c = 0; c < n; ++c) {
    double v = 0.0;
    for (int i = 0; i < m; ++i) v += w[i] * s[i]->row[c];
    out[c] = v;
  }
  out[0] = x;
  emit_(out.data());
}

Trajectory ComputePoincareSection(const Trajectory& trajectory, const SectionFunction& g,
                                  CrossingDirection direction) {
  if (g.num_columns() != trajectory.num_columns())
    throw Error("Poincaré section: the function of '" + g.expression() + "' was built for " +
                std::to_string(g.num_columns()) + " columns, the trajectory has " +
                std::to_string(trajectory.num_columns()));
  Trajectory section(trajectory.columns());
  SectionDetector detector(g, direction, [&section](const double* row) { section.AppendRow(row); });
  for (std::size_t r = 0; r < trajectory.num_rows(); ++r) detector.AddRow(trajectory.row(r));
  detector.Finish();
  return section;
}

}  // namespace dirac
