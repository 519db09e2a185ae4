//! The C API. Exported functions only convert pointers, check arguments and map errors; the
//! arithmetic is in `view`, `memory` and `copy`. Every raw-pointer
//! access of the view functions is in this file; the owned objects keep theirs (allocation and
//! freeing; the counting is `memory::Ownership`'s and `memory::FreeList`'s) in `buffer.rs` and
//! `pool.rs`, next to the objects, using `try_box` and `free_box` here, and the copies theirs
//! in `copy.rs` (the kernels' `Memory`).
//!
//! NULL policy: a NULL pointer where a value is required is `MVS_ERR_NULL`; an array argument
//! of length 0 may be NULL.
//!
//! # Adding an exported function, end to end
//!
//! 1. The core: the operation in safe Rust, in the file of its family (`src/view/` for views,
//!    `src/memory/` for owned memory, `src/copy/` for data movement), returning its own error
//!    type; a new kind of refusal is a new `view::Error` variant with its message and `Kind`,
//!    which `Failure::status` maps to a status code. Unit tests beside it (`src/view/tests/`).
//! 2. The C entry point, `#[no_mangle] pub unsafe extern "C" fn mvs_...`, in the file of its
//!    family here (`construct.rs`, `derive.rs`, `query.rs`, `copy.rs`, `buffer.rs`, `pool.rs`),
//!    built on one of these bodies, by what it returns:
//!    - a view from a view: `derivation!`, always (a `Parts` method as its closure; it compiles
//!      the usual path per number of dimensions and keeps the checked one out of line);
//!    - a view whose number of dimensions the caller may not know: `derive_ndim`;
//!    - several views: `split`;
//!    - a value about a view: `query` (`query.rs`);
//!    - anything else: `run` around the body, with `out_arg`, `array_arg` and
//!      `write_out` for the pointers (outputs written only on success).
//!
//!    Its doc comment is the header's entry (cbindgen copies it): parameters, every error it
//!    returns, what it allocates, `# Safety`. `make lib` regenerates `include/memviewslice.h`;
//!    commit it (`make check-header`).
//! 3. Its declaration in `python/memviewslice/__init__.pxd` (`make check-decls` compares it
//!    with the header).
//! 4. For a view derivation or a data-movement function, its entry in the table of operations,
//!    `tools/ops.py`: the build generates its typed Cython helpers (every dtype, every number
//!    of dimensions, const forms) and their C macros from it, the Cython helpers' test calls
//!    them (`tests/cython/test_ops.py` needs the NumPy expression of the operation, in `case`),
//!    and `make icount` measures the cases the entry names. `make check-decls` fails until
//!    the entry is there and names the header's parameters.
//! 5. Tests: a C test in `c_tests/` (every error, NULL arguments, outputs untouched on
//!    failure; it runs under ASan/UBSan, and valgrind if it owns memory), a NumPy oracle case
//!    in `tests/numpy_oracle.py` (an `op_...` method) or a differential test of its own, and a
//!    call in the fuzz target `fuzz/fuzz_api.c`. A hot derivation also gets its case in
//!    `benches/icount.c` (named in its table entry; then `make icount-baseline`).

#![allow(non_camel_case_types)]

