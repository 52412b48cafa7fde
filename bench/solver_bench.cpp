// Solver benchmark (not a test): per-kernel and per-query Z3 time over the given inputs,
// p50 / p95 / max, and the whole check with and without the proof rules in the same run, so
// the ratio holds on any machine. A second pass re-checks every kernel to show the cache.
// Usage: ptoverify_solver_bench PATH...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "analyzer/frontend.h"
#include "rules/rule.h"
#include "solver/solver.h"

using namespace ptov;

namespace {
double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

void row(const char* what, const std::vector<double>& v) {
  std::printf("%-34s n=%-5zu p50=%8.2f ms  p95=%8.2f ms  max=%8.2f ms\n", what, v.size(), percentile(v, 0.5),
              percentile(v, 0.95), v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()));
}

double ms(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths(argv + 1, argv + argc);
  std::vector<LoadedFile> files;
  // C++ inputs need the C++ front end, which this benchmark does not link (the C++ front end has
  // its own bench, bench/cpp_frontend_bench.sh): only .pto and .mlir files are read.
  std::vector<std::string> problems;
  for (const auto& p : collectInputs(paths, problems, /*cppToo=*/false)) files.push_back(loadFile(p, {}));
  // The comm rules also ask Z3 (path queries); the four proof rules are the ones this compares.
  const std::vector<std::string> structural = {"-sync-deadlock", "-sync-exit-balance", "-sync-pipe-race",
                                               "-barrier-arrival"};
  std::vector<double> kernelSolverMs, kernelAllMs, kernelStructuralMs, recheckMs;
  size_t queries = 0, hits = 0, kernels = 0, byPoint = 0;
  std::string slowest;
  double slowestMs = -1;
  for (const auto& f : files) {
    for (const auto& k : f.kernels) {
      ++kernels;
      clearSolverCache();
      auto t0 = std::chrono::steady_clock::now();
      runRules(k, structural);
      kernelStructuralMs.push_back(ms(t0));
      clearSolverCache();
      Solver s;
      t0 = std::chrono::steady_clock::now();
      runRules(k, {}, &s);
      kernelAllMs.push_back(ms(t0));
      double sum = 0;
      for (double q : s.stats().queryMs) sum += q;
      kernelSolverMs.push_back(sum);
      if (sum > slowestMs) {
        slowestMs = sum;
        slowest = f.path + " @" + k.name;
      }
      queries += s.stats().queries;
      byPoint += s.stats().samplePointAnswers;
      // The same kernel again: every answer comes from the cache.
      Solver again;
      t0 = std::chrono::steady_clock::now();
      runRules(k, {}, &again);
      recheckMs.push_back(ms(t0));
      hits += again.stats().cacheHits;
    }
  }
  std::vector<double> perQuery = globalSolverStats().queryMs;
  std::printf("%zu file(s), %zu kernel(s), %zu solver queries (%zu answered by a sample point, %zu by Z3; %zu "
              "from the cache on re-check)\n",
              files.size(), kernels, queries, byPoint, perQuery.size(), hits);
  row("Z3 time per query", perQuery);
  row("Z3 time per kernel", kernelSolverMs);
  row("check per kernel, no proof rules", kernelStructuralMs);
  row("check per kernel, all rules", kernelAllMs);
  row("re-check per kernel (cached)", recheckMs);
  std::printf("slowest kernel for Z3: %s (%.1f ms)\n", slowest.c_str(), slowestMs);
  double s = 0, a = 0;
  for (double x : kernelStructuralMs) s += x;
  for (double x : kernelAllMs) a += x;
  std::printf("all rules / without the four proof rules: %.1fx (%.1f ms vs %.1f ms in total)\n", s > 0 ? a / s : 0.0, a, s);
  return problems.empty() ? 0 : 2;
}
