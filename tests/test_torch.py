#!/usr/bin/env python3
"""DLPack with PyTorch, through the installed package: memviewslice.from_dlpack(tensor) goes
through PyTorch's C exchange API (type(t).__dlpack_c_exchange_api__, DLPack 1.3), never
t.__dlpack__, and gives NumPy's view of the tensor (np.from_dlpack's: address, shape, strides,
dtype), sharing its memory and keeping it alive; torch.from_dlpack takes a BufferExport back.

Run by `make torch-test` in a venv of its own (build/venv-torch, PyTorch from PyPI); skipped,
with the reason, where PyTorch cannot be installed or imported, or has no exchange API.

    build/venv-torch/bin/python -m pytest tests/test_torch.py -q
"""

import gc
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed here (make torch-test installs it)")

from memviewslice import from_dlpack  # noqa: E402
from memviewslice.owners import BufferExport  # noqa: E402

if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
    pytest.skip(f"PyTorch {torch.__version__} has no DLPack C exchange API (PyTorch 2.10 and later have)",
                allow_module_level=True)


class NoDLPack(torch.Tensor):
    """A tensor type with PyTorch's exchange API (inherited) whose __dlpack__ fails: imports of
    it must go through the exchange API."""

    def __dlpack__(self, *args, **kwargs):
        raise AssertionError("__dlpack__ was called: the exchange API should have been used")


def layout(a):
    a = np.asarray(a)
    return a.__array_interface__["data"][0], a.shape, a.strides, a.dtype


DTYPES = [torch.bool, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16, torch.uint32,
          torch.uint64, torch.float16, torch.float32, torch.float64, torch.complex64, torch.complex128]


def tensors(dtype):
    """Tensors of `dtype`, 0-d to 5-d: contiguous, transposed, stepped, offset, expanded
    (stride 0), empty."""
    base = (torch.arange(4 * 5 * 6) % 7).to(dtype).reshape(4, 5, 6)
    yield base
    yield base[1]
    yield base[1, 2, 3]
    yield base.transpose(0, 2)
    yield base[:, ::2, 1:]
    yield base[1:3, 1:, ::3].permute(2, 0, 1)
    yield base[:1].expand(3, 5, 6)
    yield base[:, :0]
    yield base.reshape(2, 2, 5, 3, 2)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_views_as_numpy_sees_them(dtype):
    for t in tensors(dtype):
        mine = from_dlpack(t.as_subclass(NoDLPack))
        theirs = np.from_dlpack(t)
        # an empty tensor's address is NULL, for which each consumer makes up its own
        compared = slice(0 if t.numel() else 1, None)
        assert layout(mine)[compared] == layout(theirs)[compared], f"{tuple(t.shape)} {t.stride()}"
        assert np.array_equal(np.asarray(mine), theirs)


def test_memory_shared_and_kept_alive():
    t = torch.arange(12.0).reshape(3, 4)
    o = from_dlpack(t.as_subclass(NoDLPack))
    np.asarray(o)[1, 2] = -1.0
    assert t[1, 2].item() == -1.0
    address = t.data_ptr()
    del t
    gc.collect()
    a = np.asarray(o)
    assert a.__array_interface__["data"][0] == address and a[2, 3] == 11.0


def test_torch_takes_an_export_back():
    a = np.arange(24, dtype=np.int32).reshape(4, 6)[::2, 1:]
    o = from_dlpack(a)
    t = torch.from_dlpack(o)
    assert t.data_ptr() == a.__array_interface__["data"][0]
    assert tuple(t.shape) == a.shape and tuple(s * 4 for s in t.stride()) == a.strides
    assert torch.equal(t, torch.from_numpy(a.copy()))


def test_refusals():
    with pytest.raises(BufferError, match="no buffer-protocol format"):
        from_dlpack(torch.zeros(3, dtype=torch.bfloat16).as_subclass(NoDLPack))
    with pytest.raises(BufferError, match="0 to 8 dimensions"):
        from_dlpack(torch.zeros((1,) * 9).as_subclass(NoDLPack))


def test_buffer_export_is_not_torch():
    # the tables differ: each library's own, found on each type
    assert type(from_dlpack(np.zeros(1))).__dlpack_c_exchange_api__ is BufferExport.__dlpack_c_exchange_api__
    assert BufferExport.__dlpack_c_exchange_api__ is not torch.Tensor.__dlpack_c_exchange_api__


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider", *sys.argv[1:]]))
