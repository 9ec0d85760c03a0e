#!/usr/bin/env bash
# Installs the Debian packages ai8xsim needs to build, test and run firmware.
# Idempotent: does nothing (not even apt-get update) when all are present.
set -euo pipefail

packages=(
  # build tools (clang-format: the style check among the tests; clang and its
  # runtime libraries: the sanitizer build and the libFuzzer harnesses, docs/fuzzing.md)
  cmake g++ make pkg-config clang-format git clang libclang-rt-14-dev
  # the CI builds' generator (scripts/test.sh: both cores busy through a build)
  ninja-build
  # simulator libraries
  libsystemc-dev libyaml-cpp-dev libeigen3-dev libspdlog-dev catch2
  libcli11-dev nlohmann-json3-dev libunicorn-dev
  # camera inputs: PNG pictures for `run --camera`, gzip'd generator logs
  libpng-dev zlib1g-dev
  # the layer engine's SIMD kernel (Highway, runtime dispatch; model/engine/dot_kernel.*)
  libhwy-dev
  # firmware toolchain for the generated cnn.c/main.c
  gcc-arm-none-eabi libnewlib-arm-none-eabi
  # `ai8xsim run --gdb` session test (docs/debugging.md)
  gdb-multiarch
  # RISC-V core's firmware (--riscv folders: main_riscv.c + cnn.c); no C library
  # package, the shim has the few functions generated code needs (docs/riscv.md)
  gcc-riscv64-unknown-elf
  # renders `ai8xsim report` pages in the report test (headless screenshot)
  chromium
  # used by the scripts themselves (jq: scripts/check-determinism.sh;
  # universal-ctags: scripts/check-function-length.sh)
  coreutils findutils gzip jq universal-ctags
  # the Python package (python/, docs/python.md): its extension module, its
  # install line (pip, setuptools), its tests, plots, sweep tables and the
  # example notebook run by CI (nbconvert with the ipykernel)
  pybind11-dev python3-dev python3-numpy python3-pytest python3-pip python3-setuptools
  python3-matplotlib python3-pandas jupyter-nbconvert python3-nbclient python3-ipykernel
  # executor of the job lists of ai8xsim-sweep / ai8xsim-conformance --write-jobs
  # (docs/scale-out.md; the scale-out tests run them through it)
  parallel
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  sudo=(sudo)
fi
echo "setup: installing ${missing[*]}"
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
