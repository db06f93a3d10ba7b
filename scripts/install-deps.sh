#!/usr/bin/env bash
# Installs Dirac Studio's build and test dependencies from Debian 12 packages.
# Idempotent: when every package is already present it returns in about a second.
set -euo pipefail

# clang-14, libclang-rt-14-dev (libFuzzer and the sanitizer runtimes) and llvm-14
# (llvm-symbolizer for sanitizer stack traces): scripts/sanitize.sh and scripts/fuzz.sh.
# python3-sympy, -scipy, -numpy, -yaml: the independent references of the generated families
# (tests/reference/). python3-dev, pybind11-dev, python3-pybind11: the Python module (python/);
# python3-pytest runs its tests, python3-pandas its DataFrames (Result.to_pandas,
# sweep(as_frame=True)); python3-nbconvert, -ipykernel (the kernel) and -matplotlib run
# the notebook docs/examples/dirac_tour.ipynb headless (python/tests/test_notebook.py).
packages=(
  build-essential cmake pkg-config ninja-build
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  libvtk9-dev
  libeigen3-dev
  libsundials-dev libsuitesparse-dev
  libginac-dev libcln-dev
  coinor-libipopt-dev
  libyaml-cpp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth libgl1-mesa-dri mesa-utils
  ffmpeg
  clang-format
  parallel
  clang-14 libclang-rt-14-dev llvm-14
  python3-sympy python3-scipy python3-numpy python3-yaml
  python3-dev pybind11-dev python3-pybind11 python3-pytest python3-pandas
  python3-nbconvert python3-ipykernel python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
