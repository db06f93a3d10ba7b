#include "symbolic/generic_rank.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "dirac/derivation_control.hpp"
#include "dirac/error.hpp"
#include "symbolic/canonical_print.hpp"
#include "symbolic/expression_compiler.hpp"
#include "symbolic/expression_parser.hpp"

namespace dirac::symbolic {
namespace {

// SplitMix64: a fixed, portable generator (std::uniform_real_distribution differs between
// standard libraries, which would change the points and so the bytes of a report).
class PointGenerator {
 public:
  explicit PointGenerator(std::uint64_t seed) : state_(seed) {}
  // Uniform in [-1, 1).
  double Symmetric() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
  }

 private:
  std::uint64_t state_;
};

constexpr std::uint64_t kSeed = 0x5EEDD1AC0FFEEULL;
constexpr int kAttemptsPerPoint = 16;

// The symbols of the entries, ordered by name (then by first appearance), so that the points
// do not depend on GiNaC's address-dependent term order.
std::vector<GiNaC::symbol> SymbolsOf(const std::vector<GiNaC::ex>& entries) {
  std::vector<GiNaC::symbol> found;
  GiNaC::exset seen;
  for (const auto& e : entries)
    for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it)
      if (GiNaC::is_a<GiNaC::symbol>(*it) && seen.insert(*it).second)
        found.push_back(GiNaC::ex_to<GiNaC::symbol>(*it));
  std::stable_sort(found.begin(), found.end(), [](const GiNaC::symbol& a, const GiNaC::symbol& b) {
    return a.get_name() < b.get_name();
  });
  return found;
}

// Rank with rows and columns scaled to unit max norm (so that units do not decide), by
// column-pivoting QR with a relative pivot tolerance.
std::size_t NumericRank(Eigen::MatrixXd a, double tolerance) {
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    const double s = a.row(i).cwiseAbs().maxCoeff();
    if (s > 0) a.row(i) /= s;
  }
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    const double s = a.col(j).cwiseAbs().maxCoeff();
    if (s > 0) a.col(j) /= s;
  }
  if (a.size() == 0 || a.cwiseAbs().maxCoeff() == 0.0) return 0;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  qr.setThreshold(tolerance);
  return static_cast<std::size_t>(qr.rank());
}

bool SmallEnoughForExactDeterminant(const GiNaC::matrix& m) {
  if (m.rows() != m.cols() || m.rows() > kExactRankMaxSize) return false;
  std::size_t nodes = 0;
  for (unsigned i = 0; i < m.rows(); ++i)
    for (unsigned j = 0; j < m.cols(); ++j) {
      nodes += NodeCount(m(i, j), kExactRankMaxNodes + 1);
      if (nodes > kExactRankMaxNodes) return false;
    }
  return true;
}

}  // namespace

std::string GenericRank::How() const {
  if (exact) return "exact (symbolic determinant)";
  char text[128];
  std::snprintf(text, sizeof text,
                "numeric (largest rank at %d random points, relative tolerance %.1e)", points,
                tolerance);
  return text;
}

GenericRank ComputeGenericRank(const GiNaC::matrix& m, const NominalValues& nominal) {
  GenericRank result;
  result.rows = m.rows();
  result.cols = m.cols();
  const std::size_t dim = std::max(result.rows, result.cols);
  result.tolerance = 1e3 * std::numeric_limits<double>::epsilon() * static_cast<double>(dim + 1);
  if (result.rows == 0 || result.cols == 0) return result;

  std::vector<GiNaC::ex> entries;
  entries.reserve(result.rows * result.cols);
  for (unsigned i = 0; i < m.rows(); ++i)
    for (unsigned j = 0; j < m.cols(); ++j) entries.push_back(m(i, j));
  const std::vector<GiNaC::symbol> symbols = SymbolsOf(entries);
  std::vector<double> centre(symbols.size(), 0.0);
  for (std::size_t s = 0; s < symbols.size(); ++s) {
    const auto found = nominal.find(symbols[s].get_name());
    if (found != nominal.end() && std::isfinite(found->second)) centre[s] = found->second;
  }

  const bool exact_possible = SmallEnoughForExactDeterminant(m) && !HasFloat(m);
  bool evaluated = false;
  try {
    const CompiledFunction f = CompileExpressions(entries, symbols);
    std::vector<double> in(symbols.size()), out(entries.size()), scratch(f.scratch_size());
    PointGenerator random(kSeed);
    for (int p = 0; p < kGenericRankPoints; ++p) {
      CheckDerivationCancelled();
      for (int attempt = 0; attempt < kAttemptsPerPoint; ++attempt) {
        for (std::size_t s = 0; s < symbols.size(); ++s)
          in[s] = centre[s] + 0.25 * (1.0 + std::abs(centre[s])) * random.Symmetric();
        f.Evaluate(in.data(), out.data(), scratch.data());
        if (!std::all_of(out.begin(), out.end(), [](double x) { return std::isfinite(x); }))
          continue;
        const Eigen::MatrixXd a = Eigen::Map<
            const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
            out.data(), static_cast<Eigen::Index>(result.rows),
            static_cast<Eigen::Index>(result.cols));
        result.rank = std::max(result.rank, NumericRank(a, result.tolerance));
        ++result.points;
        evaluated = true;
        break;
      }
    }
  } catch (const ModelError&) {
    // A function the tape cannot evaluate: decided symbolically below if small enough.
  }

  if (exact_possible) {
    const bool singular = GiNaC::normal(m.determinant()).is_zero();
    const std::size_t n = result.rows;
    result.rank = singular ? std::min(result.rank, n - 1) : n;
    result.exact = true;
    return result;
  }
  if (!evaluated)
    throw ModelError("cannot decide the rank of a " + std::to_string(result.rows) + " x " +
                     std::to_string(result.cols) +
                     " matrix of the derivation: its entries are not finite at any of " +
                     std::to_string(kGenericRankPoints * kAttemptsPerPoint) +
                     " points drawn near the scenario's initial and parameter values");
  return result;
}

