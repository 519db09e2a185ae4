//! DLPack's C exchange API (`dlpack.h` 1.3's `DLPackExchangeAPI`): the table of C functions
//! that a Python array library publishes on its tensor type, as the PyCapsule
//! `type(x).__dlpack_c_exchange_api__` named "dlpack_exchange_api", so that a consumer turns a
//! tensor object into a `DLManagedTensorVersioned` with one C call instead of a Python call of
//! `x.__dlpack__()` and a capsule. The table is declared here with `mvs_` names, as the other
//! DLPack structs are (`dlpack.rs`); `mvs_dlpack_import_object` imports through it. The library
//! calls no Python: finding the table on a type, and publishing one (memviewslice.owners does,
//! for its BufferExport), are the Python side's.

use core::ffi::{c_char, c_int, c_void};
use core::mem::{offset_of, size_of};

use super::*;
use crate::dlpack;

/// `DLPackExchangeAPIHeader`: the version of the table (`version.major` must be 1 for this
/// library), and the producer's table of an older DLPack version, or NULL: a consumer of an
/// older major version walks `prev_api` to find one it knows.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_dlpack_exchange_api_header {
    pub version: mvs_dl_version,
    pub prev_api: *mut mvs_dlpack_exchange_api_header,
}

/// The error callback of `mvs_dlpack_managed_tensor_allocator_fn` (dlpack.h's `SetError`):
/// `kind` an exception's name such as "MemoryError", and a message.
pub type mvs_dlpack_set_error_fn =
    Option<unsafe extern "C" fn(error_ctx: *mut c_void, kind: *const c_char, message: *const c_char)>;

/// `DLPackManagedTensorAllocator`: a new tensor of the producer, of `prototype`'s dtype, ndim,
/// shape and device, in `*out`; 0, or -1 after calling `set_error(error_ctx, kind, message)`.
pub type mvs_dlpack_managed_tensor_allocator_fn = Option<
    unsafe extern "C" fn(
        prototype: *mut mvs_dl_tensor,
        out: *mut *mut mvs_dl_managed_tensor_versioned,
        error_ctx: *mut c_void,
        set_error: mvs_dlpack_set_error_fn,
    ) -> c_int,
>;

/// `DLPackManagedTensorFromPyObjectNoSync`: the tensor object `py_object` (a `PyObject *` of
/// the type the table was found on) as a new versioned tensor in `*out`, which the caller
/// deletes once; 0, or -1 with a Python exception set.
pub type mvs_dlpack_managed_tensor_from_py_object_fn =
    Option<unsafe extern "C" fn(py_object: *mut c_void, out: *mut *mut mvs_dl_managed_tensor_versioned) -> c_int>;

/// `DLPackManagedTensorToPyObjectNoSync`: a new tensor object of the producer (a new reference
/// in `*out_py_object`) taking over `tensor` (always: on failure it is deleted); 0, or -1 with
/// a Python exception set.
pub type mvs_dlpack_managed_tensor_to_py_object_fn =
    Option<unsafe extern "C" fn(tensor: *mut mvs_dl_managed_tensor_versioned, out_py_object: *mut *mut c_void) -> c_int>;

/// `DLPackDLTensorFromPyObjectNoSync`: the tensor object `py_object` described in `*out`,
/// whose shape and strides the producer keeps (valid until control returns to the producer);
/// 0, or -1 with a Python exception set.
pub type mvs_dlpack_dltensor_from_py_object_fn =
    Option<unsafe extern "C" fn(py_object: *mut c_void, out: *mut mvs_dl_tensor) -> c_int>;

/// `DLPackCurrentWorkStream`: the producer's current stream on a device (`device_type` a
/// `DLDeviceType`), NULL for the CPU; 0, or -1 with a Python exception set.
pub type mvs_dlpack_current_work_stream_fn =
    Option<unsafe extern "C" fn(device_type: i32, device_id: i32, out_current_stream: *mut *mut c_void) -> c_int>;

/// `DLPackExchangeAPI` (`dlpack.h` 1.3): a producer's functions, all of them required but
/// `dltensor_from_py_object_no_sync`. A Python producer's functions run with the calling
/// thread attached to the interpreter (holding the GIL where there is one) and report failure
/// with a Python exception set; none synchronizes streams (CPU memory has none). The table
/// lives as long as the process.
///
/// Layout-identical to `dlpack.h` 1.3's (asserted at the end of this header): a
/// `DLPackExchangeAPI *` converts to an `mvs_dlpack_exchange_api *` with a cast, and back.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_dlpack_exchange_api {
    pub header: mvs_dlpack_exchange_api_header,
    pub managed_tensor_allocator: mvs_dlpack_managed_tensor_allocator_fn,
    pub managed_tensor_from_py_object_no_sync: mvs_dlpack_managed_tensor_from_py_object_fn,
    pub managed_tensor_to_py_object_no_sync: mvs_dlpack_managed_tensor_to_py_object_fn,
    pub dltensor_from_py_object_no_sync: mvs_dlpack_dltensor_from_py_object_fn,
    pub current_work_stream: mvs_dlpack_current_work_stream_fn,
}

// dlpack.h 1.3's layout (the header asserts it too).
const P: usize = size_of::<*mut c_void>();
const _: () = {
    assert!(offset_of!(mvs_dlpack_exchange_api_header, prev_api) == 8);
    assert!(offset_of!(mvs_dlpack_exchange_api, managed_tensor_allocator) == 8 + P);
    assert!(offset_of!(mvs_dlpack_exchange_api, current_work_stream) == 8 + 5 * P);
    assert!(size_of::<mvs_dlpack_exchange_api>() == 8 + 6 * P);
};

