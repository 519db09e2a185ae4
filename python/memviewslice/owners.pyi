"""The Python objects of memviewslice (made from Cython; see owners.pxd)."""

class BufferExport:
    """One view of memory owned by an mvs_buffer, exported through the buffer protocol:
    ``np.asarray(obj)`` and ``memoryview(obj)`` share the memory and keep it alive. Read-only
    buffers are exported read-only. Made from Cython with ``memviewslice.owners.export``;
    Python cannot make one."""

    def __buffer__(self, flags: int, /) -> memoryview: ...
