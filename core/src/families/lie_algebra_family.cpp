// Lie algebras from a family (lie_algebra_family.hpp): bases, generated structure constants
// and their checks, matrix realizations.
#include "families/lie_algebra_family.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <random>
#include <utility>

#include "dirac/families.hpp"
#include "families/family_text.hpp"

namespace dirac::families {
namespace {

using Complex = std::complex<double>;
using SparseMatrix = std::map<std::pair<int, int>, Complex>;
using Components = std::vector<std::pair<std::uint32_t, double>>;

constexpr int kMaxMatrixSize = 40;
constexpr int kMaxTorusSize = 41;
// The matrix form alone (no structure constants): N^2 - 1 basis elements of at most 2N entries.
constexpr int kMaxMatrixFormSize = 255;
constexpr std::size_t kExactJacobiDimension = 120;

// ---- so(n), su(n), se(n): brackets from the matrix commutator ------------------------------

// The matrix algebras keep each basis element as a sparse matrix and decompose a commutator
// back onto the basis; the structure constants are those of the commutator by construction.
struct MatrixAlgebra {
  std::vector<SparseMatrix> elements;
  // (row, col) of an entry -> (basis index, weight): the basis coefficient read off the entry,
  // coefficient = Σ weight * entry (real part for real weights, imaginary for imaginary).
  std::map<std::pair<int, int>, std::vector<std::pair<std::uint32_t, Complex>>> readout;
};

void Add(SparseMatrix& m, int r, int c, Complex v) { m[{r, c}] += v; }

SparseMatrix Commutator(const SparseMatrix& a, const SparseMatrix& b) {
  SparseMatrix out;
  for (const auto& [ij, x] : a)
    for (const auto& [kl, y] : b) {
      if (ij.second == kl.first) Add(out, ij.first, kl.second, x * y);
      if (kl.second == ij.first) Add(out, kl.first, ij.second, -y * x);
    }
  return out;
}

// Appends a basis element with two entries (i, j) = a, (j, i) = b; returns its index.
std::uint32_t AddElement(std::string name, int i, int j, Complex a, Complex b,
                         LieAlgebraBasis& basis, MatrixAlgebra& algebra) {
  const auto index = static_cast<std::uint32_t>(basis.names.size());
  basis.names.push_back(std::move(name));
  SparseMatrix m;
  Add(m, i, j, a);
  Add(m, j, i, b);
  algebra.elements.push_back(m);
  return index;
}

std::string PairName(std::string_view letter, int i, int j) {
  return Indexed(letter, i + 1) + "_" + std::to_string(j + 1);
}

// so(n) block (and the rotations of se(n)): E_ij, i < j, 0-based.
void AddRotations(int n, LieAlgebraBasis& basis, MatrixAlgebra& algebra) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const auto index = AddElement(PairName("w", i, j), i, j, 1.0, -1.0, basis, algebra);
      algebra.readout[{i, j}].push_back({index, 1.0});
    }
}

void BuildSu(int n, LieAlgebraBasis& basis, MatrixAlgebra& algebra) {
  const Complex i1(0.0, 1.0);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const auto a = AddElement(PairName("a", i, j), i, j, 1.0, -1.0, basis, algebra);
      const auto b = AddElement(PairName("b", i, j), i, j, i1, i1, basis, algebra);
      // entry (i, j) = a + i b: a = Re, b = Im.
      algebra.readout[{i, j}].push_back({a, 1.0});
      algebra.readout[{i, j}].push_back({b, i1});
    }
  // H_j = i(E_jj - E_j+1,j+1); a traceless diagonal i diag(d) has c_j = Σ_{l <= j} d_l.
  const auto first = static_cast<std::uint32_t>(basis.names.size());
  for (int j = 0; j + 1 < n; ++j) {
    basis.names.push_back(Indexed("h", j + 1));
    SparseMatrix H;
    Add(H, j, j, i1);
    Add(H, j + 1, j + 1, -i1);
    algebra.elements.push_back(H);
  }
  for (int l = 0; l < n; ++l)
    for (int j = l; j + 1 < n; ++j)
      algebra.readout[{l, l}].push_back({first + static_cast<std::uint32_t>(j), i1});
}

