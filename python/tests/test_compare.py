"""ai8xsim.compare: the first place a model's tensors differ from the chip's."""

import numpy as np
import pytest

import ai8xsim
from conftest import vector


class FakeTorchTensor:
    """What compare() uses of a PyTorch tensor (detach, cpu, numpy)."""

    def __init__(self, a):
        self.a = a

    def detach(self):
        return self

    def cpu(self):
        return self

    def numpy(self):
        return self.a


@pytest.fixture(scope="module")
def mnist():
    return ai8xsim.run(vector("demo-mnist"))


def test_the_generators_own_tensors_match(mnist):
    assert ai8xsim.compare(mnist, ai8xsim.generator_layers(vector("demo-mnist"))) is None


def test_the_first_differing_element_is_named(mnist):
    tensors = ai8xsim.generator_layers(vector("demo-mnist"))
    tensors[2] = tensors[2].copy()
    tensors[2][5, 3, 1] += 1
    tensors[3] = tensors[3].copy()
    tensors[3][0, 0, 0] += 1  # a later layer: not the first difference
    m = ai8xsim.compare(mnist, tensors)
    assert (m.layer, m.channel, m.row, m.column) == (2, 5, 3, 1)
    assert m.actual == mnist.layer(2).values[5, 3, 1] and m.expected == m.actual + 1
    assert str(m) == "layer 2: MISMATCH at channel 5 row 3 column 1: expected %d, actual %d" % (m.expected, m.actual)


def test_tensors_as_a_list_with_batch_and_torch_shapes(mnist):
    tensors = ai8xsim.generator_layers(vector("demo-mnist"))
    as_list = [FakeTorchTensor(tensors[0][None])] + [None] * 3 + [tensors[4].reshape(-1)]
    assert ai8xsim.compare(mnist, as_list) is None
    wrong = tensors[4].reshape(-1).astype(np.float32)
    wrong[7] += 0.5  # a fraction never matches the chip's integers
    m = ai8xsim.compare(mnist, {4: wrong})
    assert (m.layer, m.channel, m.row, m.column) == (4, 7, 0, 0)


def test_a_shape_that_cannot_be_lined_up(mnist):
    m = ai8xsim.compare(mnist, {1: np.zeros((61, 16, 16), dtype=np.int64)})
    assert m.layer == 1 and m.channel is None
    assert str(m) == "layer 1: MISMATCH shape: expected 61x16x16, the chip's layer has 60x16x16"


def test_folded_layers_are_unfolded():
    """1-D data the generator folds into rows of the dilation compares in the network's shape."""
    folder = vector("t-test-conv1d-dilation13-k2-pad0", "vectors-max78002")
    r = ai8xsim.run(folder)
    tensors = ai8xsim.generator_layers(folder)
    assert r.layer(0).shape == (11, 9, 13) and tensors[0].shape == (11, 98, 1)
    assert ai8xsim.compare(r, tensors) is None
    tensors[0][3, 50, 0] += 1
    m = ai8xsim.compare(r, tensors)
    assert (m.layer, m.channel, m.row, m.column) == (0, 3, 50, 0)
    assert m.layout.startswith("1-D data folded into 9x13")


def test_a_folder_without_the_generators_log(tmp_path):
    with pytest.raises(FileNotFoundError, match="no log.txt.gz or log.txt"):
        ai8xsim.generator_layers(tmp_path)
