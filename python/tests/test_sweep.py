"""ai8xsim.sweep: one row per grid point, each what a run of that point gives."""

import pytest

import ai8xsim
from conftest import vector

# demo-cats-dogs' first streaming layer is layer 1; its LREG_STREAM2 (DELTA1
# bits 8:4, DELTA2 bits 27:16) in all four quadrants (README, ai8xsim-sweep).
STREAM2 = "0x50100894+0x50500894+0x50900894+0x50d00894"
FIFO_VECTOR = "t-test-fifo-hwc"


def test_rows_are_the_runs_of_their_points():
    folder = vector("demo-cats-dogs")
    rows = ai8xsim.sweep(folder, {"delta2": [128, 132]}, fields={"delta2": STREAM2 + ":27:16"}, jobs=2, frame=False)
    assert [r["delta2"] for r in rows] == [128, 132]
    # DELTA2 below what the layer needs reads its ring too early (docs/streaming.md §6).
    assert [(r["verdict"], r["exit_code"], r["error"]) for r in rows] == [("fail", 1, None), ("pass", 0, None)]
    assert rows[0]["hazards"] > 0 and rows[1]["hazards"] == 0
    generated = ai8xsim.run(folder, capture_layers=False)
    assert rows[1]["cnn_cycles"] == generated.cycles  # cnn.c's own DELTA2 is 132
    # The point with DELTA2 128 is the run with that value forced.
    forced = ai8xsim.run(folder, capture_layers=False,
                         set={int(a, 16): (0x00840021 & ~(0xfff << 16)) | (128 << 16) for a in STREAM2.split("+")})
    assert rows[0]["cnn_cycles"] == forced.cycles and forced.verdict == "fail"
    assert rows[0]["hazards"] == len(forced.hazards)
    assert rows[0]["inference_uj"] == forced.energy["phases"]["inference_uj"]
    assert rows[0]["inference_us"] == forced.phases["inference"]


def test_options_and_registers_as_axes_in_grid_order():
    folder = vector(FIFO_VECTOR)
    seen = []
    rows = ai8xsim.sweep(folder, {"fifo_run_ahead": [True, False], "poll_fast_forward": [True, False]},
                         progress=lambda done, total: seen.append((done, total)), frame=False)
    assert [(r["fifo_run_ahead"], r["poll_fast_forward"]) for r in rows] == [
        (True, True), (True, False), (False, True), (False, False)]
    # Both switches leave every figure as it is (README).
    assert len({(r["cnn_cycles"], r["stall_cycles"], r["verdict"]) for r in rows}) == 1
    assert sorted(seen) == [(k, 4) for k in range(1, 5)]


def test_a_data_frame_when_pandas_is_installed():
    import pandas
    frame = ai8xsim.sweep(vector(FIFO_VECTOR), {"check_memory": [True, False]})
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns[:3]) == ["check_memory", "verdict", "exit_code"]
    assert list(frame["verdict"]) == ["pass", "pass"]


def test_a_field_cnn_c_never_writes_is_refused():
    with pytest.raises(ValueError, match="never writes 0x40000018"):
        ai8xsim.sweep(vector(FIFO_VECTOR), {"0x40000018:16:14": [1, 2]})


def test_a_folder_that_cannot_run_raises_the_runs_message(tmp_path):
    (tmp_path / "cnn.c").write_text("")
    with pytest.raises(ai8xsim.Error, match="ai8xsim sweep: point 1: .*main.c: missing"):
        ai8xsim.sweep(str(tmp_path), {"0x50100000": [1]})