void BuildSe(int n, LieAlgebraBasis& basis, MatrixAlgebra& algebra) {
  AddRotations(n, basis, algebra);
  for (int i = 0; i < n; ++i) {
    const auto index = static_cast<std::uint32_t>(basis.names.size());
    basis.names.push_back(Indexed("u", i + 1));
    SparseMatrix u;
    Add(u, i, n, 1.0);
    algebra.elements.push_back(u);
    algebra.readout[{i, n}].push_back({index, 1.0});
  }
}

// Reads the basis components of a matrix of the algebra (weight 1: real part; weight i: the
// imaginary part).
Components Decompose(const MatrixAlgebra& algebra, const SparseMatrix& m) {
  std::map<std::uint32_t, double> out;
  for (const auto& [ij, value] : m) {
    const auto found = algebra.readout.find(ij);
    if (found == algebra.readout.end()) continue;
    for (const auto& [index, weight] : found->second)
      out[index] += weight.imag() != 0.0 ? value.imag() * weight.imag() : value.real();
  }
  Components components;
  for (const auto& [index, value] : out)
    if (std::abs(value) > 1e-14) components.emplace_back(index, value);
  return components;
}

MatrixAlgebra BuildMatrixAlgebra(LieAlgebraBasis& basis) {
  MatrixAlgebra algebra;
  if (basis.family == "so") AddRotations(basis.size, basis, algebra);
  if (basis.family == "su") BuildSu(basis.size, basis, algebra);
  if (basis.family == "se") BuildSe(basis.size, basis, algebra);
  return algebra;
}

// ---- Zeitlin's torus ------------------------------------------------------------------------

std::string ModeIndex(int m) { return m < 0 ? "m" + std::to_string(-m) : std::to_string(m); }

bool InHalfPlane(int m1, int m2) { return m1 > 0 || (m1 == 0 && m2 > 0); }

int Reduce(int m, int N) {
  const int M = (N - 1) / 2;
  int r = ((m % N) + N) % N;
  return r > M ? r - N : r;
}

struct Torus {
  int N = 0, M = 0;
  std::vector<int> index;  // (m1 + M) * N + (m2 + M) -> element index of C_m (S_m = + 1)
  int CosIndex(int m1, int m2) const { return index[(m1 + M) * N + (m2 + M)]; }
};

void BuildTorusBasis(LieAlgebraBasis& basis, Torus& torus) {
  const int N = basis.size, M = (N - 1) / 2;
  torus.N = N;
  torus.M = M;
  torus.index.assign(N * N, -1);
  for (int m1 = 0; m1 <= M; ++m1)
    for (int m2 = -M; m2 <= M; ++m2) {
      if (!InHalfPlane(m1, m2)) continue;
      torus.index[(m1 + M) * N + (m2 + M)] = static_cast<int>(basis.names.size());
      const std::string suffix = ModeIndex(m1) + "_" + ModeIndex(m2);
      for (const bool sine : {false, true}) {
        basis.names.push_back((sine ? "s" : "c") + suffix);
        basis.modes.push_back({m1, m2});
        basis.sine.push_back(sine);
        basis.laplacian.push_back(static_cast<double>(m1 * m1 + m2 * m2));
      }
    }
}

// Adds `weight` times C_k (or S_k) for a wave vector k taken mod N.
void AddMode(const Torus& torus, int k1, int k2, bool sine, double weight,
             std::map<std::uint32_t, double>& out) {
  k1 = Reduce(k1, torus.N);
  k2 = Reduce(k2, torus.N);
  if (k1 == 0 && k2 == 0) return;  // the identity: not in su(N) (its coefficient vanishes)
  if (!InHalfPlane(k1, k2)) {
    k1 = -k1;
    k2 = -k2;
    if (sine) weight = -weight;  // S_-k = -S_k, C_-k = C_k
  }
  out[static_cast<std::uint32_t>(torus.CosIndex(k1, k2) + (sine ? 1 : 0))] += weight;
}

