#!/usr/bin/env bash
# Runs the libFuzzer target on the scenario reader and expression parser
# (tests/fuzz/scenario_fuzzer.cpp) for a time budget, from the seed corpus scenarios/*.yaml plus
# the kept findings tests/fuzz_regressions/*. New interesting inputs go to BUILD_DIR/fuzz-corpus
# (kept between runs); a finding (crash, sanitizer report, leak, an input slower than 10 s, more
# than 2 GB) is written to BUILD_DIR/fuzz-findings/ and makes the script fail. Keep each finding,
# minimised (scenario_fuzzer -minimize_crash=1 -runs=10000 FILE), under tests/fuzz_regressions/
# once fixed: the unit test FuzzRegressions replays them.
#
# Usage: bash scripts/fuzz.sh [SECONDS] [BUILD_DIR]   (default 600 s, build-asan; the build dir
#        is configured and the target built if needed, as scripts/sanitize.sh asan does)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
dir=${2:-build-asan}
if [ ! -f "$dir/CMakeCache.txt" ]; then
  debug_flags="-O1 -gline-tables-only"  # as scripts/sanitize.sh
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="$debug_flags" -DCMAKE_C_FLAGS_DEBUG="$debug_flags" \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DDIRAC_SANITIZE=address,undefined,float-cast-overflow -DDIRAC_BUILD_FUZZERS=ON \
    -DDIRAC_BUILD_GUI=OFF -DDIRAC_BUILD_WORKER_TESTS=OFF -DDIRAC_BUILD_BENCHMARKS=OFF \
    "${launcher[@]}" >/dev/null
fi
cmake --build "$dir" -j"${SANITIZE_JOBS:-2}" --target scenario_fuzzer
mkdir -p "$dir/fuzz-corpus" "$dir/fuzz-findings"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/tests/sanitizers/lsan.supp}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
log="$dir/fuzz-findings/fuzz-$(date +%Y%m%d-%H%M%S).log"
echo "fuzz: $seconds s on $dir/tests/fuzz/scenario_fuzzer, log $log"
set +e
"$dir/tests/fuzz/scenario_fuzzer" "$dir/fuzz-corpus" scenarios tests/fuzz_regressions \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -dict=tests/fuzz/scenario.dict -artifact_prefix="$dir/fuzz-findings/" -print_final_stats=1 \
  >"$log" 2>&1
rc=$?
set -e
grep -E '^(#[0-9]+ +DONE|stat::|==[0-9]+==ERROR|SUMMARY)|artifact_prefix|Test unit written' "$log" || true
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
echo "fuzz: exit $rc, ${runs:-?} executions in $seconds s ($(( ${runs:-0} / (seconds > 0 ? seconds : 1) )) exec/s)"
if [ $rc -ne 0 ]; then
  tail -n 60 "$log"
  echo "fuzz: FINDING (see $dir/fuzz-findings/)" >&2
fi
exit $rc
