//! Elementwise iteration over several views (the `iter` core): the caller-held iterator and
//! the driver that runs a NumPy ufunc inner loop over it.

use core::ffi::{c_char, c_int, c_void};
use core::mem::{align_of, size_of};

use super::{array_arg, iter_failure, out_arg, parts_arg, run, write_out, Failure, RawPtr};
use super::{mvs_slice, mvs_status, MVS_OK};
use crate::iter::{self, Iter, Operand, Order};
use crate::view::View;

/// The most operands of one iteration.
pub const MVS_ITER_MAX_OPERANDS: c_int = 8;
/// The operand is read.
pub const MVS_ITER_READ: u32 = 1;
/// The operand is written.
pub const MVS_ITER_WRITE: u32 = 2;
/// The operand is read and written.
pub const MVS_ITER_READWRITE: u32 = 3;
/// With `MVS_ITER_WRITE`: the operand may be broadcast (length 1 or missing where the iteration
/// is longer), so that several elements of the iteration reach each of its items: a reduction
/// (NumPy's `REDUCE_OK`).
pub const MVS_ITER_REDUCE: u32 = 4;
/// The size of an `mvs_iter` in bytes (fixed: part of the ABI).
pub const MVS_ITER_BYTES: usize = 1024;

/// An elementwise iteration over 1 to `MVS_ITER_MAX_OPERANDS` views at once, made by
/// `mvs_iter_init` in storage of the caller's (on the stack: `MVS_ITER_BYTES` bytes, 8-byte
/// aligned). It holds no pointer to anything but the operands' memory and owns nothing: copy it
/// with `=` or `memcpy` (one copy per thread, each restricted by `mvs_iter_range`), drop it by
/// forgetting it.
#[repr(C)]
pub struct mvs_iter {
    /// Opaque to the caller: `MVS_ITER_BYTES` bytes.
    pub state: [u64; 128],
}

// The header's constants are the core's (cbindgen copies literals only), and the core's
// iterator fits in an mvs_iter.
const _: () = assert!(
    MVS_ITER_MAX_OPERANDS as usize == iter::MAX_OPERANDS
        && MVS_ITER_READ == iter::READ
        && MVS_ITER_WRITE == iter::WRITE
        && MVS_ITER_READWRITE == iter::READ | iter::WRITE
        && MVS_ITER_REDUCE == iter::REDUCE
        && size_of::<mvs_iter>() == MVS_ITER_BYTES
        && size_of::<Iter<RawPtr>>() <= MVS_ITER_BYTES
        && align_of::<Iter<RawPtr>>() <= align_of::<mvs_iter>()
);

/// The iterator stored in `it`.
///
/// # Safety
/// `it` points to an `mvs_iter` that `mvs_iter_init` made (copies included).
unsafe fn stored<'a>(it: *const mvs_iter) -> &'a Iter<RawPtr> {
    // SAFETY: per this function's contract, the bytes hold an Iter<RawPtr> (the assertion
    // above: it fits, at an alignment mvs_iter has), which is Copy and holds no reference.
    unsafe { &*(it as *const Iter<RawPtr>) }
}

/// `stored`, writable.
///
/// # Safety
/// As `stored`, and `it` is writable.
unsafe fn stored_mut<'a>(it: *mut mvs_iter) -> &'a mut Iter<RawPtr> {
    // SAFETY: as in `stored`.
    unsafe { &mut *(it as *mut Iter<RawPtr>) }
}

/// The iteration over the `nop` operands, checked.
///
/// # Safety
/// As `mvs_iter_init`'s arguments.
unsafe fn build(
    nop: c_int,
    ops: *const *const mvs_slice,
    ndims: *const c_int,
    itemsizes: *const isize,
    flags: *const u32,
    order: c_int,
) -> Result<Iter<RawPtr>, Failure> {
    if !(1..=MVS_ITER_MAX_OPERANDS).contains(&nop) {
        return Err(iter_failure(&iter::Error::Operands { count: nop.max(0) as usize }));
    }
    let n = nop as usize;
    // SAFETY: per this function's contract, each array has `nop` elements.
    let (ptrs, ndims, itemsizes, flags) = unsafe {
        (
            array_arg(ops, n, "ops")?,
            array_arg(ndims, n, "ndims")?,
            array_arg(itemsizes, n, "itemsizes")?,
            array_arg(flags, n, "flags")?,
        )
    };
    let order = Order::from_char(order).map_err(|e| iter_failure(&e))?;
    // (the entries past `nop` are placeholders that Iter::new never sees)
    let unused = Operand { view: View::empty(RawPtr(core::ptr::null_mut())), itemsize: 1, flags: 0 };
    let mut operands = [unused; iter::MAX_OPERANDS];
    for k in 0..n {
        if ptrs[k].is_null() {
            return Err(Failure::Null("ops[k]"));
        }
        // SAFETY: per this function's contract, ops[k] points to a readable mvs_slice.
        let view = unsafe { parts_arg(ptrs[k], ndims[k])? }.0.view();
        operands[k] = Operand { view, itemsize: itemsizes[k], flags: flags[k] };
    }
    Iter::new(&operands[..n], order).map_err(|e| iter_failure(&e))
}