/// The body of an exported derivation `fn mvs_...($src, $ndim, ..., $out)`: `$op` (a closure
/// from the source's [`Parts`] to a [`Derived`] result or a failure) of the view at `$src`, of
/// `$ndim` dimensions, written to `$out`. `[$args]` are the exported function's parameters
/// between `$ndim` and `$out`, all of them, in order, with their types (cbindgen reads the
/// function itself, so they are restated here). Two paths:
///
/// - the usual one, a function for each number of dimensions up to 4 (the common ones), and
///   for each number `$m` of the result's dimensions up to 4 when given (`$m` names one of
///   `$args`), reached through a table with the caller's arguments still in place, for the
///   sources that [`Parts::new`] finds usual (see [`derive_usual`]). `$op` is compiled for
///   those numbers: every suboffset and overflow case folds away, walks over the axes are
///   unrolled, the entries past them are known to be 0, and the result is built in registers
///   and written once, constants stored directly. With `quick |s| $quick`, the usual path
///   runs `$quick` instead, which checks the source itself (see [`derive_quick`]);
/// - the checked one, a function out of line, for every other source, and for any failure on
///   the usual path, which it reports ([`derive_from`]).
///
/// With `$m`, the table is 8 by 8 (the checked path past 4 in either number), so that one
/// test of `$ndim | $m` bounds both: the path is reached in fewer instructions than through a
/// 5 by 5 table (measured: `make icount` guards it).
///
/// Compiled for each number of dimensions, a derivation takes fewer instructions than compiled
/// for any. Each of those copies is a function of its own: sharing one, every path saved the
/// registers of the largest. The checked path is in the table too, so that the exported
/// function has no frame and makes no call. Each choice measured faster; `make icount` guards
/// them.
macro_rules! derivation {
    ($src:ident, $ndim:ident, $args:tt, $out:ident => |$p:ident| $op:expr) => {
        derivation!(@paths $src, $ndim, $out, []; $args => |$p| $op;
            [usual::<0, 0>, usual::<1, 0>, usual::<2, 0>, usual::<3, 0>, usual::<4, 0>];
            $ndim as usize;)
    };
    ($src:ident, $ndim:ident, $args:tt, $out:ident, $m:ident => |$p:ident| $op:expr
        $(; quick |$s:ident| $quick:expr)?) => {
        derivation!(@paths $src, $ndim, $out, [$m]; $args => |$p| $op;
            [usual::<0, 0>, usual::<0, 1>, usual::<0, 2>, usual::<0, 3>, usual::<0, 4>, checked, checked, checked,
             usual::<1, 0>, usual::<1, 1>, usual::<1, 2>, usual::<1, 3>, usual::<1, 4>, checked, checked, checked,
             usual::<2, 0>, usual::<2, 1>, usual::<2, 2>, usual::<2, 3>, usual::<2, 4>, checked, checked, checked,
             usual::<3, 0>, usual::<3, 1>, usual::<3, 2>, usual::<3, 3>, usual::<3, 4>, checked, checked, checked,
             usual::<4, 0>, usual::<4, 1>, usual::<4, 2>, usual::<4, 3>, usual::<4, 4>, checked, checked, checked,
             checked, checked, checked, checked, checked, checked, checked, checked,
             checked, checked, checked, checked, checked, checked, checked, checked,
             checked, checked, checked, checked, checked, checked, checked, checked];
            if (($ndim | $m) as u32) < 8 { (($ndim & 7) * 8 + ($m & 7)) as usize } else { 64 };
            $(|$s| $quick)?)
    };
    (@paths $src:ident, $ndim:ident, $out:ident, [$($m:ident)?]; [$($arg:ident: $ty:ty),*] => |$p:ident| $op:expr;
        [$($path:expr),*]; $at:expr; $(|$s:ident| $quick:expr)?) => {{
        #[inline(never)]
        unsafe extern "C" fn usual<const N: c_int, const M: c_int>(
            $src: *const mvs_slice, $ndim: c_int, $($arg: $ty,)* $out: *mut mvs_slice) -> mvs_status {
            $(
                debug_assert_eq!($m, M);
                let $m: c_int = M;
            )?
            let usual = derivation!(@usual $src, $ndim, N, $out; |$p| $op; $(|$s| $quick)?);
            if catch_unwind(AssertUnwindSafe(usual)).unwrap_or(false) {
                MVS_OK
            } else {
                // SAFETY: the arguments of the exported function, per its contract.
                unsafe { checked($src, $ndim, $($arg,)* $out) }
            }
        }
        #[inline(never)]
        unsafe extern "C" fn checked(
            $src: *const mvs_slice, $ndim: c_int, $($arg: $ty,)* $out: *mut mvs_slice) -> mvs_status {
            let op = inline_op(#[inline(always)] move |$p: Parts<'_, RawPtr>| $op);
            // SAFETY: the arguments of the exported function, per its contract.
            unsafe { derive_from($src, $ndim, $out, op) }
        }
        // The checked path last, for every number out of the table's range: one jump, whose
        // target the caller's arguments reach unmoved.
        type Path = unsafe extern "C" fn(*const mvs_slice, c_int, $($ty,)* *mut mvs_slice) -> mvs_status;
        static PATHS: &[Path] = &[$($path,)* checked];
        // SAFETY: the arguments of the exported function, per its contract.
        unsafe { PATHS[usize::min($at, PATHS.len() - 1)]($src, $ndim, $($arg,)* $out) }
    }};
    (@usual $src:ident, $ndim:ident, $n:ident, $out:ident; |$p:ident| $op:expr;) => {{
        let op = inline_op(#[inline(always)] move |$p: Parts<'_, RawPtr, true>| $op);
        // SAFETY: the arguments of the exported function, per its contract.
        move || unsafe { derive_usual($src, $n, $out, op) }
    }};
    (@usual $src:ident, $ndim:ident, $n:ident, $out:ident; |$p:ident| $op:expr; |$s:ident| $quick:expr) => {{
        let op = inline_op(#[inline(always)] move |$s: &mvs_slice, $ndim: usize| $quick);
        // SAFETY: the arguments of the exported function, per its contract.
        move || unsafe { derive_quick($src, $n, $out, op) }
    }};
}

mod buffer;
mod construct;
mod copy;
mod derive;
mod dlpack;
mod exchange;
mod iter;
mod pool;
mod query;
mod status;
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod transpose;

use core::ffi::{c_char, c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::view::{self, Addr, Parts, View, WithAxis};

pub use buffer::*;
pub use construct::*;
pub use copy::*;
pub use derive::*;
pub use dlpack::*;
pub use exchange::*;
pub use iter::*;
pub use pool::*;
pub use query::*;
pub use status::*;
use status::{record, Failure};

/// Most dimensions an `mvs_slice` can describe (as in Cython).
pub const MVS_MAX_DIMS: usize = 8;
const _: () = assert!(MVS_MAX_DIMS == view::MAX_DIMS);

/// The bounds of a "usual" view, the case every fast path takes (the library's and
/// `mvs_inline.h`'s macros): defined, and documented, in the view core; cbindgen writes them to
/// the header from there.
pub use crate::view::{MVS_USUAL_EXTENT_LIMIT, MVS_USUAL_STRIDE_LIMIT};

/// "Not given" in slice bounds and steps (Python's `None`); `PTRDIFF_MIN`.
pub const MVS_NONE: isize = view::NONE;

/// A strided view, laid out byte for byte like Cython's `__Pyx_memviewslice`. It carries no
/// ndim and no itemsize: functions take them as arguments. Every function that writes an
/// `mvs_slice` writes all 8 entries of each array; entries past ndim are shape 0, stride 0,
/// suboffset -1.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mvs_slice {
    /// Opaque owner token: copied verbatim from source to result, never dereferenced.
    /// Constructors set it to NULL; `mvs_buffer_view` sets it to the buffer (borrowed, not a
    /// reference), pool views to NULL. Pure C callers may put their own token here; never give
    /// Cython a slice whose memview is not a Cython memoryview object or NULL.
    pub memview: *mut c_void,
    /// Address of the element at index [0, 0, ...].
    pub data: *mut c_char,
    /// Extent of each dimension.
    pub shape: [isize; MVS_MAX_DIMS],
    /// Byte step of each dimension: any sign, 0 for broadcast dimensions.
    pub strides: [isize; MVS_MAX_DIMS],
    /// -1 for a direct dimension; >= 0 for a PEP 3118 indirect one (the element pointer is
    /// read at the position reached so far, then the suboffset added). Any negative value is
    /// read as direct, as PEP 3118 says; results store every direct dimension as -1.
    pub suboffsets: [isize; MVS_MAX_DIMS],
}

impl Default for mvs_slice {
    /// A slice of no dimensions at NULL, with every entry as past `ndim`: shape 0, stride 0,
    /// suboffset -1 (for Rust callers that need an output to write into).
    fn default() -> Self {
        mvs_slice {
            memview: core::ptr::null_mut(),
            data: core::ptr::null_mut(),
            shape: [0; MVS_MAX_DIMS],
            strides: [0; MVS_MAX_DIMS],
            suboffsets: [-1; MVS_MAX_DIMS],
        }
    }
}

const _: () = {
    assert!(
        core::mem::size_of::<mvs_slice>() == 2 * core::mem::size_of::<usize>() + 24 * core::mem::size_of::<isize>()
    );
    assert!(core::mem::offset_of!(mvs_slice, memview) == 0);
    assert!(core::mem::offset_of!(mvs_slice, data) == core::mem::size_of::<usize>());
    assert!(core::mem::offset_of!(mvs_slice, shape) == 2 * core::mem::size_of::<usize>());
    assert!(
        core::mem::offset_of!(mvs_slice, strides)
            == 2 * core::mem::size_of::<usize>() + 8 * core::mem::size_of::<isize>()
    );
    assert!(
        core::mem::offset_of!(mvs_slice, suboffsets)
            == 2 * core::mem::size_of::<usize>() + 16 * core::mem::size_of::<isize>()
    );
};

/// A data address as the view arithmetic sees it. Offsetting wraps and never dereferences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RawPtr(*mut c_char);

impl Addr for RawPtr {
    fn byte_offset(self, bytes: isize) -> Self {
        RawPtr(self.0.wrapping_offset(bytes))
    }
    fn position(self) -> usize {
        self.0 as usize
    }
}

/// Follows an indirect dimension: reads the pointer stored at `p`.
///
/// Only the functions whose `# Safety` section requires indirect dimensions to point at valid
/// pointers pass this to the view arithmetic.
fn load_pointer(p: RawPtr) -> RawPtr {
    // SAFETY: those functions' callers guarantee that wherever an indirect dimension is
    // reached, the address holds a readable pointer (PEP 3118); it may be unaligned.
    RawPtr(unsafe { p.0.cast::<*mut c_char>().read_unaligned() })
}

/// The calling thread's identity for the per-thread caches (`memory::FreeList`, `memory::blocks`): on
/// Linux on x86-64 and AArch64, its thread pointer, which is unique among live threads and
/// one instruction to read; elsewhere the address of a thread-local.
#[inline(always)]
fn thread_id() -> usize {
    #[cfg(all(target_os = "linux", target_arch = "x86_64", not(miri)))]
    {
        let tp: usize;
        // SAFETY: on x86-64 Linux, `fs:0` holds the thread control block's address (its own
        // pointer, set by the C library for every thread); reading it has no side effect.
        unsafe { core::arch::asm!("mov {}, fs:0", out(reg) tp, options(nostack, readonly, preserves_flags, pure)) };
        tp
    }
    #[cfg(all(target_os = "linux", target_arch = "aarch64", not(miri)))]
    {
        let tp: usize;
        // SAFETY: `tpidr_el0` holds the thread pointer, set by the C library for every thread;
        // reading it has no side effect.
        unsafe { core::arch::asm!("mrs {}, tpidr_el0", out(reg) tp, options(nostack, nomem, preserves_flags, pure)) };
        tp
    }
    #[cfg(not(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64"), not(miri))))]
    {
        crate::memory::this_thread()
    }
}

/// Runs the body of an exported function: a failure or a panic becomes a status code and this
/// thread's last error message. Inlined so that the body's captured arguments stay in registers
/// instead of going through the stack (measured: `make icount` guards it).
#[inline(always)]
fn run(body: impl FnOnce() -> Result<(), Failure>) -> mvs_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => MVS_OK,
        Ok(Err(failure)) => record(&failure),
        Err(payload) => record(&Failure::Panic(panic_message(payload.as_ref()))),
    }
}

/// The message a panic was raised with (`panic!`'s and `assert!`'s are strings).
fn panic_message(payload: &(dyn core::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(s), _) => (*s).to_owned(),
        (_, Some(s)) => s.clone(),
        _ => "no message".to_owned(),
    }
}