Components TorusBracket(const LieAlgebraBasis& basis, const Torus& torus, std::size_t a,
                        std::size_t b) {
  const auto [m1, m2] = basis.modes[a];
  const auto [n1, n2] = basis.modes[b];
  const int N = torus.N;
  const int cross = ((m1 * n2 - m2 * n1) % N + N) % N;
  const double half_f =
      0.5 * (N / (2 * std::numbers::pi)) * std::sin(2 * std::numbers::pi * cross / N);
  std::map<std::uint32_t, double> out;
  if (half_f != 0.0) {
    const bool sa = basis.sine[a], sb = basis.sine[b];
    if (!sa && !sb) {  // [C_m, C_n] = (F/2)(C_m+n - C_m-n)
      AddMode(torus, m1 + n1, m2 + n2, false, half_f, out);
      AddMode(torus, m1 - n1, m2 - n2, false, -half_f, out);
    } else if (sa && sb) {  // [S_m, S_n] = -(F/2)(C_m+n + C_m-n)
      AddMode(torus, m1 + n1, m2 + n2, false, -half_f, out);
      AddMode(torus, m1 - n1, m2 - n2, false, -half_f, out);
    } else if (!sa) {  // [C_m, S_n] = (F/2)(S_m+n + S_m-n)
      AddMode(torus, m1 + n1, m2 + n2, true, half_f, out);
      AddMode(torus, m1 - n1, m2 - n2, true, half_f, out);
    } else {  // [S_m, C_n] = -[C_n, S_m] = (F/2)(S_m+n - S_m-n)
      AddMode(torus, m1 + n1, m2 + n2, true, half_f, out);
      AddMode(torus, m1 - n1, m2 - n2, true, -half_f, out);
    }
  }
  Components components;
  for (const auto& [index, value] : out)
    if (value != 0.0) components.emplace_back(index, value);
  return components;
}

// ---- checks ---------------------------------------------------------------------------------

double MaxAbs(const Components& c) {
  double m = 0.0;
  for (const auto& [i, v] : c) m = std::max(m, std::abs(v));
  return m;
}

[[noreturn]] void Refuse(const LieAlgebraBasis& basis, const std::string& what) {
  throw FamilyError("Lie algebra " + basis.family + "(" + std::to_string(basis.size) +
                    "): " + what);
}

void CheckAntisymmetry(const LieAlgebraBasis& basis, std::size_t a, std::size_t b,
                       const Components& ab, const Components& ba, double tol) {
  std::map<std::uint32_t, double> sum;
  for (const auto& [i, v] : ab) sum[i] += v;
  for (const auto& [i, v] : ba) sum[i] += v;
  for (const auto& [i, v] : sum)
    if (std::abs(v) > tol)
      Refuse(basis, "[" + basis.names[a] + ", " + basis.names[b] +
                        "] is not antisymmetric (component along " + basis.names[i] + ")");
}

void CheckJacobiExact(const LieAlgebraBasis& basis, const std::vector<StructureConstant>& list,
                      double tol) {
  const std::size_t k = basis.dimension();
  std::vector<Components> table(k * k);
  for (const auto& s : list) {
    table[s.a * k + s.b].emplace_back(s.c, s.value);
    table[s.b * k + s.a].emplace_back(s.c, -s.value);
  }
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t b = a + 1; b < k; ++b)
      for (std::size_t c = b + 1; c < k; ++c) {
        std::map<std::uint32_t, double> sum;
        const std::size_t cycle[3][3] = {{a, b, c}, {b, c, a}, {c, a, b}};
        for (const auto& t : cycle)
          for (const auto& [d, outer] : table[t[0] * k + t[1]])
            for (const auto& [e, inner] : table[d * k + t[2]]) sum[e] += outer * inner;
        for (const auto& [e, v] : sum)
          if (std::abs(v) > tol)
            Refuse(basis, "the brackets violate the Jacobi identity on [" + basis.names[a] + ", " +
                              basis.names[b] + ", " + basis.names[c] + "] (component along " +
                              basis.names[e] + ")");
      }
}

