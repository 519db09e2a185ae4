//! memviewslice: strided views over raw memory with a C ABI laid out like Cython's
//! `__Pyx_memviewslice`.
//!
//! [`view`] holds the view arithmetic in safe Rust; [`ffi`] is the C API over it.

pub mod ffi;
pub mod view;