/// How many tables `prev_api` is followed through before giving up (a chain longer than this,
/// or a cycle, is refused as a version the library does not know).
const MAX_CHAIN: usize = 16;

/// Imports the tensor object `object` through its producer's exchange API `api` (the pointer
/// in the capsule `type(object).__dlpack_c_exchange_api__`): the producer's
/// `managed_tensor_from_py_object_no_sync` makes a versioned tensor, which is then imported
/// as by `mvs_dlpack_import`, with the same view and the same buffer: on success the buffer
/// owns the tensor (the producer's deleter runs once, at the buffer's last release), and on
/// failure the tensor, if one was made, is deleted here. One C call into the producer; no
/// Python call, no capsule.
///
/// The table used is `api` when its major version is `MVS_DLPACK_MAJOR_VERSION`, else the
/// first of that major version along its `prev_api` chain. The library itself calls no Python
/// and needs no GIL; a Python producer's function does: call this with the thread attached to
/// the interpreter (holding the GIL, on a CPython that has one), as any use of `object` needs.
///
/// - `api`: the producer's table, which the producer keeps alive.
/// - `object`: the tensor object (a `PyObject *`), of the type `api` was found on; borrowed.
/// - `out_view`, `out_ndim`, `out_itemsize`, `out_buffer`: as for `mvs_dlpack_import`.
/// - `out_dtype`: receives the tensor's item type (which the tensor, owned by the buffer, no
///   longer tells its caller).
///
/// Errors: `MVS_ERR_NULL` (an argument is NULL, or the table's
/// `managed_tensor_from_py_object_no_sync` is), `MVS_ERR_VERSION` (no table of major version
/// `MVS_DLPACK_MAJOR_VERSION` in the chain), `MVS_ERR_PRODUCER` (the producer's function
/// failed: a Python producer has set an exception, which the caller raises), and those of
/// `mvs_dlpack_import` (the tensor is then deleted). Checked in this order: the arguments,
/// the chain's version, the table's function, the producer's result, the import; the producer
/// is called only once the first three are found good. Thread-safe as the producer's function
/// is.
///
/// # Safety
/// `api` is NULL or points to a readable table whose `prev_api` chain is readable and whose
/// functions follow DLPack's contract; `object` is what the producer's function accepts; the
/// outputs are NULL or point to writable objects.
#[no_mangle]
pub unsafe extern "C" fn mvs_dlpack_import_object(
    api: *const mvs_dlpack_exchange_api,
    object: *mut c_void,
    out_view: *mut mvs_slice,
    out_ndim: *mut c_int,
    out_itemsize: *mut isize,
    out_dtype: *mut mvs_dl_data_type,
    out_buffer: *mut *mut mvs_buffer,
) -> mvs_status {
    let mut tensor: *mut mvs_dl_managed_tensor_versioned = core::ptr::null_mut();
    let status = run(|| {
        out_arg(out_view, "out_view")?;
        out_arg(out_ndim, "out_ndim")?;
        out_arg(out_itemsize, "out_itemsize")?;
        out_arg(out_dtype, "out_dtype")?;
        out_arg(out_buffer, "out_buffer")?;
        if object.is_null() {
            return Err(Failure::Null("object"));
        }
        // SAFETY: per this function's contract.
        let api = unsafe { table_of_major(api)? };
        let from_object = api
            .managed_tensor_from_py_object_no_sync
            .ok_or(Failure::Null("api->managed_tensor_from_py_object_no_sync"))?;
        // SAFETY: per this function's contract (the producer's function, its own arguments).
        let rc = unsafe { from_object(object, &mut tensor) };
        if rc != 0 || tensor.is_null() {
            // Not ours to delete: a failed producer made none (returned before use below).
            return Err(Failure::Producer { function: "managed_tensor_from_py_object_no_sync", rc });
        }
        Ok(())
    });
    if status != MVS_OK {
        return status;
    }
    // SAFETY: `tensor` is the producer's new tensor, ours to import or delete; the outputs are
    // per this function's contract.
    unsafe {
        let dtype = (*tensor).dl_tensor.dtype;
        let status = mvs_dlpack_import(tensor, out_view, out_ndim, out_itemsize, out_buffer);
        if status == MVS_OK {
            write_out(out_dtype, dtype);
        } else if let Some(deleter) = (*tensor).deleter {
            deleter(tensor);
        }
        status
    }
}

/// The table of `api`'s chain whose major version is the library's.
///
/// # Safety
/// `api` is NULL or points to a readable table whose `prev_api` chain is readable.
unsafe fn table_of_major<'a>(api: *const mvs_dlpack_exchange_api) -> Result<&'a mvs_dlpack_exchange_api, Failure> {
    // SAFETY: per this function's contract.
    let first = unsafe { api.as_ref() }.ok_or(Failure::Null("api"))?;
    let mut at: *const mvs_dlpack_exchange_api_header = &first.header;
    for _ in 0..MAX_CHAIN {
        // SAFETY: per this function's contract; every table starts with its header.
        match unsafe { at.as_ref() } {
            Some(header) if header.version.major == dlpack::MAJOR => {
                // SAFETY: as above: the header is the first field of its table.
                return Ok(unsafe { &*at.cast::<mvs_dlpack_exchange_api>() });
            }
            Some(header) => at = header.prev_api,
            None => break,
        }
    }
    let version = first.header.version;
    Err(dlpack::Error::Version { major: version.major, minor: version.minor }.into())
}
