//! Exported DLPack interchange: views of buffers handed out as DLPack 1.1 managed tensors
//! (`mvs_dlpack_export`, and the legacy unversioned form), and DLPack tensors taken in as a
//! view plus an `mvs_buffer` that owns the tensor (`mvs_dlpack_import`, and the legacy form).
//! The arithmetic (item types, strides, validation) is `crate::dlpack`'s; this file reads and
//! writes the structs and owns the export's memory.
//!
//! The DLPack structs are declared here, with `mvs_dl_` names, layout-identical to `dlpack.h`
//! 1.1 (`DLPackVersion`, `DLDevice`, `DLDataType`, `DLTensor`, `DLManagedTensor`,
//! `DLManagedTensorVersioned`), rather than by shipping or including `dlpack.h`: the header
//! then stays self-contained (it compiles alone and names only `mvs_`/`MVS_` things), and it
//! never clashes with the `dlpack.h` a program already includes, of whatever version (the
//! include guard of two copies would let one silently win). A program that uses `dlpack.h`
//! passes its `DLManagedTensorVersioned *` with a cast; the layout is asserted here, in the
//! header, and against DLPack 1.1's sizes and offsets by `c_tests/test_dlpack.c`, and NumPy
//! (built against `dlpack.h`) exchanges tensors with it in `tests/test_dlpack.py`. Enum-typed fields of
//! `dlpack.h` (`DLDeviceType`, the type code) are plain integers here, as every enum of this
//! library is.

use core::ffi::{c_char, c_int, c_void};
use core::mem::{offset_of, size_of};

use super::buffer::{buffer_arg, wrap};
use super::*;
use crate::dlpack;

/// The DLPack major version this library implements (DLPack's `DLPACK_MAJOR_VERSION`).
pub const MVS_DLPACK_MAJOR_VERSION: u32 = 1;
/// The DLPack minor version this library implements (DLPack's `DLPACK_MINOR_VERSION`).
pub const MVS_DLPACK_MINOR_VERSION: u32 = 1;
/// Flag of a versioned tensor (`DLPACK_FLAG_BITMASK_READ_ONLY`): its memory must not be written.
pub const MVS_DLPACK_FLAG_READ_ONLY: u64 = 1 << 0;
/// Flag of a versioned tensor (`DLPACK_FLAG_BITMASK_IS_COPIED`): its memory is a copy made for
/// the consumer, which may write it freely.
pub const MVS_DLPACK_FLAG_IS_COPIED: u64 = 1 << 1;
/// Flag of a versioned tensor (`DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED`): sub-byte items
/// are padded to a byte each. The library views no sub-byte type, so it never sets it.
pub const MVS_DLPACK_FLAG_IS_SUBBYTE_TYPE_PADDED: u64 = 1 << 2;
/// Device type `kDLCPU`: the only device whose tensors the library imports or exports.
pub const MVS_DL_CPU: i32 = 1;
/// Type code `kDLInt`: signed integers.
pub const MVS_DL_INT: c_int = 0;
/// Type code `kDLUInt`: unsigned integers.
pub const MVS_DL_UINT: c_int = 1;
/// Type code `kDLFloat`: IEEE floating point.
pub const MVS_DL_FLOAT: c_int = 2;
/// Type code `kDLOpaqueHandle`: opaque handles (pointer-sized items).
pub const MVS_DL_OPAQUE_HANDLE: c_int = 3;
/// Type code `kDLBfloat`: bfloat16 (16 bits only).
pub const MVS_DL_BFLOAT: c_int = 4;
/// Type code `kDLComplex`: complex numbers, `bits` for both parts together.
pub const MVS_DL_COMPLEX: c_int = 5;
/// Type code `kDLBool`: booleans (8 bits only).
pub const MVS_DL_BOOL: c_int = 6;

/// `DLPackVersion`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_dl_version {
    pub major: u32,
    pub minor: u32,
}

/// `DLDevice`: `device_type` is `DLDeviceType` (`MVS_DL_CPU` is `kDLCPU`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_dl_device {
    pub device_type: i32,
    pub device_id: i32,
}

/// `DLDataType`: a type code (`MVS_DL_INT` ...), the bits of one item, and the lanes of a
/// vector type (1 for scalars; the library takes scalars only).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_dl_data_type {
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
}

