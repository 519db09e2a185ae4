//! The view arithmetic: safe Rust that knows nothing of C.
//!
//! A [`View`] is an address plus up to [`MAX_DIMS`] extents, byte strides and PEP 3118
//! suboffsets. Derivations update a view in place and, on error, leave it unchanged; none
//! allocates. (`View` is `Copy`: copy it first to keep the source.) Addresses are abstract
//! ([`Addr`]), so the same code runs on raw pointers in the C layer and on plain integers in
//! tests.

mod axes;
mod bounds;
mod broadcast;
mod construct;
mod diagonal;
mod error;
mod index;
mod lanes;
mod overlap;
mod parts;
mod query;
mod reshape;
mod split;
mod view_as;
mod window;

pub use axes::Axis;
pub use construct::quick_subview;
pub use error::{Error, Kind, Result};
pub use index::Item;
pub use overlap::{shares_memory, Overlap};
pub use parts::{Parts, WithAxis, MVS_USUAL_EXTENT_LIMIT, MVS_USUAL_STRIDE_LIMIT};

/// Most dimensions a view can have (as in Cython).
pub const MAX_DIMS: usize = 8;

/// `KEEP[n][i]` is all ones for the axes `i < n` of an `n`-dimensional view, 0 past them.
static KEEP: [[isize; MAX_DIMS]; MAX_DIMS + 1] = {
    let mut masks = [[0; MAX_DIMS]; MAX_DIMS + 1];
    let mut n = 0;
    while n <= MAX_DIMS {
        let mut i = 0;
        while i < n {
            masks[n][i] = -1;
            i += 1;
        }
        n += 1;
    }
    masks
};

/// "No value" for slice bounds and steps (`MVS_NONE` in C).
pub const NONE: isize = isize::MIN;

/// Memory order of contiguous layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    C,
    F,
}

impl Order {
    /// The order named by `'C'` or `'F'`.
    pub fn from_char(order: i32) -> Result<Order> {
        const C: i32 = b'C' as i32;
        const F: i32 = b'F' as i32;
        match order {
            C => Ok(Order::C),
            F => Ok(Order::F),
            _ => Err(Error::Order { order }),
        }
    }
}

/// An address a view can point at. Offsetting never dereferences.
pub trait Addr: Copy {
    /// This address moved by `bytes` (which may be negative).
    fn byte_offset(self, bytes: isize) -> Self;
    /// This address as a number, to compare the places of views (never made an address again).
    fn position(self) -> usize;
}

impl Addr for usize {
    fn byte_offset(self, bytes: isize) -> Self {
        self.wrapping_add_signed(bytes)
    }
    fn position(self) -> usize {
        self
    }
}

/// A strided view. Entries at and past `ndim` are always shape 0, stride 0, suboffset -1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View<P> {
    data: P,
    ndim: usize,
    shape: [isize; MAX_DIMS],
    strides: [isize; MAX_DIMS],
    suboffsets: [isize; MAX_DIMS],
}

impl<P: Addr> View<P> {
    /// A direct view of `ndim` axes (at most [`MAX_DIMS`]) at `data` with these extents and
    /// strides (entries past `ndim` 0), not checked: for callers that built them within the
    /// usual limits ([`MVS_USUAL_EXTENT_LIMIT`], [`MVS_USUAL_STRIDE_LIMIT`]), where no query on
    /// the view overflows.
    #[inline(always)]
    pub(crate) fn usual_unchecked(data: P, ndim: usize, shape: [isize; MAX_DIMS], strides: [isize; MAX_DIMS]) -> Self {
        debug_assert!(ndim <= MAX_DIMS);
        View { data, ndim, shape, strides, suboffsets: [-1; MAX_DIMS] }
    }

    /// A view with no axis at `data`: the start of a view built axis by axis.
    pub fn empty(data: P) -> Self {
        View { data, ndim: 0, shape: [0; MAX_DIMS], strides: [0; MAX_DIMS], suboffsets: [-1; MAX_DIMS] }
    }

    pub fn data(&self) -> P {
        self.data
    }
    pub fn ndim(&self) -> usize {
        self.ndim
    }
    /// All 8 extents (zero past `ndim`).
    pub fn shape(&self) -> &[isize; MAX_DIMS] {
        &self.shape
    }
    /// All 8 byte strides (zero past `ndim`).
    pub fn strides(&self) -> &[isize; MAX_DIMS] {
        &self.strides
    }
    /// All 8 suboffsets (-1 past `ndim` and for direct axes).
    pub fn suboffsets(&self) -> &[isize; MAX_DIMS] {
        &self.suboffsets
    }

    /// The axis `axis` names, counting negatives from the end.
    #[inline(always)]
    fn axis(&self, axis: isize) -> Result<usize> {
        normalize_axis(axis, self.ndim)
    }

    /// Refuses views with an indirect axis.
    #[inline(always)]
    pub(crate) fn direct(&self) -> Result<()> {
        // Parts of nothing known: the suboffsets' sign test alone, not the range test of
        // `parts()`, which the question does not need.
        self.parts_direct(false).direct().map(|_| ())
    }

