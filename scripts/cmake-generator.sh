# Sourced by the build scripts: cmake_generator DIR sets the array
# `generator` to the -G arguments for configuring the build folder DIR.
# Ninja schedules every object file of every target at once; make waits
# for a library to be linked before it compiles the programs that use it,
# and left a core idle for a third of the sanitizer build (docs/ci.md). A
# folder configured before keeps its generator (CMake cannot switch it).
cmake_generator() {
  generator=()
  if [ ! -f "$1/CMakeCache.txt" ] && command -v ninja > /dev/null; then
    generator=(-G Ninja)
  fi
}
