"""Runs from several Python threads equal serial runs (the GIL is released
while simulating; the simulations take turns, app/run_session.h)."""

import threading
import time

import numpy as np

import ai8xsim
from conftest import vector, without_wall_clock

FOLDERS = [vector("demo-mnist-extrasmall"), vector("t-test-conv1d-4"), vector("t-test-burnin_64x8x8"),
           vector("t-test-conv1d-4", "vectors-max78002")]


def _fingerprint(r):
    return without_wall_clock(r.json), [(l.index, l.values) for l in r.layers]


def _same(a, b):
    assert a[0] == b[0]
    assert [n for n, _ in a[1]] == [n for n, _ in b[1]]
    for (_, x), (_, y) in zip(a[1], b[1]):
        np.testing.assert_array_equal(x, y)


def test_four_threads_of_sixteen_runs_equal_the_serial_runs():
    serial = [_fingerprint(ai8xsim.run(f)) for f in FOLDERS]
    found = [[None] * 16 for _ in range(4)]
    failures = []

    def work(t):
        try:
            for k in range(16):
                found[t][k] = _fingerprint(ai8xsim.run(FOLDERS[(t + k) % len(FOLDERS)]))
        except BaseException as e:  # reported by the main thread
            failures.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    for t in range(4):
        for k in range(16):
            _same(found[t][k], serial[(t + k) % len(FOLDERS)])


def test_the_gil_is_released_while_simulating():
    """Python code runs on another thread while a run simulates."""
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.002)

    ticker = threading.Thread(target=tick)
    ai8xsim.run(FOLDERS[0])  # the firmware is cached: the next run is simulation
    ticker.start()
    start = time.monotonic()
    r = ai8xsim.run(vector("demo-mnist"))
    end = time.monotonic()
    done.set()
    ticker.join()
    during = [t for t in ticks if start < t < end]
    assert r.passed
    # With the GIL held for the whole run the ticker could not tick at all
    # meanwhile; released, it ticks every 2 ms it gets a core (this is a
    # shared machine: a tenth of the ideal count is plenty).
    assert len(during) >= max(5, 0.1 * (end - start) / 0.002), (len(during), end - start)