/// `DLTensor`: the data address, device, number of dimensions, item type, `ndim` extents,
/// `ndim` strides in items (NULL for compact row-major), and the byte offset of the first item
/// from `data`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_dl_tensor {
    pub data: *mut c_void,
    pub device: mvs_dl_device,
    pub ndim: i32,
    pub dtype: mvs_dl_data_type,
    pub shape: *mut i64,
    pub strides: *mut i64,
    pub byte_offset: u64,
}

/// The deleter of a legacy `DLManagedTensor`: called once by the consumer when done.
pub type mvs_dl_deleter_fn = Option<unsafe extern "C" fn(tensor: *mut mvs_dl_managed_tensor)>;

/// `DLManagedTensor` (DLPack before 1.0, "legacy"): a tensor, its producer's context, and the
/// deleter that the consumer calls exactly once when done (NULL: nothing to call).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_dl_managed_tensor {
    pub dl_tensor: mvs_dl_tensor,
    pub manager_ctx: *mut c_void,
    pub deleter: mvs_dl_deleter_fn,
}

/// The deleter of a `DLManagedTensorVersioned`: called once by the consumer when done.
pub type mvs_dl_versioned_deleter_fn = Option<unsafe extern "C" fn(tensor: *mut mvs_dl_managed_tensor_versioned)>;

/// `DLManagedTensorVersioned` (DLPack 1.x): the version, the producer's context, the deleter
/// that the consumer calls exactly once when done (NULL: nothing to call), flags
/// (`MVS_DLPACK_FLAG_*`), and the tensor.
///
/// The DLPack structs are declared in this header, with `mvs_dl_` names, rather than by
/// including `dlpack.h`: the header stays self-contained, and never clashes with the
/// `dlpack.h` a program includes, of whatever version. Their layout is `dlpack.h` 1.1's
/// (asserted at the end of this header): a `DLManagedTensorVersioned *` converts to an
/// `mvs_dl_managed_tensor_versioned *` with a cast, and back.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_dl_managed_tensor_versioned {
    pub version: mvs_dl_version,
    pub manager_ctx: *mut c_void,
    pub deleter: mvs_dl_versioned_deleter_fn,
    pub flags: u64,
    pub dl_tensor: mvs_dl_tensor,
}

// The constants are written out for cbindgen; they are the core's.
const _: () = {
    assert!(MVS_DLPACK_MAJOR_VERSION == dlpack::MAJOR && MVS_DLPACK_MINOR_VERSION == dlpack::MINOR);
    assert!(MVS_DLPACK_FLAG_READ_ONLY == dlpack::FLAG_READ_ONLY);
    assert!(MVS_DLPACK_FLAG_IS_COPIED == dlpack::FLAG_IS_COPIED);
    assert!(MVS_DLPACK_FLAG_IS_SUBBYTE_TYPE_PADDED == dlpack::FLAG_IS_SUBBYTE_TYPE_PADDED);
    assert!(MVS_DL_CPU == dlpack::DEVICE_CPU);
    assert!(MVS_DL_BFLOAT == dlpack::CODE_BFLOAT as c_int && MVS_DL_BOOL == dlpack::CODE_BOOL as c_int);
};

// dlpack.h's layout (the header asserts it too).
const P: usize = size_of::<*mut c_void>();
const _: () = {
    assert!(offset_of!(mvs_dl_tensor, device) == P);
    assert!(offset_of!(mvs_dl_tensor, ndim) == P + 8);
    assert!(offset_of!(mvs_dl_tensor, dtype) == P + 12);
    assert!(offset_of!(mvs_dl_tensor, shape) == P + 16);
    assert!(offset_of!(mvs_dl_tensor, strides) == 2 * P + 16);
    assert!(offset_of!(mvs_dl_managed_tensor, manager_ctx) == size_of::<mvs_dl_tensor>());
    assert!(offset_of!(mvs_dl_managed_tensor_versioned, manager_ctx) == 8);
    assert!(offset_of!(mvs_dl_managed_tensor_versioned, deleter) == 8 + P);
    assert!(offset_of!(mvs_dl_managed_tensor_versioned, flags) == 8 + 2 * P);
    assert!(offset_of!(mvs_dl_managed_tensor_versioned, dl_tensor) == 16 + 2 * P);
};