bool HasFloat(const GiNaC::ex& e) {
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it)
    if (GiNaC::is_a<GiNaC::numeric>(*it) && !GiNaC::ex_to<GiNaC::numeric>(*it).is_rational())
      return true;
  return false;
}

std::size_t FirstNonVanishing(const std::vector<VanishingTest>& tests,
                              const NominalValues& nominal) {
  // Structurally zero values need no evaluation; the others are evaluated with their scales.
  std::vector<std::size_t> open;
  std::vector<GiNaC::ex> entries;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    if (tests[i].value.is_zero()) continue;
    open.push_back(i);
    entries.push_back(tests[i].value);
    entries.insert(entries.end(), tests[i].scale_terms.begin(), tests[i].scale_terms.end());
  }
  if (open.empty()) return tests.size();
  const std::vector<GiNaC::symbol> symbols = SymbolsOf(entries);
  std::vector<double> centre(symbols.size(), 0.0);
  for (std::size_t s = 0; s < symbols.size(); ++s) {
    const auto found = nominal.find(symbols[s].get_name());
    if (found != nominal.end() && std::isfinite(found->second)) centre[s] = found->second;
  }
  const CompiledFunction f = CompileExpressions(entries, symbols);
  std::vector<double> in(symbols.size()), out(entries.size()), scratch(f.scratch_size());
  PointGenerator random(kSeed ^ 0xA5A5ULL);
  std::vector<int> evaluated(open.size(), 0);
  std::size_t first_failure = tests.size();
  for (int p = 0; p < kGenericRankPoints; ++p) {
    CheckDerivationCancelled();
    for (int attempt = 0; attempt < kAttemptsPerPoint; ++attempt) {
      for (std::size_t s = 0; s < symbols.size(); ++s)
        in[s] = centre[s] + 0.25 * (1.0 + std::abs(centre[s])) * random.Symmetric();
      f.Evaluate(in.data(), out.data(), scratch.data());
      bool all_finite = true;
      std::size_t slot = 0;
      for (std::size_t j = 0; j < open.size(); ++j) {
        const VanishingTest& test = tests[open[j]];
        const double value = out[slot++];
        double scale = 0.0;
        for (std::size_t t = 0; t < test.scale_terms.size(); ++t) scale += std::abs(out[slot++]);
        if (!std::isfinite(value) || !std::isfinite(scale)) {
          all_finite = false;
          continue;
        }
        ++evaluated[j];
        if (std::abs(value) > kVanishingTolerance * scale || (scale == 0.0 && value != 0.0))
          first_failure = std::min(first_failure, open[j]);
      }
      if (all_finite) break;
    }
  }
  for (std::size_t j = 0; j < open.size(); ++j)
    if (evaluated[j] == 0)
      throw ModelError("cannot decide whether " + CanonicalString(tests[open[j]].value) +
                       " vanishes: it is not finite at any of " +
                       std::to_string(kGenericRankPoints * kAttemptsPerPoint) +
                       " points drawn near the scenario's initial and parameter values");
  return first_failure;
}

}  // namespace dirac::symbolic