    /// Appends an axis (the caller checked room).
    fn push_axis(&mut self, len: isize, stride: isize, suboffset: isize) {
        let at = self.ndim;
        self.shape[at] = len;
        self.strides[at] = stride;
        self.suboffsets[at] = suboffset;
        self.ndim += 1;
    }

    /// Whether the view has no element.
    pub fn is_empty(&self) -> bool {
        self.shape[..self.ndim].contains(&0)
    }
}

/// `ndim` as a count, checked against `0..=MAX_DIMS`.
pub fn check_ndim(ndim: isize) -> Result<usize> {
    match usize::try_from(ndim) {
        Ok(n) if n <= MAX_DIMS => Ok(n),
        _ => Err(Error::Ndim { ndim }),
    }
}

/// The span of the axes given by `shape` and `strides`: the bytes between the lowest and
/// highest element addresses (without following suboffsets), the sum of `(len - 1) * |stride|`,
/// 0 for a zero-size view. Every offset the operations compute lies within it, so a view whose
/// span fits in `isize` cannot make them overflow unnoticed; [`Parts::new`] and
/// [`View::strided`] refuse the others.
#[inline]
fn span(shape: &[isize], strides: &[isize]) -> Result<isize> {
    if shape.contains(&0) {
        return Ok(0);
    }
    // In u128 no term overflows (each is below 2^126); the sum saturates, far above isize::MAX.
    let total = shape
        .iter()
        .zip(strides)
        .map(|(&len, &stride)| (len - 1) as u128 * stride.unsigned_abs() as u128)
        .fold(0u128, u128::saturating_add);
    isize::try_from(total).map_err(|_| Error::Overflow)
}

/// `itemsize`, checked positive.
pub(crate) fn check_itemsize(itemsize: isize) -> Result<isize> {
    if itemsize > 0 {
        Ok(itemsize)
    } else {
        Err(Error::Itemsize { itemsize })
    }
}

/// The axis `axis` names in `0..ndim`, counting negatives from the end.
fn normalize_axis(axis: isize, ndim: usize) -> Result<usize> {
    let n = ndim as isize;
    let a = if axis < 0 { axis + n } else { axis };
    if (0..n).contains(&a) {
        Ok(a as usize)
    } else {
        Err(Error::Axis { axis, ndim })
    }
}

/// `shape` (at most 8 extents) as a fixed array, 0 past its length, built at fixed indices so
/// that it can stay in registers. Not returned in a `Result`, whose tag would share the first
/// entry's bytes: the compiler then splits that entry into halves, and reading it whole stalls
/// on store forwarding.
#[inline(always)]
fn padded(shape: &[isize]) -> [isize; MAX_DIMS] {
    let mut dims = [0; MAX_DIMS];
    for (i, len) in dims.iter_mut().enumerate() {
        *len = shape.get(i).copied().unwrap_or(0);
    }
    dims
}

/// Checks a target shape for ndim and negative extents.
fn check_extents(shape: &[isize]) -> Result<()> {
    if shape.len() > MAX_DIMS {
        return Err(Error::Ndim { ndim: shape.len() as isize });
    }
    // One test of the sign of the OR when none is negative (the usual case), rather than
    // `position` alone, which tests each extent: measured faster (`make icount` guards it).
    if or_all(shape) < 0 {
        if let Some(axis) = shape.iter().position(|&len| len < 0) {
            return Err(Error::NegativeDim { axis, len: shape[axis] });
        }
    }
    Ok(())
}

/// The product of `shape` (extents not negative), checked; 0 when any extent is 0, whatever the
/// others.
#[inline(always)]
fn product(shape: &[isize]) -> Result<isize> {
    // Fast when the extents have few bits: `n` numbers below 2^b multiply to below 2^(n * b).
    // (Checked one multiplication at a time, it measured slower: `make icount` guards it.)
    if shape.len() as u32 * bit_length(or_all(shape)) < isize::BITS {
        let mut p = 1isize;
        for &len in shape {
            p = p.wrapping_mul(len);
        }
        return Ok(p);
    }
    let (mut p, mut overflow, mut zero) = (1isize, false, false);
    for &len in shape {
        let (next, o) = p.overflowing_mul(len);
        (p, overflow, zero) = (next, overflow | o, zero | (len == 0));
    }
    match (zero, overflow) {
        (true, _) => Ok(0),
        (false, true) => Err(Error::Overflow),
        (false, false) => Ok(p),
    }
}

/// The bitwise OR of `values`: negative when one is, and as long in bits as the longest.
#[inline(always)]
fn or_all(values: &[isize]) -> isize {
    let mut all = 0;
    for &v in values {
        all |= v;
    }
    all
}

/// The number of bits of `x` (not negative) up to its highest one.
#[inline(always)]
fn bit_length(x: isize) -> u32 {
    isize::BITS - x.leading_zeros()
}

fn mul(a: isize, b: isize) -> Result<isize> {
    a.checked_mul(b).ok_or(Error::Overflow)
}

fn add(a: isize, b: isize) -> Result<isize> {
    a.checked_add(b).ok_or(Error::Overflow)
}

#[cfg(test)]
pub(crate) mod tests;