// Jacobi at random elements in general position: J(x, y, z) is trilinear, so a violation on any
// basis triple makes it a nonzero polynomial, which vanishes at random points with probability 0.
void CheckJacobiRandom(const LieAlgebraBasis& basis, const std::vector<StructureConstant>& list,
                       double scale) {
  std::mt19937_64 random(20250425);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const std::size_t k = basis.dimension();
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<double> x(k), y(k), z(k);
    for (std::size_t i = 0; i < k; ++i) {
      x[i] = uniform(random);
      y[i] = uniform(random);
      z[i] = uniform(random);
    }
    const std::vector<double> j1 = Bracket(list, Bracket(list, x, y), z),
                              j2 = Bracket(list, Bracket(list, y, z), x),
                              j3 = Bracket(list, Bracket(list, z, x), y);
    double size = 0.0, error = 0.0;
    for (std::size_t i = 0; i < k; ++i) {
      size = std::max({size, std::abs(j1[i]), std::abs(j2[i]), std::abs(j3[i])});
      error = std::max(error, std::abs(j1[i] + j2[i] + j3[i]));
    }
    if (error > 1e-11 * std::max(size, scale))
      Refuse(basis, "the brackets violate the Jacobi identity at random elements (|J| = " +
                        Number(error) + " against " + Number(size) + ")");
  }
}

}  // namespace

std::string LieAlgebraFamilyNames() { return "so, su, se, zeitlin_torus"; }

namespace {

LieAlgebraBasis BasisOf(std::string_view family, int size, int max_matrix, int max_torus) {
  LieAlgebraBasis basis;
  basis.family = std::string(family);
  basis.size = size;
  const std::string name(family);
  if (family == "so" || family == "su" || family == "se") {
    if (size < 2 || size > max_matrix)
      throw FamilyError("Lie algebra " + name + "(n): n = " + std::to_string(size) +
                        " is outside 2 ... " + std::to_string(max_matrix));
    BuildMatrixAlgebra(basis);
    return basis;
  }
  if (family == "zeitlin_torus") {
    if (size < 3 || size > max_torus || size % 2 == 0)
      throw FamilyError("Lie algebra zeitlin_torus(N): N = " + std::to_string(size) +
                        " must be odd, 3 ... " + std::to_string(max_torus));
    Torus torus;
    BuildTorusBasis(basis, torus);
    return basis;
  }
  throw FamilyError("unknown Lie algebra family '" + name + "' (known: " + LieAlgebraFamilyNames() +
                    ")");
}

}  // namespace

LieAlgebraBasis LieAlgebraBasisOf(std::string_view family, int size) {
  return BasisOf(family, size, kMaxMatrixSize, kMaxTorusSize);
}

LieAlgebraBasis MatrixFormBasisOf(std::string_view family, int size) {
  return BasisOf(family, size, kMaxMatrixFormSize, kMaxMatrixFormSize);
}

std::vector<StructureConstant> StructureConstants(const LieAlgebraBasis& input) {
  LieAlgebraBasis basis = input;
  const std::size_t k = basis.dimension();
  std::vector<StructureConstant> list;
  MatrixAlgebra algebra;
  Torus torus;
  const bool on_torus = basis.family == "zeitlin_torus";
  if (on_torus) {
    basis.names.clear();
    basis.modes.clear();
    basis.sine.clear();
    basis.laplacian.clear();
    BuildTorusBasis(basis, torus);
  } else {
    basis.names.clear();
    algebra = BuildMatrixAlgebra(basis);
  }
  auto bracket = [&](std::size_t a, std::size_t b) {
    return on_torus ? TorusBracket(basis, torus, a, b)
                    : Decompose(algebra, Commutator(algebra.elements[a], algebra.elements[b]));
  };
  for (std::size_t a = 0; a < k; ++a) {
    if (!bracket(a, a).empty()) Refuse(basis, "[" + basis.names[a] + ", itself] is not zero");
    for (std::size_t b = a + 1; b < k; ++b) {
      const Components ab = bracket(a, b);
      const double size = MaxAbs(ab);
      CheckAntisymmetry(basis, a, b, ab, bracket(b, a), 1e-13 * std::max(1.0, size));
      for (const auto& [c, v] : ab)
        list.push_back({static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), c, v});
    }
  }
  CheckJacobi(input, list);
  return list;
}

