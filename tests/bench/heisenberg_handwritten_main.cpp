// heisenberg_handwritten: the hand-written CVODE program as a process, for whole-process timings
// against `dirac run` (scripts/bench-pipeline.sh). Same columns and CSV format as `dirac run`.
//
//   heisenberg_handwritten [--kx K] [--ky K] [--t-end T] [--rtol R] [--atol A] [--newton]
//                          [--csv FILE] [--quiet]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "heisenberg_handwritten.hpp"

int main(int argc, char** argv) {
  dirac::bench::HandWrittenSettings s;
  std::string csv;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto number = [&]() {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "heisenberg_handwritten: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return std::strtod(argv[++i], nullptr);
    };
    if (a == "--kx")
      s.kx = number();
    else if (a == "--ky")
      s.ky = number();
    else if (a == "--t-end")
      s.t_end = number();
    else if (a == "--rtol")
      s.rtol = number();
    else if (a == "--atol")
      s.atol = number();
    else if (a == "--newton")
      s.newton = true;
    else if (a == "--quiet" || a == "-q")
      quiet = true;
    else if (a == "--csv" && i + 1 < argc)
      csv = argv[++i];
    else {
      std::fprintf(stderr, "heisenberg_handwritten: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const auto run = dirac::bench::RunHeisenbergHandWritten(s);
  const auto done = std::chrono::steady_clock::now();
  FILE* out = csv.empty() ? stdout : std::fopen(csv.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "heisenberg_handwritten: cannot write '%s'\n", csv.c_str());
    return 1;
  }
  std::fputs("t,x,y,z,vx,vy,vz,mu,E,residual_heisenberg\n", out);
  const int n = dirac::bench::HandWrittenRun::kColumns;
  for (std::size_t r = 0; r < run.samples.size() / n; ++r)
    for (int c = 0; c < n; ++c)
      std::fprintf(out, "%.17g%c", run.samples[r * n + c], c + 1 < n ? ',' : '\n');
  if (out != stdout && std::fclose(out) != 0) {
    std::fprintf(stderr, "heisenberg_handwritten: cannot write '%s'\n", csv.c_str());
    return 1;
  }
  if (!quiet)
    std::fprintf(stderr,
                 "heisenberg_handwritten: %zu samples to t = %g, CVODE Adams (%s): %ld steps, %ld "
                 "right-hand-side calls, %ld nonlinear iterations; integrate %.3f ms\n",
                 run.samples.size() / n, s.t_end, s.newton ? "Newton, dense" : "fixed point",
                 run.steps, run.rhs_evaluations, run.nonlinear_iterations,
                 std::chrono::duration<double, std::milli>(done - start).count());
  return 0;
}
