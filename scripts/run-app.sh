#!/usr/bin/env bash
# Installs the dependencies, builds, and opens Dirac Studio on its default scenario
# (scenarios/heisenberg.yaml). Extra arguments go to dirac-studio.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j2 --target dirac-studio dirac
exec build/app/dirac-studio "${@:-scenarios/heisenberg.yaml}"
