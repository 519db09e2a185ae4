//! Generates `include/memviewslice.h` with cbindgen, writing it only when its content changes.
//! The header is checked in; `make check-header` fails when a build changes it. The include
//! guard is written here rather than by cbindgen so that the layout assertions, which must
//! follow the declarations, are inside it. So are the system includes, so that with MVS_CDEF
//! defined the header preprocesses into what cffi's `ffi.cdef()` reads: no system header, no
//! assertion, and the integer constants, which the preprocessor drops, as an enum written from
//! the generated `#define`s.

use std::path::Path;

const PREAMBLE: &str = r#"/*
 * memviewslice: strided views over raw memory, laid out like Cython's __Pyx_memviewslice.
 *
 * Conventions (every function):
 * - Fallible functions return mvs_status: MVS_OK (0) or an MVS_ERR_* code. On failure no
 *   output is written, and mvs_last_error() gives a detailed message for this thread.
 * - Inputs come first, outputs last, through pointers. An output mvs_slice may be the same
 *   pointer as the source (update in place).
 * - NULL where a pointer is required is MVS_ERR_NULL; an array of length 0 may be NULL.
 * - ndim is 0..=MVS_MAX_DIMS; axes may be negative (counting from the end, as in NumPy);
 *   enum-like arguments are plain ints and unknown values are MVS_ERR_VALUE.
 * - MVS_NONE in a slice bound or step means "not given" (Python's None).
 * - Common errors of every function that takes a view (src, ndim), listed as "the common
 *   ones": MVS_ERR_NULL (src, or a required array or output, is NULL), MVS_ERR_NDIM (ndim
 *   outside 0..=8, or a result of more than 8 dimensions), MVS_ERR_SHAPE (src has a negative
 *   extent), MVS_ERR_OVERFLOW (the distance between src's extreme elements, the sum of
 *   (shape[i] - 1) * |strides[i]|, does not fit in ptrdiff_t, or other arithmetic on extents,
 *   strides or offsets would overflow). No real array has such a span, and refusing it keeps
 *   every offset the library computes exact.
 * - No view function allocates, locks, prints, aborts or reads the viewed memory (except
 *   through indirect dimensions where a function says so). Only the ownership functions
 *   allocate (mvs_buffer_alloc, mvs_buffer_wrap, mvs_pool_create, mvs_pool_acquire when the
 *   pool grows, and the DLPack exports and imports, one block each) and only pool growth locks (a mutex; acquire and release are lock-free).
 *   Nothing prints or aborts. Every function is thread-safe.
 * - Ownership: an mvs_buffer owns a memory block and counts references atomically (retain and
 *   release from any thread; the memory is freed, or the deallocation callback runs, exactly
 *   once, at the last release). Views never own anything: mvs_buffer_view puts the buffer in
 *   the view's memview as a BORROWED token (no reference is taken), which derived views copy
 *   and mvs_buffer_of reads back; retain the buffer for as long as a view must keep the
 *   memory alive. Never give Cython a view whose memview is a buffer (or NULL, as for pool
 *   and raw-memory views) as a typed memoryview.
 * - Free choices, where NumPy's value addresses nothing: the stride of a result axis of
 *   length 0 or 1 is the source's; slicing (or taking a diagonal) to length 0 adds no offset
 *   to the data address. Other axes of a zero-size view may still move it.
 *
 * From Python with cffi (ABI mode, no compiler needed at run time): preprocess the header with
 * MVS_CDEF defined, on the platform of use (sizes and constants are its own), and give the
 * result to ffi.cdef():
 *     cc -E -P -DMVS_CDEF $(pkg-config --cflags memviewslice) -o memviewslice.cdef \
 *         $(pkg-config --variable=includedir memviewslice)/memviewslice.h
 *     ffi.cdef(open("memviewslice.cdef").read()); lib = ffi.dlopen("libmemviewslice.so.0")
 * MVS_CDEF leaves out the system includes (cffi knows size_t, ptrdiff_t and the intN_t types)
 * and the layout assertions, and declares the integer constants (MVS_OK, MVS_NONE, ...) again
 * as an enum, read as lib.MVS_OK; MVS_VERSION is left out. A program compiled against the
 * header never defines MVS_CDEF.
 */
#ifndef MEMVIEWSLICE_H
#define MEMVIEWSLICE_H"#;

const INCLUDES_VERSION_AND_NONE: &str = r#"#ifdef MVS_CDEF
/* For cffi (see the top comment): the integer constants defined below, as an enum. */
enum {
  MVS_NONE = -__PTRDIFF_MAX__ - 1,
@CDEF_CONSTANTS@};
#else
#include <stddef.h>
#include <stdint.h>
#endif

#define MVS_VERSION "@VERSION@"

/** "Not given" in slice bounds and steps (Python's None). */
#define MVS_NONE PTRDIFF_MIN

/* The DLPack managed tensors, declared below, are named by their deleters' types first. */
struct mvs_dl_managed_tensor;
struct mvs_dl_managed_tensor_versioned;
"#;