/// Makes an elementwise iteration over `nop` views into `*it`, as NumPy's `nditer` with an
/// external inner loop: the views broadcast together by NumPy's rules (aligned on their last
/// axes; an axis of length 1 or a missing one repeats), their axes merged wherever every
/// operand allows (a contiguous 4-d iteration is one run), then walked in runs along the inner
/// axis by `mvs_iter_next`.
///
/// - `nop`: 1 to `MVS_ITER_MAX_OPERANDS`.
/// - `ops`, `ndims`, `itemsizes`: each operand's view (direct), its dimensions (0..=8) and its
///   item size (> 0).
/// - `flags`: each operand's `MVS_ITER_READ`, `MVS_ITER_WRITE` or `MVS_ITER_READWRITE`, with
///   `MVS_ITER_REDUCE` for a written operand that may be broadcast (a reduction). A written
///   operand without it is never broadcast.
/// - `order`: `'K'` (the operands' memory order: the axes sorted by stride, negative strides
///   walked forwards in memory where every operand has them; when an operand steps across
///   cache lines along the inner axis and more finely along another, a transposed operand, and
///   the inner axis is longer than 2560 items, those two axes are walked in tiles of a few rows
///   and 128 columns, so that each line read stays in cache until every item of it is used),
///   `'C'` (the last axis fastest) or `'F'` (the first fastest). C and F visit the elements in
///   exactly `np.nditer`'s order; K visits each once, in an order of its own.
///
/// A 0-d iteration is one run of one element; a zero-size one makes no run. The iteration's
/// indices are `0..mvs_iter_size`, in the order it visits the elements.
///
/// Errors: `MVS_ERR_NULL` (`it`, an array or an operand NULL), `MVS_ERR_VALUE` (`nop` out of
/// range, unknown flag bits, neither read nor write, `MVS_ITER_REDUCE` without write, an
/// unknown order), the common ones of each view, `MVS_ERR_ITEMSIZE`, `MVS_ERR_INDIRECT`,
/// `MVS_ERR_SHAPE` (shapes that do not broadcast together: "operands could not be broadcast
/// together with shapes (2, 3) (4,)", as NumPy), `MVS_ERR_BROADCAST` (a written operand
/// broadcast without `MVS_ITER_REDUCE`), `MVS_ERR_OVERLAP` (a written operand that shares a
/// byte of an item with another operand, decided exactly as `np.shares_memory`, unless both are
/// the very same view: in place is fine, and so are interleaved views such as `a[::2]` and
/// `a[1::2]`; layouts too intricate to decide within a bounded search count as sharing). On
/// error `*it` is not written. Does not allocate.
///
/// # Safety
/// `it` points to writable `mvs_iter` storage; `ops`, `ndims`, `itemsizes` and `flags` to
/// `nop` readable elements each, every `ops[k]` to a readable `mvs_slice`.
#[no_mangle]
pub unsafe extern "C" fn mvs_iter_init(
    it: *mut mvs_iter,
    nop: c_int,
    ops: *const *const mvs_slice,
    ndims: *const c_int,
    itemsizes: *const isize,
    flags: *const u32,
    order: c_int,
) -> mvs_status {
    run(|| {
        let it = out_arg(it, "it")?;
        // SAFETY: per this function's contract.
        let made = unsafe { build(nop, ops, ndims, itemsizes, flags, order)? };
        // SAFETY: `it` is writable storage of MVS_ITER_BYTES bytes, aligned for an Iter.
        unsafe { write_out(it as *mut Iter<RawPtr>, made) };
        Ok(())
    })
}

/// The number of elements the iteration at `it` visits in all (its iteration indices are
/// `0..*size`), into `*size`.
///
/// Errors: `MVS_ERR_NULL`.
///
/// # Safety
/// `it` points to an iterator made by `mvs_iter_init`; `size` is writable.
#[no_mangle]
pub unsafe extern "C" fn mvs_iter_size(it: *const mvs_iter, size: *mut isize) -> mvs_status {
    run(|| {
        let (it, size) = (out_arg(it as *mut mvs_iter, "it")?, out_arg(size, "size")?);
        // SAFETY: per this function's contract.
        unsafe { write_out(size, stored(it).size()) };
        Ok(())
    })
}