/// What differs between the two managed tensors.
trait Managed: Sized {
    /// A tensor made by an export: `dl_tensor`, the export's deleter, `flags` (versioned only).
    fn exported(dl_tensor: mvs_dl_tensor, flags: u64) -> Self;
    fn dl_tensor(&self) -> &mvs_dl_tensor;
    fn dl_tensor_mut(&mut self) -> &mut mvs_dl_tensor;
    /// Checks what an importer checks of the tensor beyond `dl_tensor`; whether it is read-only.
    fn check(&self) -> Result<bool, dlpack::Error>;
    /// Refuses the export flags this form cannot carry (legacy: any, read-only among them).
    fn check_export(flags: u64) -> Result<(), dlpack::Error>;
    /// The tensor's deleter.
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)>;
    /// Calls the tensor's deleter, if any (the deallocation callback of an imported tensor's
    /// buffer).
    ///
    /// # Safety
    /// `tensor` is the tensor given to the import, live until its deleter has run.
    unsafe fn delete(tensor: *mut Self) {
        // SAFETY: per this function's contract the tensor is live; its producer promised that
        // the deleter may be called once, which the buffer's callback guarantees.
        unsafe {
            if let Some(deleter) = (*tensor).deleter() {
                deleter(tensor);
            }
        }
    }
}

impl Managed for mvs_dl_managed_tensor_versioned {
    fn exported(dl_tensor: mvs_dl_tensor, flags: u64) -> Self {
        mvs_dl_managed_tensor_versioned {
            version: mvs_dl_version { major: dlpack::MAJOR, minor: dlpack::MINOR },
            manager_ctx: core::ptr::null_mut(),
            deleter: Some(delete_export::<Self>),
            flags,
            dl_tensor,
        }
    }
    fn dl_tensor(&self) -> &mvs_dl_tensor {
        &self.dl_tensor
    }
    fn dl_tensor_mut(&mut self) -> &mut mvs_dl_tensor {
        &mut self.dl_tensor
    }
    fn check(&self) -> Result<bool, dlpack::Error> {
        dlpack::check_version(self.version.major, self.version.minor)?;
        Ok(self.flags & dlpack::FLAG_READ_ONLY != 0)
    }
    fn check_export(_: u64) -> Result<(), dlpack::Error> {
        Ok(())
    }
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)> {
        self.deleter
    }
}

impl Managed for mvs_dl_managed_tensor {
    fn exported(dl_tensor: mvs_dl_tensor, _: u64) -> Self {
        mvs_dl_managed_tensor { dl_tensor, manager_ctx: core::ptr::null_mut(), deleter: Some(delete_export::<Self>) }
    }
    fn dl_tensor(&self) -> &mvs_dl_tensor {
        &self.dl_tensor
    }
    fn dl_tensor_mut(&mut self) -> &mut mvs_dl_tensor {
        &mut self.dl_tensor
    }
    fn check(&self) -> Result<bool, dlpack::Error> {
        Ok(false)
    }
    fn check_export(flags: u64) -> Result<(), dlpack::Error> {
        if flags & dlpack::FLAG_READ_ONLY != 0 {
            return Err(dlpack::Error::LegacyReadOnly);
        }
        Ok(())
    }
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)> {
        self.deleter
    }
}

/// An exported tensor and what it holds, one allocation: the tensor first (its address is the
/// block's), its buffer reference, and the extents and strides its `dl_tensor` points to.
#[repr(C)]
struct Export<T> {
    tensor: T,
    buffer: *mut mvs_buffer,
    shape: [i64; MVS_MAX_DIMS],
    strides: [i64; MVS_MAX_DIMS],
}

/// The deleter of exported tensors: frees the block and releases the buffer reference it held.
unsafe extern "C" fn delete_export<T>(tensor: *mut T) {
    let _ = run(|| {
        if tensor.is_null() {
            return Ok(());
        }
        let block = tensor.cast::<Export<T>>();
        // SAFETY: the consumer calls the deleter once, with the tensor an export made, which
        // is the start of its block (made by `try_box`, freed here only).
        unsafe {
            let buffer = (*block).buffer;
            free_box(block);
            mvs_buffer_release(buffer);
        }
        Ok(())
    });
}

/// The deallocation callback of an imported tensor's buffer: the tensor's deleter, once.
unsafe extern "C" fn delete_imported<T: Managed>(_data: *mut c_void, ctx: *mut c_void) {
    // SAFETY: `ctx` is the tensor given to the import (see `import`), and the buffer calls
    // this once, at its last release.
    unsafe { T::delete(ctx.cast::<T>()) }
}