const TRAILER: &str = r#"
#ifndef MVS_CDEF
/* The layout of mvs_slice is Cython's __Pyx_memviewslice. */
#ifdef __cplusplus
#define MVS_STATIC_ASSERT static_assert
#else
#define MVS_STATIC_ASSERT _Static_assert
#endif
MVS_STATIC_ASSERT(sizeof(mvs_slice) == 2 * sizeof(void *) + 24 * sizeof(ptrdiff_t), "mvs_slice size");
MVS_STATIC_ASSERT(sizeof(mvs_iter) == MVS_ITER_BYTES, "mvs_iter size");
MVS_STATIC_ASSERT(offsetof(mvs_slice, data) == sizeof(void *), "mvs_slice.data offset");
MVS_STATIC_ASSERT(offsetof(mvs_slice, shape) == 2 * sizeof(void *), "mvs_slice.shape offset");
MVS_STATIC_ASSERT(offsetof(mvs_slice, strides) == 2 * sizeof(void *) + 8 * sizeof(ptrdiff_t), "mvs_slice.strides offset");
MVS_STATIC_ASSERT(offsetof(mvs_slice, suboffsets) == 2 * sizeof(void *) + 16 * sizeof(ptrdiff_t), "mvs_slice.suboffsets offset");
/* The DLPack structs are laid out as dlpack.h 1.1's (DLTensor, DLManagedTensor,
 * DLManagedTensorVersioned), so that a DLManagedTensorVersioned * converts with a cast. */
MVS_STATIC_ASSERT(sizeof(mvs_dl_version) == 8 && sizeof(mvs_dl_device) == 8 && sizeof(mvs_dl_data_type) == 4, "DLPack scalars");
MVS_STATIC_ASSERT(offsetof(mvs_dl_tensor, device) == sizeof(void *), "mvs_dl_tensor.device offset");
MVS_STATIC_ASSERT(offsetof(mvs_dl_tensor, ndim) == sizeof(void *) + 8, "mvs_dl_tensor.ndim offset");
MVS_STATIC_ASSERT(offsetof(mvs_dl_tensor, dtype) == sizeof(void *) + 12, "mvs_dl_tensor.dtype offset");
MVS_STATIC_ASSERT(offsetof(mvs_dl_tensor, shape) == sizeof(void *) + 16, "mvs_dl_tensor.shape offset");
MVS_STATIC_ASSERT(offsetof(mvs_dl_tensor, strides) == 2 * sizeof(void *) + 16, "mvs_dl_tensor.strides offset");
MVS_STATIC_ASSERT(offsetof(mvs_dl_managed_tensor, manager_ctx) == sizeof(mvs_dl_tensor), "mvs_dl_managed_tensor.manager_ctx offset");
MVS_STATIC_ASSERT(offsetof(mvs_dl_managed_tensor_versioned, manager_ctx) == 8, "mvs_dl_managed_tensor_versioned.manager_ctx offset");
MVS_STATIC_ASSERT(offsetof(mvs_dl_managed_tensor_versioned, deleter) == 8 + sizeof(void *), "mvs_dl_managed_tensor_versioned.deleter offset");
MVS_STATIC_ASSERT(offsetof(mvs_dl_managed_tensor_versioned, flags) == 8 + 2 * sizeof(void *), "mvs_dl_managed_tensor_versioned.flags offset");
MVS_STATIC_ASSERT(offsetof(mvs_dl_managed_tensor_versioned, dl_tensor) == 16 + 2 * sizeof(void *), "mvs_dl_managed_tensor_versioned.dl_tensor offset");
/* The exchange API's table is laid out as dlpack.h 1.3's DLPackExchangeAPI. */
MVS_STATIC_ASSERT(offsetof(mvs_dlpack_exchange_api_header, prev_api) == 8, "mvs_dlpack_exchange_api_header.prev_api offset");
MVS_STATIC_ASSERT(offsetof(mvs_dlpack_exchange_api, managed_tensor_allocator) == 8 + sizeof(void *), "mvs_dlpack_exchange_api.managed_tensor_allocator offset");
MVS_STATIC_ASSERT(offsetof(mvs_dlpack_exchange_api, current_work_stream) == 8 + 5 * sizeof(void *), "mvs_dlpack_exchange_api.current_work_stream offset");
MVS_STATIC_ASSERT(sizeof(mvs_dlpack_exchange_api) == 8 + 6 * sizeof(void *), "mvs_dlpack_exchange_api size");
#undef MVS_STATIC_ASSERT
#endif /* MVS_CDEF */

#endif /* MEMVIEWSLICE_H */
"#;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=include/memviewslice.h");
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let major = version.split('.').next().unwrap_or("0");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmemviewslice.so.{major}");
    }
    let mut config =
        cbindgen::Config::from_file(Path::new(&dir).join("cbindgen.toml")).expect("cbindgen.toml is valid");
    config.header = Some(PREAMBLE.to_string());
    config.after_includes = Some(INCLUDES_VERSION_AND_NONE.replace("@VERSION@", &version));
    config.trailer = Some(TRAILER.to_string());
    let bindings = cbindgen::generate_with_config(&dir, config).expect("cbindgen can parse the crate");
    let mut written = Vec::new();
    bindings.write(&mut written);
    let written = String::from_utf8(written).expect("cbindgen writes UTF-8");
    let generated = written.replace("@CDEF_CONSTANTS@", &cdef_constants(&written));
    let path = Path::new(&dir).join("include/memviewslice.h");
    if std::fs::read(&path).ok().as_deref() != Some(generated.as_bytes()) {
        std::fs::write(&path, &generated).expect("include/ is writable");
    }
}

/// The enumerators of MVS_CDEF's enum: the constants cbindgen wrote, every `#define MVS_*` whose
/// value is a number or an expression in parentheses, with the value as the header spells it
/// (MVS_NONE, a macro's name, is written above them; MVS_VERSION is a string).
fn cdef_constants(header: &str) -> String {
    header
        .lines()
        .filter_map(|line| line.strip_prefix("#define MVS_")?.split_once(' '))
        .filter(|(_, value)| value.starts_with(|c: char| c.is_ascii_digit() || c == '('))
        .map(|(name, value)| format!("  MVS_{name} = {value},\n"))
        .collect()
}