/// Restricts the iteration at `it` to its iteration indices `start..end` and goes to `start`,
/// as `NpyIter_ResetToIterIndexRange`: threads that each take a copy of one iterator and a
/// range of their own visit every element once between them.
///
/// Errors: `MVS_ERR_NULL`, `MVS_ERR_VALUE` (not `0 <= start <= end <= size`); the iterator is
/// unchanged then.
///
/// # Safety
/// `it` points to an iterator made by `mvs_iter_init`, writable.
#[no_mangle]
pub unsafe extern "C" fn mvs_iter_range(it: *mut mvs_iter, start: isize, end: isize) -> mvs_status {
    run(|| {
        let it = out_arg(it, "it")?;
        // SAFETY: per this function's contract.
        unsafe { stored_mut(it) }.set_range(start, end).map_err(|e| iter_failure(&e))
    })
}

/// The next run of the iteration at `it`: writes each operand's address of the run's first
/// element into `ptrs[k]`, the number of elements into `*count` and each operand's byte stride
/// along the run into `strides[k]` (the same for every run), and returns 1; returns 0, writing
/// nothing, when the iteration (or its range) is done. A NULL argument returns 0.
///
/// # Safety
/// `it` points to a writable iterator made by `mvs_iter_init`; `ptrs` and `strides` to as many
/// writable elements as the iteration has operands, `count` to a writable `ptrdiff_t`.
#[no_mangle]
pub unsafe extern "C" fn mvs_iter_next(
    it: *mut mvs_iter,
    ptrs: *mut *mut c_char,
    count: *mut isize,
    strides: *mut isize,
) -> c_int {
    if it.is_null() || ptrs.is_null() || count.is_null() || strides.is_null() {
        return 0;
    }
    // SAFETY: per this function's contract.
    let it = unsafe { stored_mut(it) };
    match it.next_run() {
        None => 0,
        Some(r) => {
            for k in 0..it.operands() {
                // SAFETY: `ptrs` and `strides` have an element per operand, per the contract.
                unsafe {
                    *ptrs.add(k) = r.ptrs[k].0;
                    *strides.add(k) = it.inner_strides()[k];
                }
            }
            // SAFETY: per the contract.
            unsafe { *count = r.count };
            1
        }
    }
}

/// An inner loop with NumPy's ufunc signature: `args[k]` is operand k's address of the run's
/// first element, `dimensions[0]` the run's count, `steps[k]` operand k's byte stride, `data`
/// the caller's pointer.
pub type mvs_loop_fn = Option<
    unsafe extern "C" fn(args: *mut *mut c_char, dimensions: *const isize, steps: *const isize, data: *mut c_void),
>;

/// Runs `loop` over the iteration that `mvs_iter_init` would make of the same arguments: once
/// per run, with the operands' addresses, the run's count and the strides (NumPy's ufunc inner
/// loop signature, so a loop written for a ufunc runs unchanged over views).
///
/// Errors: those of `mvs_iter_init`, and `MVS_ERR_NULL` for a NULL `loop`; on error `loop` is
/// never called.
///
/// # Safety
/// As `mvs_iter_init`'s arguments; `loop` may read and write the operands' elements it is
/// given, as their flags say.
#[no_mangle]
pub unsafe extern "C" fn mvs_apply(
    nop: c_int,
    ops: *const *const mvs_slice,
    ndims: *const c_int,
    itemsizes: *const isize,
    flags: *const u32,
    order: c_int,
    r#loop: mvs_loop_fn,
    data: *mut c_void,
) -> mvs_status {
    let mut made = None;
    let status = run(|| {
        if r#loop.is_none() {
            return Err(Failure::Null("loop"));
        }
        // SAFETY: per this function's contract.
        made = Some(unsafe { build(nop, ops, ndims, itemsizes, flags, order)? });
        Ok(())
    });
    let (Some(mut it), Some(f)) = (made, r#loop) else { return status };
    let mut args = [core::ptr::null_mut::<c_char>(); iter::MAX_OPERANDS];
    let steps = *it.inner_strides();
    while let Some(r) = it.next_run() {
        for (a, p) in args.iter_mut().zip(r.ptrs.iter()) {
            *a = p.0;
        }
        // SAFETY: the caller's loop, on the operands' elements of this run, per the contract.
        unsafe { f(args.as_mut_ptr(), &r.count, steps.as_ptr(), data) };
    }
    MVS_OK
}