/// Moves `value` to a new heap allocation, like `Box::into_raw(Box::new(value))` but reporting
/// an allocation failure as `MVS_ERR_ALLOC` instead of aborting. Free it with [`free_box`].
fn try_box<T>(value: T) -> Result<*mut T, Failure> {
    let layout = std::alloc::Layout::new::<T>();
    assert!(layout.size() > 0, "no zero-sized objects");
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { std::alloc::alloc(layout) }.cast::<T>();
    if p.is_null() {
        return Err(crate::memory::Error::Alloc { nbytes: layout.size(), alignment: layout.align() }.into());
    }
    // SAFETY: `p` is a fresh allocation for a `T`.
    unsafe { p.write(value) };
    Ok(p)
}

/// Drops and frees an object made by [`try_box`].
///
/// # Safety
/// `p` came from [`try_box`] for this `T` and is not used again.
unsafe fn free_box<T>(p: *mut T) {
    // SAFETY: per this function's contract, `p` is a live `T` allocated with `Layout::new::<T>()`.
    unsafe {
        p.drop_in_place();
        std::alloc::dealloc(p.cast(), std::alloc::Layout::new::<T>());
    }
}

/// The `ndim` argument as a count in 0..=8.
fn ndim_arg(ndim: c_int) -> Result<usize, Failure> {
    Ok(view::check_ndim(ndim as isize)?)
}