/// Exports the view at `src` (`ndim` dimensions, direct) of the memory of `buffer` as a new
/// DLPack 1.1 managed tensor of CPU memory, without copying, holding one new reference to
/// `buffer`. The consumer calls the tensor's `deleter` exactly once when done with it: that
/// frees the tensor (one allocation holding it, its shape and its strides) and releases the
/// buffer reference, so the memory lives until both the caller's references and the tensor
/// are gone. To export memory the caller keeps, wrap it first (`mvs_buffer_wrap` with no
/// deallocation callback, or with one that tells the caller the last user is gone).
///
/// The tensor: `version` is {`MVS_DLPACK_MAJOR_VERSION`, `MVS_DLPACK_MINOR_VERSION`}; `data`
/// is the view's data address and `byte_offset` 0; `device` {`MVS_DL_CPU`, 0}; `dtype`
/// {`code`, `bits`, 1 lane}; `shape` and `strides` (in items, never NULL) the view's, each
/// stride its byte stride divided by the item size; `flags` the given ones, plus
/// `MVS_DLPACK_FLAG_READ_ONLY` when the buffer is read-only; `manager_ctx` NULL.
///
/// - `buffer`: the buffer whose memory the view addresses (every byte it can address lies in
///   the buffer's memory; the view's `memview` is not read).
/// - `src`, `ndim`: the view, 0..=8 dimensions, every suboffset negative (direct).
/// - `code`, `bits`: the item type, a DLPack type code (`MVS_DL_INT` ...) and a width in bits
///   that is a positive multiple of 8 (8 for `MVS_DL_BOOL` and the float8 codes 7..14, 16 for
///   `MVS_DL_BFLOAT`); the item size is `bits / 8` bytes.
/// - `flags`: 0, or `MVS_DLPACK_FLAG_READ_ONLY` and `MVS_DLPACK_FLAG_IS_COPIED`.
/// - `out`: receives the tensor.
///
/// Errors: `MVS_ERR_NULL` (`buffer`, `src` or `out` is NULL), the common ones of the view,
/// `MVS_ERR_DTYPE` (`code` unknown or outside 0..=255, `bits` not as above),
/// `MVS_ERR_INDIRECT` (an indirect axis), `MVS_ERR_BOUNDS` (the view addresses bytes outside
/// the buffer's memory), `MVS_ERR_VALUE` (a byte stride is not a multiple of the item size,
/// along an axis of extent > 1 of a view with items; unknown bits in `flags`),
/// `MVS_ERR_OVERFLOW` (the buffer's reference count is at its limit), `MVS_ERR_ALLOC`. On
/// failure nothing is allocated and the reference count is unchanged. Thread-safe; the deleter
/// may run on any thread.
///
/// # Safety
/// `buffer` is NULL or a live buffer on which the caller holds a reference; `src` is NULL or
/// points to a readable `mvs_slice`; `out` is NULL or points to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn mvs_dlpack_export(
    buffer: *mut mvs_buffer,
    src: *const mvs_slice,
    ndim: c_int,
    code: c_int,
    bits: c_int,
    flags: u64,
    out: *mut *mut mvs_dl_managed_tensor_versioned,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { export(buffer, src, ndim, code, bits, flags, out) }
}

/// `mvs_dlpack_export` in the legacy unversioned form (`DLManagedTensor`, DLPack before 1.0),
/// for consumers that know no other: the same tensor without version and flags. A read-only
/// buffer is refused, since the form cannot say it is read-only.
///
/// Errors: those of `mvs_dlpack_export` (but for `flags`), and `MVS_ERR_VALUE` (the buffer is
/// read-only). Thread-safe.
///
/// # Safety
/// As for `mvs_dlpack_export`.
#[no_mangle]
pub unsafe extern "C" fn mvs_dlpack_export_legacy(
    buffer: *mut mvs_buffer,
    src: *const mvs_slice,
    ndim: c_int,
    code: c_int,
    bits: c_int,
    out: *mut *mut mvs_dl_managed_tensor,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { export(buffer, src, ndim, code, bits, 0, out) }
}

