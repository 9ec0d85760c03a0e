"""Many runs in one process keep its memory flat (bench/python_soak.py runs 1,000)."""

import ai8xsim
from conftest import vector


def resident_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/self/status")


def test_two_hundred_runs_keep_memory_flat():
    folder = vector("t-test-conv1d-4")
    sizes = []
    for _ in range(200):
        r = ai8xsim.run(folder)
        assert r.passed and r.layers
        sizes.append(resident_kib())
    first, last = sum(sizes[20:70]) / 50, sum(sizes[-50:]) / 50
    # A leak of the run's result (its JSON, its layer arrays) grows by far more.
    assert last <= first * 1.05, (first, last)