/// The view at `src` with `ndim` dimensions, checked and borrowed in place, and its memview
/// token.
///
/// # Safety
/// `src` is NULL or points to a readable `mvs_slice`, unchanged while the result lives.
#[inline(always)]
unsafe fn parts_arg<'a>(src: *const mvs_slice, ndim: c_int) -> Result<(Parts<'a, RawPtr>, *mut c_void), Failure> {
    // SAFETY: per this function's contract, `src` is readable when not NULL.
    let s = unsafe { src.as_ref() }.ok_or(Failure::Null("src"))?;
    Ok((Parts::new(RawPtr(s.data), ndim as isize, &s.shape, &s.strides, &s.suboffsets)?, s.memview))
}

/// The array of `len` items at `ptr`; NULL is accepted when `len` is 0.
///
/// # Safety
/// `ptr` is NULL or points to `len` readable items that stay unchanged while the result lives.
unsafe fn array_arg<'a, T>(ptr: *const T, len: usize, name: &'static str) -> Result<&'a [T], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::Null(name));
    }
    // SAFETY: non-NULL, and per this function's contract points to `len` readable items.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// The contiguous view at `data` described by the `itemsize`, `ndim`, `shape` and `order`
/// arguments of a constructor.
///
/// # Safety
/// `shape` is NULL or points to `ndim` readable extents.
unsafe fn contiguous_arg(
    data: RawPtr,
    itemsize: isize,
    ndim: c_int,
    shape: *const isize,
    order: c_int,
) -> Result<View<RawPtr>, Failure> {
    let n = ndim_arg(ndim)?;
    // SAFETY: per this function's contract.
    let shape = unsafe { array_arg(shape, n, "shape")? };
    Ok(View::contiguous(data, itemsize, shape, view::Order::from_char(order)?)?)
}