/// The body of both exports.
///
/// # Safety
/// As for `mvs_dlpack_export`.
unsafe fn export<T: Managed>(
    buffer: *mut mvs_buffer,
    src: *const mvs_slice,
    ndim: c_int,
    code: c_int,
    bits: c_int,
    flags: u64,
    out: *mut *mut T,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let b = unsafe { buffer_arg(buffer)? };
        // SAFETY: per this function's contract.
        let (parts, _) = unsafe { parts_arg(src, ndim)? };
        let itemsize = dlpack::itemsize(code.into(), bits.into(), 1)?;
        dlpack::check_export_flags(flags)?;
        let flags = flags | if b.readonly() { dlpack::FLAG_READ_ONLY } else { 0 };
        T::check_export(flags)?;
        let view = parts.view();
        let offset = view.data().0 as usize as i128 - b.data() as usize as i128;
        let (shape, strides) = dlpack::export(&view, itemsize, offset, b.nbytes())?;
        let dl_tensor = mvs_dl_tensor {
            data: view.data().0.cast(),
            device: mvs_dl_device { device_type: dlpack::DEVICE_CPU, device_id: 0 },
            ndim,
            // In range: `itemsize` checked them.
            dtype: mvs_dl_data_type { code: code as u8, bits: bits as u8, lanes: 1 },
            shape: core::ptr::null_mut(),
            strides: core::ptr::null_mut(),
            byte_offset: 0,
        };
        b.retain()?;
        let block = match try_box(Export { tensor: T::exported(dl_tensor, flags), buffer, shape, strides }) {
            Ok(block) => block,
            Err(e) => {
                // SAFETY: the reference just taken.
                unsafe { mvs_buffer_release(buffer) };
                return Err(e);
            }
        };
        // SAFETY: `block` is this thread's until written out; the arrays live in it, as long
        // as the tensor.
        unsafe {
            let t = (*block).tensor.dl_tensor_mut();
            t.shape = core::ptr::addr_of_mut!((*block).shape).cast();
            t.strides = core::ptr::addr_of_mut!((*block).strides).cast();
            // SAFETY: `out` is non-NULL and writable per this function's contract.
            write_out(out, block.cast::<T>());
        }
        Ok(())
    })
}

/// Takes in a DLPack 1.x managed tensor of CPU memory as a view of `*out_ndim` dimensions and
/// items of `*out_itemsize` bytes (`bits / 8`), without copying, and a new buffer that owns the
/// tensor: the buffer's memory is the bytes the view addresses, read-only when the tensor has
/// `MVS_DLPACK_FLAG_READ_ONLY`, and at the buffer's last release the tensor's deleter is
/// called exactly once (with the tensor; not at all when it is NULL), on the releasing thread.
///
/// Ownership: on success the tensor belongs to the buffer (`*out_buffer`, one reference owned
/// by the caller; release it with `mvs_buffer_release`): never call its deleter yourself. On
/// FAILURE NOTHING CHANGES HANDS: the deleter is not called, the tensor is still the caller's,
/// who must call its deleter (as a Python consumer leaves a capsule unconsumed on failure).
///
/// The view: its `data` is the tensor's `data` plus `byte_offset`; its shape the tensor's; its
/// strides the tensor's strides times the item size (compact row-major, zero extents counting
/// as 1, when the tensor's strides are NULL); its `memview` the buffer (borrowed, as from
/// `mvs_buffer_view`: never hand it to Cython as a typed memoryview); entries past `ndim` as
/// every function writes them. The buffer's data starts at the lowest byte the view addresses
/// (the view's data for a tensor with no item). Views of it are valid while the buffer lives.
///
/// - `tensor`: the tensor; only read here, its fields must not change until its deleter runs.
/// - `out_view`, `out_ndim`, `out_itemsize`, `out_buffer`: receive the view, its number of
///   dimensions, its item size, and the buffer.
///
/// Errors (each leaves the tensor the caller's): `MVS_ERR_NULL` (an argument is NULL; the
/// tensor's `shape` is NULL and `ndim` > 0; its `data` is NULL and it has items),
/// `MVS_ERR_VERSION` (a major version other than `MVS_DLPACK_MAJOR_VERSION`; any minor version
/// is taken), `MVS_ERR_DEVICE` (a device other than `MVS_DL_CPU`), `MVS_ERR_DTYPE` (an unknown
/// type code, a width that is not a positive multiple of 8 or not the code's, lanes != 1),
/// `MVS_ERR_NDIM` (`ndim` outside 0..=8), `MVS_ERR_SHAPE` (a negative extent),
/// `MVS_ERR_OVERFLOW` (a stride in bytes, the view's span or its bytes, or an address reached
/// through `byte_offset` does not fit), `MVS_ERR_ALLOC` (no memory for the buffer's header). Checked
/// in this order: the arguments, the version, the device, the item type, `ndim`, the shape
/// pointer, the extents, the data pointer, the byte offset, the strides and the span. Flags
/// other than read-only are ignored. Thread-safe.
///
/// # Safety
/// `tensor` is NULL or points to a readable tensor whose `shape` (and `strides`, unless NULL)
/// point to `ndim` readable entries, whose memory is valid (and, unless read-only, writable)
/// for every byte the view addresses until its deleter is called, and whose deleter may be
/// called once from any thread; the outputs are NULL or point to writable objects.
#[no_mangle]
pub unsafe extern "C" fn mvs_dlpack_import(
    tensor: *mut mvs_dl_managed_tensor_versioned,
    out_view: *mut mvs_slice,
    out_ndim: *mut c_int,
    out_itemsize: *mut isize,
    out_buffer: *mut *mut mvs_buffer,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { import(tensor, out_view, out_ndim, out_itemsize, out_buffer) }
}

