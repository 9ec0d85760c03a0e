"""ai8xsim.compare: where a model's own tensors differ from the chip's layers."""

import gzip
import os

import numpy as np

from . import _core


class Mismatch:
    """The first difference between the user's tensors and the chip's layer
    outputs: `layer`, and either the element (`channel`, `row`, `column`,
    `expected` = the user's value, `actual` = the chip's) or, when the
    shapes cannot be lined up, `shape` (the user's) and `chip_shape`.
    `layout` says how the chip's layer was unfolded to the network's shape
    (empty: it was not). str() reads like ai8xsim-layer-diff's line."""

    def __init__(self, layer, layout="", channel=None, row=None, column=None, expected=None, actual=None,
                 shape=None, chip_shape=None):
        self.layer = layer
        self.layout = layout
        self.channel, self.row, self.column = channel, row, column
        self.expected, self.actual = expected, actual
        self.shape, self.chip_shape = shape, chip_shape

    def __str__(self):
        if self.channel is None:
            return "layer %d: MISMATCH shape: expected %s, the chip's layer has %s" % (
                self.layer, "x".join(map(str, self.shape)), "x".join(map(str, self.chip_shape)))
        return "layer %d: MISMATCH at channel %d row %d column %d: expected %s, actual %d" % (
            self.layer, self.channel, self.row, self.column, self.expected, self.actual)

    __repr__ = __str__


def _as_numpy(tensor):
    """A NumPy array of a NumPy array, a PyTorch tensor (any device) or a nested list."""
    if hasattr(tensor, "detach"):
        tensor = tensor.detach().cpu().numpy()
    return np.asarray(tensor)


def _network_shape(a, layer):
    """`a` as (channels, rows, columns): a batch of one dropped, 1-D data
    (C, L) as L rows of one column, a vector (C,) as C x 1 x 1."""
    if a.ndim == 4 and a.shape[0] == 1:
        a = a[0]
    if a.ndim == 2:
        a = a[:, :, None]
    elif a.ndim == 1:
        a = a[:, None, None]
    if a.ndim != 3:
        raise ValueError("layer %d: a tensor of shape %s is no layer output (C,H,W), (1,C,H,W), (C,L) or (C,)"
                         % (layer, a.shape))
    return a


def _items(arrays):
    if isinstance(arrays, dict):
        return sorted(arrays.items())
    return [(n, a) for n, a in enumerate(arrays) if a is not None]


def compare(result, arrays):
    """Compares the user's tensors with the chip's layer outputs, layer by layer.

    `arrays`: the model's output of each layer as NumPy arrays or PyTorch
    tensors, either a list (index = layer number; None skips a layer) or a
    dict {layer number: tensor}; each of shape (C, H, W), (1, C, H, W),
    (C, L) for 1-D data, or (C,), with the integer values the chip computes
    (the quantized network's, as in the generator's log). The chip may
    keep more channels than the network uses: only the tensor's are compared.

    Returns None when every given layer matches, else the first Mismatch
    (in layer order, then channel, row, column).
    """
    for n, tensor in _items(arrays):
        want = _network_shape(_as_numpy(tensor), n)
        # Lined up by the tensor's nearest integers (the 1-D unfolding looks for them).
        ok, layout, aligned = _core.align(result.layer(n).values, np.rint(want).astype(np.int64))
        if not ok:
            return Mismatch(n, layout, shape=want.shape, chip_shape=result.layer(n).shape)
        # Against the user's own values: a fraction never matches the chip's integer.
        differ = np.argwhere(aligned != want)
        if len(differ):
            c, r, x = (int(i) for i in differ[0])
            expected = want[c, r, x].item()
            return Mismatch(n, layout, c, r, x, expected, int(aligned[c, r, x]))
    return None


def generator_layers(folder):
    """{layer: array (C, H, W)}: every layer output the generator's log
    (FOLDER/log.txt.gz or log.txt, written by ai8xize.py with --log) prints,
    i.e. what its PyTorch model of the quantized network computed; what
    ai8xsim-layer-diff compares the chip's layers with."""
    folder = os.fspath(folder)
    for name, opener in (("log.txt.gz", gzip.open), ("log.txt", open)):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            with opener(path, "rt", encoding="utf-8", errors="replace") as f:
                return dict(_core.generator_log_layers(f.read(), path))
    raise FileNotFoundError("%s: no log.txt.gz or log.txt (the generator's log)" % folder)