/// A required output pointer, checked non-NULL before any work so that a NULL output is
/// reported as such.
fn out_arg<T>(ptr: *mut T, name: &'static str) -> Result<*mut T, Failure> {
    if ptr.is_null() {
        Err(Failure::Null(name))
    } else {
        Ok(ptr)
    }
}

/// The `mvs_slice` form of `v`, carrying `memview`.
#[inline(always)]
fn to_slice(v: &View<RawPtr>, memview: *mut c_void) -> mvs_slice {
    mvs_slice { memview, data: v.data().0, shape: *v.shape(), strides: *v.strides(), suboffsets: *v.suboffsets() }
}

/// Writes `value` to an output pointer obtained from [`out_arg`].
///
/// # Safety
/// `out` is non-NULL and points to writable memory for a `T`.
#[inline(always)]
unsafe fn write_out<T>(out: *mut T, value: T) {
    // SAFETY: per this function's contract. `write` does not read or drop the old value, so
    // uninitialized outputs are fine; all output types are `Copy`.
    unsafe { out.write(value) }
}

/// A derivation's result, as written to the caller's output.
trait Derived {
    /// Writes the result, carrying `memview`, to `out`.
    ///
    /// # Safety
    /// `out` is non-NULL and points to writable memory for an `mvs_slice`.
    unsafe fn write(&self, out: *mut mvs_slice, memview: *mut c_void);
}

impl Derived for View<RawPtr> {
    #[inline(always)]
    unsafe fn write(&self, out: *mut mvs_slice, memview: *mut c_void) {
        // SAFETY: per this function's contract.
        unsafe { write_out(out, to_slice(self, memview)) }
    }
}

impl Derived for WithAxis<RawPtr> {
    /// The view, then its axis, in place.
    #[inline(always)]
    unsafe fn write(&self, out: *mut mvs_slice, memview: *mut c_void) {
        // SAFETY: per this function's contract; `axis` is below `MVS_MAX_DIMS`.
        unsafe {
            self.view.write(out, memview);
            (*out).shape[self.axis] = self.len;
            (*out).strides[self.axis] = self.stride;
        }
    }
}

