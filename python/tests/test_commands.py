"""ai8xsim.info and ai8xsim.replay: the command line's answers."""

import json
import subprocess

import pytest

import ai8xsim
from conftest import CLI


@pytest.mark.parametrize("device", ["max78000", "max78002"])
def test_info_is_the_command_lines_json(device):
    config = "%s/%s.yaml" % (ai8xsim._core.CONFIG_DIR, device)
    cli = subprocess.run([CLI, "info", "--config", config, "--json"], capture_output=True, text=True, check=True)
    assert ai8xsim.info(device) == json.loads(cli.stdout)
    assert ai8xsim.info(config) == ai8xsim.info(device.upper())


def test_info_of_a_malformed_description(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("device: [\n")
    cli = subprocess.run([CLI, "info", "--config", str(bad)], capture_output=True, text=True)
    with pytest.raises(ai8xsim.Error) as caught:
        ai8xsim.info(bad)
    assert caught.value.exit_code == cli.returncode == 2
    assert str(caught.value) == cli.stderr.rstrip("\n")


def test_a_recorded_trace_replays(tmp_path, mnist_small):
    trace = tmp_path / "run.trace"
    assert ai8xsim.run(mnist_small, trace_out=trace).passed
    r = ai8xsim.replay(trace)
    cli = subprocess.run([CLI, "replay", str(trace)], capture_output=True, text=True)
    assert r.passed and cli.returncode == 0 and r.failures == []
    assert cli.stdout == "replay: %d command(s), 0 failed check(s), %.3f us simulated\n" % (r.commands, r.sim_time_us)


def test_a_failed_check_is_in_the_result(tmp_path, mnist_small):
    trace = tmp_path / "run.trace"
    ai8xsim.run(mnist_small, trace_out=trace)
    lines = trace.read_text().splitlines()
    # The first read's expected value changed: that check fails.
    k = next(i for i, l in enumerate(lines) if l.startswith("read32 "))
    words = lines[k].split()
    words[2] = "0x%08x" % (int(words[2], 0) ^ 1)
    lines[k] = " ".join(words)
    trace.write_text("\n".join(lines) + "\n")
    r = ai8xsim.replay(trace)
    assert not r.passed and r.exit_code == 1 and len(r.failures) >= 1
    assert r.failures[0]["line"] == k + 1


def test_a_malformed_trace_raises_the_command_lines_message(tmp_path):
    trace = tmp_path / "bad.trace"
    trace.write_text("write32 nonsense\n")
    cli = subprocess.run([CLI, "replay", str(trace)], capture_output=True, text=True)
    with pytest.raises(ai8xsim.Error) as caught:
        ai8xsim.replay(trace)
    assert caught.value.exit_code == cli.returncode == 2
    assert str(caught.value) == cli.stderr.rstrip("\n")
