"""The Python objects of memviewslice (see owners.pxd)."""

class BufferExport:
    """One view of memory owned by an mvs_buffer, exported through the buffer protocol:
    ``np.asarray(obj)`` and ``memoryview(obj)`` share the memory and keep it alive. Read-only
    buffers are exported read-only. Made from Cython with ``memviewslice.owners.export``;
    Python cannot make one."""

    __dlpack_c_exchange_api__: object
    """DLPack 1.3's C exchange API: a PyCapsule named "dlpack_exchange_api" of the table of C
    functions (version 1.3) through which C consumers take an export as a DLPack tensor, make
    one from a tensor, or allocate one, with no Python call."""

    def __buffer__(self, flags: int, /) -> memoryview: ...
    def __dlpack__(
        self,
        *,
        stream: object = None,
        max_version: "tuple[int, int] | None" = None,
        dl_device: "tuple[int, int] | None" = None,
        copy: "bool | None" = None,
    ) -> object:
        """The exported view as a DLPack capsule, sharing the memory (a versioned DLPack 1.1
        tensor when max_version allows it, else a legacy one); copy=True exports a copy.
        Refuses as numpy.ndarray.__dlpack__ does: a stream other than None (RuntimeError),
        max_version or dl_device not a tuple (TypeError), a device other than (1, 0)
        (BufferError), a string for copy (ValueError)."""
    def __dlpack_device__(self) -> "tuple[int, int]":
        """(1, 0): the CPU."""

class Pool:
    """A pool of arrays of one dtype, shape and order, from which nogil Cython code acquires
    typed memoryviews with no GIL (``<dtype>.pool_acquire_Nd(pool.pool)``, given back with
    ``<dtype>.pool_release_Nd``; see owners.pxd). ``dtype`` is a struct-module format such as
    ``'d'``, or anything NumPy takes as a dtype; ``order`` is ``'C'`` or ``'F'``."""

    format: bytes
    itemsize: int
    shape: tuple[int, ...]
    order: str

    def __init__(self, dtype: object, shape: "tuple[int, ...]", order: str = "C", capacity: int = 16) -> None: ...
    @property
    def counts(self) -> "tuple[int, int]":
        """(arrays, acquired): how many arrays the pool has, and how many are handed out."""

def from_dlpack(x: object, /, *, device: "str | None" = None, copy: "bool | None" = None) -> BufferExport:
    """A BufferExport sharing the memory of ``x``, any object with ``__dlpack__`` of CPU memory
    (a NumPy array, a PyTorch tensor), keeping its producer alive; read-only tensors give
    read-only exports. Through the C exchange API of x's type when it has one
    (``__dlpack_c_exchange_api__``, DLPack 1.3), with no call of ``x.__dlpack__``.
    The array API's keywords, as ``np.from_dlpack`` takes them: ``device`` None or ``"cpu"``
    (ValueError naming any other); ``copy`` True for a writable copy in new memory, False never
    to copy (BufferError when the producer cannot share), None to share when possible. More
    than 8 dimensions, another device or a type with no buffer format: BufferError."""