/// The body of every derivation (the checked path of [`derivation!`]): reads `src` in place,
/// gets the result from `op`, writes it (with `src`'s memview) to `out`, which may be `src`:
/// the source is not read once the result is complete.
///
/// This and the helpers it calls are `#[inline(always)]`, so that the result is built in
/// registers and written once (see [`Parts`]).
///
/// # Safety
/// `src` is NULL or points to a readable `mvs_slice`; `out` is NULL or points to a writable one.
#[inline(always)]
unsafe fn derive_from<R: Derived>(
    src: *const mvs_slice,
    ndim: c_int,
    out: *mut mvs_slice,
    op: impl FnOnce(Parts<'_, RawPtr>) -> Result<R, Failure>,
) -> mvs_status {
    run(|| {
        let out = out_arg(out, "out")?;
        // SAFETY: per this function's contract.
        let (parts, memview) = unsafe { parts_arg(src, ndim)? };
        let result = op(parts)?;
        // SAFETY: `out` is non-NULL and writable per this function's contract.
        unsafe { result.write(out, memview) };
        Ok(())
    })
}

/// `op` itself: a closure passed here can be marked `#[inline(always)]` (on stable Rust, a
/// closure can carry attributes as an argument, not as the value of a `let`).
#[inline(always)]
fn inline_op<F>(op: F) -> F {
    op
}

/// The usual path of [`derivation!`]: [`derive_from`] for a source of `N` dimensions that
/// [`Parts::new`] finds usual (see [`Parts::usual`]). False, with `out` untouched, for any
/// other source and on any failure: the checked path then runs, and reports it.
///
/// # Safety
/// As for [`derive_from`].
#[inline(always)]
unsafe fn derive_usual<R: Derived>(
    src: *const mvs_slice,
    n: c_int,
    out: *mut mvs_slice,
    op: impl FnOnce(Parts<'_, RawPtr, true>) -> Result<R, Failure>,
) -> bool {
    // SAFETY: per this function's contract.
    let Ok((parts, memview)) = (unsafe { parts_arg(src, n) }) else { return false };
    let Some(usual) = parts.usual().filter(|_| !out.is_null()) else { return false };
    let Ok(result) = op(usual) else { return false };
    // SAFETY: `out` is non-NULL and writable per this function's contract.
    unsafe { result.write(out, memview) };
    true
}

/// The usual path of [`derivation!`] for operations that check their source themselves
/// ([`view::quick_subview`]): `op` gets the source as stored, with nothing checked, and its
/// number of dimensions (`n`, in `0..=4`), and gives the result and the caller's array that
/// holds its extents, or `None`. False, with `out` untouched, when `src` or `out` is NULL or
/// `op` gives `None`: the checked path then runs.
///
/// The result's extents are copied from the caller's array ([`write_extents_from`]), not held
/// in registers from the checks to the write: a 4-D subview then pushes fewer registers and
/// spills none, and measured faster (`make icount` guards it).
///
/// # Safety
/// As for [`derive_from`].
#[inline(always)]
unsafe fn derive_quick(
    src: *const mvs_slice,
    n: c_int,
    out: *mut mvs_slice,
    op: impl FnOnce(&mvs_slice, usize) -> Option<(View<RawPtr>, *const isize)>,
) -> bool {
    // SAFETY: per this function's contract, `src` is readable when not NULL.
    let Some(s) = (unsafe { src.as_ref() }) else { return false };
    if out.is_null() {
        return false;
    }
    let Some((result, extents)) = op(s, n as usize) else { return false };
    // SAFETY: `out` is non-NULL and writable per this function's contract; `extents` holds
    // the result's extents, per `op`'s; `s` is not read once the result is complete.
    unsafe { write_extents_from(&result, out, s.memview, extents) };
    true
}

/// [`Derived::write`] of `view`, whose extents are also the `view.ndim()` values at `extents`,
/// written since by nothing: those are copied from there, first, and the rest from `view`.
/// Copied first, they are right even when `extents` lies inside `out`.
///
/// # Safety
/// `out` is non-NULL and points to writable memory for an `mvs_slice`; `extents` points to
/// `view.ndim()` readable extents equal to `view`'s.
#[inline(always)]
unsafe fn write_extents_from(view: &View<RawPtr>, out: *mut mvs_slice, memview: *mut c_void, extents: *const isize) {
    let n = view.ndim();
    // SAFETY: per this function's contract; `copy` allows the two to overlap, and `extents` is
    // not read after it.
    unsafe {
        debug_assert_eq!(core::slice::from_raw_parts(extents, n), &view.shape()[..n]);
        core::ptr::copy(extents, core::ptr::addr_of_mut!((*out).shape).cast::<isize>(), n);
        let out = &mut *out;
        out.memview = memview;
        out.data = view.data().0;
        out.shape[n..].copy_from_slice(&view.shape()[n..]);
        out.strides = *view.strides();
        out.suboffsets = *view.suboffsets();
    }
}

/// [`derive_from`] for operations whose result's number of dimensions the caller may not
/// know: it is written to `out_ndim` (checked non-NULL before any work) on success. `op` builds
/// the result in the view it is given, from where it is written: returned, a view built at
/// variable indices (which lives in memory) is copied with a `memcpy` call.
///
/// # Safety
/// As for [`derive_from`]; `out_ndim` is NULL or points to a writable int.
#[inline(always)]
unsafe fn derive_ndim(
    src: *const mvs_slice,
    ndim: c_int,
    out: *mut mvs_slice,
    out_ndim: *mut c_int,
    op: impl FnOnce(Parts<'_, RawPtr>, &mut View<RawPtr>) -> Result<(), Failure>,
) -> mvs_status {
    let mut result = View::empty(RawPtr(core::ptr::null_mut()));
    // SAFETY: per this function's contract.
    unsafe {
        derive_from(src, ndim, out, |src| {
            let out_ndim = out_arg(out_ndim, "out_ndim")?;
            op(src, &mut result)?;
            Ok(WithNdim { view: &result, out_ndim })
        })
    }
}

/// A view and where to write its number of dimensions: the result of [`derive_ndim`].
struct WithNdim<'a> {
    view: &'a View<RawPtr>,
    out_ndim: *mut c_int,
}

impl Derived for WithNdim<'_> {
    #[inline(always)]
    unsafe fn write(&self, out: *mut mvs_slice, memview: *mut c_void) {
        // SAFETY: per this function's contract; `out_ndim` came from `out_arg`, and is
        // writable per `derive_ndim`'s contract.
        unsafe {
            self.view.write(out, memview);
            write_out(self.out_ndim, self.view.ndim() as c_int);
        }
    }
}

/// The body of a split: reads `src`, gets the pieces from `op`, and writes them, with `src`'s
/// memview, to the `nouts` slices at `outs`, which must match the number of pieces.
///
/// # Safety
/// `src` is NULL or points to a readable `mvs_slice`; `outs` is NULL or points to `nouts`
/// writable ones.
unsafe fn split<I>(
    src: *const mvs_slice,
    ndim: c_int,
    outs: *mut mvs_slice,
    nouts: isize,
    op: impl FnOnce(View<RawPtr>) -> Result<I, Failure>,
) -> mvs_status
where
    I: ExactSizeIterator<Item = view::Result<View<RawPtr>>> + Clone,
{
    run(|| {
        // A count whose array could not exist is refused before anything is read.
        if nouts > isize::MAX / core::mem::size_of::<mvs_slice>() as isize {
            return Err(view::Error::Count { what: "output count", count: nouts }.into());
        }
        // An array of length 0 may be NULL; the count check below then reports the mismatch.
        let outs = if nouts == 0 { outs } else { out_arg(outs, "outs")? };
        // SAFETY: per this function's contract.
        let (parts, memview) = unsafe { parts_arg(src, ndim)? };
        let pieces = op(parts.view())?;
        if nouts != pieces.len() as isize {
            return Err(view::Error::Count { what: "output count", count: nouts }.into());
        }
        // Every piece is checked before the first is written.
        for piece in pieces.clone() {
            piece?;
        }
        for (i, piece) in pieces.enumerate() {
            let piece = to_slice(&piece?, memview);
            // SAFETY: `i < nouts` and `outs` points to `nouts` writable slices.
            unsafe { write_out(outs.add(i), piece) };
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message of this thread's last failure.
    fn last_error() -> String {
        // SAFETY: the message is a NUL-terminated string of this thread.
        unsafe { core::ffi::CStr::from_ptr(mvs_last_error()) }.to_str().unwrap().to_owned()
    }

    #[test]
    fn a_panic_is_an_internal_error_with_its_message() {
        let step = 3;
        assert_eq!(run(move || -> Result<(), Failure> { panic!("broke at step {step}") }), MVS_ERR_INTERNAL);
        assert_eq!(last_error(), "internal error: the library panicked: broke at step 3 (please report this)");
        assert_eq!(run(|| -> Result<(), Failure> { panic!("a static message") }), MVS_ERR_INTERNAL);
        assert!(last_error().contains(": a static message ("), "{}", last_error());
    }
}