void CheckJacobi(const LieAlgebraBasis& basis, const std::vector<StructureConstant>& constants) {
  double scale = 0.0;
  for (const auto& c : constants) scale = std::max(scale, std::abs(c.value));
  if (basis.dimension() <= kExactJacobiDimension)
    CheckJacobiExact(basis, constants, 1e-12 * std::max(1.0, scale * scale));
  else
    CheckJacobiRandom(basis, constants, scale);
}

std::vector<double> Bracket(const std::vector<StructureConstant>& constants,
                            const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> z(x.size(), 0.0);
  for (const StructureConstant& s : constants)
    z[s.c] += s.value * (x[s.a] * y[s.b] - x[s.b] * y[s.a]);
  return z;
}

int MatrixSize(const LieAlgebraBasis& basis) {
  return basis.family == "se" ? basis.size + 1 : basis.size;
}

std::vector<std::vector<MatrixEntry>> MatrixRealization(const LieAlgebraBasis& input) {
  std::vector<std::vector<MatrixEntry>> out;
  if (input.family != "zeitlin_torus") {
    LieAlgebraBasis basis = input;
    basis.names.clear();
    const MatrixAlgebra algebra = BuildMatrixAlgebra(basis);
    for (const SparseMatrix& m : algebra.elements) {
      std::vector<MatrixEntry> entries;
      for (const auto& [ij, v] : m) entries.push_back({ij.first, ij.second, v});
      out.push_back(std::move(entries));
    }
    return out;
  }
  // T_m = (iN/4π) J_m, J_m = ε^(m1 m2) g^m1 h^m2 with the clock g = diag(ε^2j) and the shift h
  // (h_j,j+1 = 1): (J_m)_j,j+m2 = ε^(m1 m2 + 2 j m1), ε = exp(2πi/N).
  const int N = input.size;
  const Complex i1(0.0, 1.0);
  const Complex factor = i1 * (N / (4 * std::numbers::pi));
  auto J = [&](int m1, int m2, int j) {
    const long exponent = ((static_cast<long>(m1) * m2 + 2L * j * m1) % N + N) % N;
    return std::polar(1.0, 2 * std::numbers::pi * static_cast<double>(exponent) / N);
  };
  for (std::size_t a = 0; a < input.dimension(); ++a) {
    const auto [m1, m2] = input.modes[a];
    SparseMatrix m;
    for (int j = 0; j < N; ++j) {
      const Complex plus = factor * J(m1, m2, j), minus = factor * J(-m1, -m2, j);
      // C = (T_m + T_-m)/2, S = (T_m - T_-m)/(2i)
      if (input.sine[a]) {
        Add(m, j, ((j + m2) % N + N) % N, plus / (2.0 * i1));
        Add(m, j, ((j - m2) % N + N) % N, -minus / (2.0 * i1));
      } else {
        Add(m, j, ((j + m2) % N + N) % N, plus / 2.0);
        Add(m, j, ((j - m2) % N + N) % N, minus / 2.0);
      }
    }
    std::vector<MatrixEntry> entries;
    for (const auto& [ij, v] : m)
      if (std::abs(v) > 0.0) entries.push_back({ij.first, ij.second, v});
    out.push_back(std::move(entries));
  }
  return out;
}

bool HasTraceCasimirs(const LieAlgebraBasis& basis) {
  return basis.family == "so" || basis.family == "zeitlin_torus";
}

}  // namespace dirac::families
