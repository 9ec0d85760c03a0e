"""ai8xsim.run: the same figures and layers as the command line."""

import os

import numpy as np
import pytest

import ai8xsim
from conftest import cli_run, read_dump, read_json, vector, without_wall_clock, VECTORS


def test_a_run_gives_the_command_lines_json_and_layer_files(tmp_path, mnist_small):
    r = ai8xsim.run(mnist_small)
    code, _ = cli_run(mnist_small, "--json", str(tmp_path / "run.json"), "--dump-layers", str(tmp_path / "layers"))
    assert code == 0
    assert r.passed and r.verdict == "pass" and r.kat == "pass" and r.exit_code == 0
    assert without_wall_clock(r.json) == without_wall_clock(read_json(tmp_path / "run.json"))
    assert r.cycles == r.json["cnn_cycles"] > 0
    assert [l.index for l in r.layers] == [l["layer"] for l in r.layer_cycles]
    for layer in r.layers:
        expected = read_dump(tmp_path / "layers" / ("layer_%d.txt" % layer.index))
        assert layer.values.dtype == np.int64
        assert layer.shape == expected.shape
        np.testing.assert_array_equal(layer.values, expected)


def test_the_result_names_its_figures(mnist_small):
    r = ai8xsim.run(mnist_small)
    assert set(r.phases) == {"weights", "bias", "configure", "input", "inference", "unload_check"}
    assert r.phases["inference"] > 0
    assert r.energy["layers"] and r.energy["phases"]["inference_uj"] > 0
    assert r.warnings == [] and r.hazards == []
    assert {m["memory"] for m in r.memory} == {"data_sram", "kernel", "bias"}
    assert all(0 < m["used"] <= m["words"] for m in r.memory if m["ranges"])
    assert r.activity["layers"] == [l.index for l in r.layers]
    assert "PASS" in r.console
    assert r.cnn_clock_hz > 0 and r.sim_time_us > 0 and r.wall_seconds > 0
    assert repr(r) == "<Result demo-mnist-extrasmall: pass, %d CNN cycles>" % r.cycles


def test_layers_carry_the_generators_descriptions():
    r = ai8xsim.run(vector("demo-mnist"))
    first = r.layer(0)
    assert first.description.startswith("1x28x28, no pooling, conv2d with kernel size 3x3")
    assert first.name is None  # the network YAML names none of its layers
    assert first.layout == "CHW" and first.shape == (60, 28, 28)
    assert np.asarray(first) is first.values
    assert r.layer(4).shape[0] >= 10
    with pytest.raises(KeyError, match="layer 9: the run has layers 0 to 4"):
        r.layer(9)


def test_options_reach_the_run(tmp_path, mnist_small):
    assert ai8xsim.run(mnist_small, capture_layers=False).layers == []
    r = ai8xsim.run(mnist_small, json=tmp_path / "run.json", dump_layers=tmp_path / "d", check_memory=False, threads=1)
    assert read_json(tmp_path / "run.json")["firmware_faults"] is None  # the checker was off
    assert sorted(os.listdir(tmp_path / "d")) == ["layer_%d.txt" % l["layer"] for l in r.layer_cycles]
    # An override the firmware never writes is warned about, as on the command line.
    r = ai8xsim.run(mnist_small, set={0x50000000: 1})
    assert [w["kind"] for w in r.warnings] == ["override_unused"]
    assert ai8xsim.run(mnist_small, set=["0x50000000=1"]).warnings == r.warnings


@pytest.mark.parametrize("kwargs, message", [
    (dict(threads=0), "threads=0: expected a whole number from 1 to 64"),
    (dict(gdb=70000), "gdb=70000: expected a whole number from 0 to 65535"),
    (dict(set=["0x5=zz"]), "set: expected ADDR=VALUE with 32-bit numbers, got '0x5=zz'"),
    (dict(timeout=0), "timeout=0: expected a positive number"),
])
def test_bad_option_values_are_refused_before_running(mnist_small, kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ai8xsim.run(mnist_small, **kwargs)


def test_an_unknown_option_is_a_type_error(mnist_small):
    with pytest.raises(TypeError, match="no_such_option"):
        ai8xsim.run(mnist_small, no_such_option=1)


def _all_vectors():
    return sorted(d for d in os.listdir(VECTORS) if os.path.isdir(os.path.join(VECTORS, d)))


@pytest.mark.parametrize("name", _all_vectors())
def test_layer_arrays_equal_the_dump_files_on_every_vector(tmp_path, name):
    """Every vector of ../shared/vectors: the arrays of an in-process run are
    the --dump-layers files of the command line (another process, read by
    this test's own reader), layer for layer."""
    folder = os.path.join(VECTORS, name)
    code, stderr = cli_run(folder, "--dump-layers", str(tmp_path))
    r = ai8xsim.run(folder)
    assert r.exit_code == code, stderr
    files = sorted(int(f[len("layer_"):-len(".txt")]) for f in os.listdir(tmp_path))
    assert [l.index for l in r.layers] == files and files
    for layer in r.layers:
        np.testing.assert_array_equal(layer.values, read_dump(tmp_path / ("layer_%d.txt" % layer.index)))
