"""Runs that cannot start raise RunError with the command line's message."""

import os
import shutil

import pytest

import ai8xsim
from conftest import cli_run


def _raised(folder):
    with pytest.raises(ai8xsim.RunError) as caught:
        ai8xsim.run(folder)
    return caught.value


def test_a_folder_without_main_c(tmp_path):
    e = _raised(str(tmp_path))
    code, stderr = cli_run(str(tmp_path))
    assert e.exit_code == code == 2
    assert str(e) == stderr.rstrip("\n") == "ai8xsim run: %s: missing" % (tmp_path / "main.c")
    assert e.messages == ["%s: missing" % (tmp_path / "main.c")]


def test_firmware_that_does_not_compile(tmp_path, mnist_small):
    for f in os.listdir(mnist_small):
        shutil.copy(os.path.join(mnist_small, f), tmp_path)
    with open(tmp_path / "cnn.c", "a") as f:
        f.write("\nthis is not C;\n")
    e = _raised(str(tmp_path))
    code, stderr = cli_run(str(tmp_path), "--build-dir", str(tmp_path / "cache"))
    assert e.exit_code == code == 2
    # The message and the compiler's output, as the command line prints them
    # (the cache folder differs: the compiler's lines name the source).
    assert str(e).splitlines()[0] == stderr.splitlines()[0]
    assert "this is not C" in str(e) and "error" in str(e)


def test_a_folder_that_does_not_exist(tmp_path):
    missing = str(tmp_path / "nowhere")
    e = _raised(missing)
    assert str(e).startswith("ai8xsim run: ") and "nowhere" in str(e)


def test_a_config_for_another_device(mnist_small):
    config = os.path.join(ai8xsim._core.CONFIG_DIR, "max78002.yaml")
    with pytest.raises(ai8xsim.RunError) as caught:
        ai8xsim.run(mnist_small, config=config)
    code, stderr = cli_run(mnist_small, "--config", config)
    assert caught.value.exit_code == code == 2
    assert str(caught.value) == stderr.rstrip("\n")


def test_a_failed_run_still_runs_the_next(tmp_path, mnist_small):
    with pytest.raises(ai8xsim.RunError):
        ai8xsim.run(str(tmp_path))
    assert ai8xsim.run(mnist_small).passed
