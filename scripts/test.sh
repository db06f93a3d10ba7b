#!/usr/bin/env bash
# Installs the dependencies (Debian 12 packages), builds everything and runs every test:
# engine unit/regression tests, the CLI, the core-isolation check, a benchmark smoke run and the
# GUI tests (under Xvfb); then the sanitizer jobs (scripts/sanitize.sh: ASan+UBSan unit tests, CLI
# on every shipped scenario and a 60 s fuzz run; TSan worker tests), built next to BUILD_DIR.
# Usage: bash scripts/test.sh [BUILD_DIR]   (SANITIZE=0 skips the sanitizer jobs)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}

bash scripts/install-deps.sh
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir" -j2
(cd "$build_dir" && ctest --output-on-failure --timeout 900)
if [ "${SANITIZE:-1}" != 0 ]; then
  bash scripts/sanitize.sh all "$build_dir"
fi
