"""Builds the ai8xsim Python package with the project's CMake (docs/python.md).

`python3 -m pip install --no-build-isolation .` runs this: it configures
build/python (Release; Ninja and ccache when installed) unless
AI8XSIM_BUILD_DIR names an already configured build tree, builds the
extension module and the `ai8xsim` command line (which sweeps run), and puts
both into the package. The package keeps using this clone's configs/ and
firmware/ (device descriptions, startup code, linker scripts).
"""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def _configure(build_dir):
    args = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DAI8XSIM_PYTHON=ON",
            "-DPython_EXECUTABLE=" + sys.executable]
    if shutil.which("ninja"):
        args += ["-G", "Ninja"]
    if shutil.which("ccache"):
        args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
    subprocess.check_call(args)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("AI8XSIM_BUILD_DIR") or os.path.join(ROOT, "build", "python")
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            _configure(build_dir)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", build_dir, "-j", jobs, "--target", "_core", "ai8xsim"])
        built = os.path.join(build_dir, "python", "ai8xsim")
        module = [f for f in os.listdir(built) if f.startswith("_core.") and f.endswith(".so")]
        if len(module) != 1:
            raise RuntimeError("%s: expected one _core module, found %s" % (built, module or "none"))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(built, module[0]), target)
        # The command line, for sweeps (python/ai8xsim/_sweep.py finds it there).
        bin_dir = os.path.join(os.path.dirname(target), "bin")
        os.makedirs(bin_dir, exist_ok=True)
        shutil.copy2(os.path.join(build_dir, "ai8xsim"), os.path.join(bin_dir, "ai8xsim"))


setup(ext_modules=[Extension("ai8xsim._core", sources=[])], cmdclass={"build_ext": CMakeBuild})
