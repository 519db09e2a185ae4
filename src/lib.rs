//! memviewslice: strided views over raw memory with a C ABI laid out like Cython's
//! `__Pyx_memviewslice`.
//!
//! `view` holds the view arithmetic in safe Rust (but for one block of SSE2 intrinsics, which
//! only compute), `memory` the layout arithmetic and bookkeeping of owned memory (buffers,
//! pools), `copy` the kernels that move data between views; `ffi` is the C API over them,
//! and the crate's only public module: the crate is a C library, whose Rust items are the C
//! API's (Rust callers use them as C callers do).

pub(crate) mod copy;
pub(crate) mod dlpack;
pub mod ffi;
pub(crate) mod iter;
pub(crate) mod memory;
pub(crate) mod view;