/// `mvs_dlpack_import` of a legacy unversioned tensor (`DLManagedTensor`, DLPack before 1.0):
/// it has no version to check and no flags, so its buffer is writable. The same ownership
/// rule: on success the buffer owns the tensor and calls its deleter exactly once at its last
/// release; on failure the tensor is still the caller's.
///
/// Errors: those of `mvs_dlpack_import` but `MVS_ERR_VERSION`. Thread-safe.
///
/// # Safety
/// As for `mvs_dlpack_import`.
#[no_mangle]
pub unsafe extern "C" fn mvs_dlpack_import_legacy(
    tensor: *mut mvs_dl_managed_tensor,
    out_view: *mut mvs_slice,
    out_ndim: *mut c_int,
    out_itemsize: *mut isize,
    out_buffer: *mut *mut mvs_buffer,
) -> mvs_status {
    // SAFETY: per this function's contract.
    unsafe { import(tensor, out_view, out_ndim, out_itemsize, out_buffer) }
}

/// The body of both imports.
///
/// # Safety
/// As for `mvs_dlpack_import`.
unsafe fn import<T: Managed>(
    tensor: *mut T,
    out_view: *mut mvs_slice,
    out_ndim: *mut c_int,
    out_itemsize: *mut isize,
    out_buffer: *mut *mut mvs_buffer,
) -> mvs_status {
    run(|| {
        let out_view = out_arg(out_view, "out_view")?;
        let out_ndim = out_arg(out_ndim, "out_ndim")?;
        let out_itemsize = out_arg(out_itemsize, "out_itemsize")?;
        let out_buffer = out_arg(out_buffer, "out_buffer")?;
        // SAFETY: per this function's contract, readable when not NULL.
        let managed = unsafe { tensor.as_ref() }.ok_or(Failure::Null("tensor"))?;
        let readonly = managed.check()?;
        let t = managed.dl_tensor();
        dlpack::check_device(t.device.device_type, t.device.device_id)?;
        let itemsize = dlpack::itemsize(t.dtype.code.into(), t.dtype.bits.into(), t.dtype.lanes)?;
        let n = dlpack::check_ndim(t.ndim)?;
        // SAFETY: per this function's contract, `ndim` entries when not NULL.
        let shape = unsafe { array_arg(t.shape, n, "tensor's shape")? };
        let strides = match t.strides.is_null() {
            true => None,
            // SAFETY: as above.
            false => Some(unsafe { array_arg(t.strides, n, "tensor's strides")? }),
        };
        let data = t.data.cast::<c_char>();
        let imported = match dlpack::import_usual(data as usize, shape, strides, itemsize, t.byte_offset) {
            Some(imported) => imported,
            None => dlpack::import(data as usize, shape, strides, itemsize, t.byte_offset)?,
        };
        // The addresses `import` computed, as offsets from `data` (wrapping: not dereferenced).
        let at = |address: usize| data.wrapping_add(address.wrapping_sub(data as usize));
        let buffer =
            wrap(at(imported.start).cast(), imported.nbytes, Some(delete_imported::<T>), tensor.cast(), readonly)?;
        let v = &imported.view;
        let view = mvs_slice {
            memview: buffer.cast(),
            data: at(v.data()),
            shape: *v.shape(),
            strides: *v.strides(),
            suboffsets: *v.suboffsets(),
        };
        // SAFETY: the outputs are non-NULL and writable per this function's contract.
        unsafe {
            write_out(out_view, view);
            write_out(out_ndim, n as c_int);
            write_out(out_itemsize, itemsize);
            write_out(out_buffer, buffer);
        }
        Ok(())
    })
}
