//! Data movement: copies between views and fills, in safe Rust that knows nothing of C.
//!
//! The kernels plan over the views' axes and move items through a [`Memory`], which the C
//! layer implements with raw pointers and the tests with a byte vector. A plan drops axes of
//! extent 1, turns every destination stride positive (reversing the source's with it), sorts
//! the axes so the destination's smallest stride is innermost, and merges axes contiguous in
//! both views. Then the innermost axis is one of three loops:
//!
//! - a run: both views contiguous along it, moved as bytes (`memmove`) or, when short, by items;
//! - tiles: when the source's smallest stride is on another axis (a transposed copy), the two
//!   axes are copied in tiles ([`TILE`] items square, or the memory's own shape), so that the
//!   lines of both views that a tile touches stay in cache while it is copied; the tiles start
//!   at cache lines, and the memory may copy a tile in blocks through registers, with stores
//!   that bypass the cache when the destination is large ([`Memory::copy_tile`]: the C layer
//!   does for items of 1 to 16 bytes with SSE2 or AVX2);
//! - a strided loop, items of 1, 2, 4, 8 or 16 bytes moved as one value, others as bytes.
//!
//! A copy whose views may overlap goes through a temporary (see [`copy`]).

#[cfg(test)]
mod tests;

use core::fmt;

use crate::view::{self, Addr, Order, View, MAX_DIMS, MVS_USUAL_EXTENT_LIMIT, MVS_USUAL_STRIDE_LIMIT};

/// The memory the kernels read and write, at addresses of type `P`. Every address the kernels
/// pass is that of an item of one of the views they were given (or of a temporary from
/// [`Memory::alloc`]), and every byte range lies inside such an item or run of items.
pub trait Memory<P: Addr> {
    /// Copies `nbytes` bytes from `src` to `dst`; the ranges may overlap (as `memmove`).
    fn move_bytes(&mut self, dst: P, src: P, nbytes: usize);
    /// The `N` bytes at `src`.
    fn load<const N: usize>(&mut self, src: P) -> [u8; N];
    /// Copies `count` items of `N` bytes, `src_step` bytes apart from `src`, to `count` items
    /// `dst_step` bytes apart from `dst`, in order. The items of each side do not overlap
    /// those of the other.
    fn copy_items<const N: usize>(&mut self, dst: P, dst_step: isize, src: P, src_step: isize, count: usize);
    /// Copies a tile of a transposed copy ([`Tile`]). `stream` when the copy's destination is
    /// too large to stay in cache, so that the stores may bypass it (the copy then ends with
    /// [`Memory::end_stream`]). By default, item by item ([`Tile::copy_items`]).
    fn copy_tile<const N: usize>(&mut self, tile: &Tile<P>, stream: bool)
    where
        Self: Sized,
    {
        let _ = stream;
        tile.copy_items::<N, Self>(self);
    }
    /// The shape of the tiles of a transposed copy of `N`-byte items, in items: rows (of the
    /// destination) and columns.
    fn tile_shape<const N: usize>(&self) -> (isize, isize) {
        (TILE, TILE)
    }
    /// Ends a copy whose tiles streamed (after stores that bypass the cache, a fence).
    fn end_stream(&mut self) {}
    /// Writes `item` to `count` items, `step` bytes apart from `dst`.
    fn fill_items<const N: usize>(&mut self, dst: P, step: isize, item: [u8; N], count: usize);
    /// Writes `byte` to the `nbytes` bytes at `dst` (as `memset`).
    fn set_bytes(&mut self, dst: P, byte: u8, nbytes: usize);
    /// Reads the `out.len()` bytes at `src` into `out`.
    fn read_into(&mut self, src: P, out: &mut [u8]);
    /// Writes `bytes` at `dst`.
    fn write_from(&mut self, dst: P, bytes: &[u8]);
    /// A new temporary block of `nbytes` bytes (which may be 0), or `None` when there is no
    /// memory for it.
    fn alloc(&mut self, nbytes: usize) -> Option<P>;
    /// Frees a block from [`Memory::alloc`] of `nbytes` bytes.
    fn free(&mut self, p: P, nbytes: usize);
    /// The address `p` as a number, to compare the places of views.
    fn position(&self, p: P) -> usize;
}

/// A tile of a transposed copy: `rows` by `cols` items, item (r, c) of the destination at
/// `dst + r * dst_row + c * dst_col`, of the source at `src + r * src_row + c * src_col`; the
/// items of one side do not overlap those of the other. `staged` when the rows of either side
/// fall on few sets of the cache ([`aliased`]): a kernel may then copy it through a small
/// buffer.
#[derive(Clone, Copy, Debug)]
pub struct Tile<P> {
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub staged: bool,
    pub dst: P,
    pub dst_row: isize,
    pub dst_col: isize,
    pub src: P,
    pub src_row: isize,
    pub src_col: isize,
    pub rows: isize,
    pub cols: isize,
}

impl<P: Addr> Tile<P> {
    /// Copies the tile item by item, a row of the destination at a time.
    pub fn copy_items<const N: usize, M: Memory<P>>(&self, mem: &mut M) {
        for r in 0..self.rows {
            let (d, s) = (self.dst.byte_offset(r * self.dst_row), self.src.byte_offset(r * self.src_row));
            mem.copy_items::<N>(d, self.dst_col, s, self.src_col, self.cols as usize);
        }
    }

    /// The part of the tile from row `r` and column `c` on (the edges of a kernel's blocks).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub fn from(&self, r: isize, c: isize) -> Tile<P> {
        Tile {
            dst: self.dst.byte_offset(r * self.dst_row + c * self.dst_col),
            src: self.src.byte_offset(r * self.src_row + c * self.src_col),
            rows: self.rows - r,
            cols: self.cols - c,
            ..*self
        }
    }
}

/// The size of a transposed copy's destination, in bytes, from which its tiles may stream (the
/// stores bypass the cache, as `memcpy`'s do for large copies): a destination this large would
/// push the source out of the cache it shares. Below it, stores through the cache leave the
/// destination in cache for what follows, as `memcpy`'s do: glibc's streams from about three
/// quarters of the last-level cache per thread, 12 MiB on this 2-core, 32 MiB machine. (From
/// 12 MiB rather than 16: 1000 x 1000 items of 16 bytes measured twice as fast streamed.)
const STREAM_BYTES: isize = 12 << 20;

/// Where a transposed copy's tiles start, in bytes of a destination row (and of a source row
/// along the tiles' rows): the tiles after the first start at a cache line, so that a tile's
/// stores fill whole lines (stores that bypass the cache are slow on part of a line: 0.86
/// against 0.30 ms for 1000 x 1000 float64 with rows 32 bytes past a line) and its wide loads
/// do not straddle two.
const TILE_ALIGN: usize = 64;

/// How many items of `N` bytes, `step` bytes apart from the one at `position`, come before the
/// first at a multiple of [`TILE_ALIGN`]: 0 unless they are adjacent and aligned to their size.
fn lead<const N: usize>(position: usize, step: isize) -> isize {
    let at = position % TILE_ALIGN;
    if step == N as isize && at % N == 0 {
        ((TILE_ALIGN - at) % TILE_ALIGN / N) as isize
    } else {
        0
    }
}

/// Whether rows `stride` bytes apart fall on few sets of a cache whose ways are 4 KiB (the
/// first-level caches of x86-64 CPUs): 64 such rows, a tile's block of lines, then use 8 sets or
/// fewer, more rows to a set than it has ways, so that each row is gone from the cache before
/// its next line is read (strides of whole multiples of 512 bytes, as power-of-two sizes have).
pub fn aliased(stride: isize) -> bool {
    stride % 512 == 0
}

/// Side of a tile, in items: the 16 lines of each view that a tile touches stay in the
/// first-level cache while it is copied, and in the TLB (`cargo bench --bench copy`: a large
/// transposed copy measured faster with tiles of 16 items than of 32 or 64).
pub(crate) const TILE: isize = 16;

/// The axis along which a view of `strides` (innermost last) steps most finely, when it steps
/// across cache lines along the innermost axis and more finely along that one (a transposed
/// view): the axis to walk in tiles with the innermost. Axes of stride 0 do not count.
pub(crate) fn transposed_axis(strides: &[isize]) -> Option<usize> {
    let (&inner, outer) = strides.split_last()?;
    let inner = inner.unsigned_abs();
    if inner < 64 {
        return None;
    }
    let j = (0..outer.len()).filter(|&a| outer[a] != 0).min_by_key(|&a| outer[a].unsigned_abs())?;
    (outer[j].unsigned_abs() < inner).then_some(j)
}

/// Most bytes of an item that a fill of an odd item size reads into a local copy first.
const LOCAL_ITEM: usize = 256;

/// Runs of at most this many bytes are copied item by item rather than by `memmove`, whose
/// call costs more than the copy.
const SHORT_RUN: isize = 64;

/// Why a copy or fill was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    View(view::Error),
    /// A destination axis of stride 0 and extent > 1: its items alias each other.
    AliasedDestination {
        axis: usize,
        len: isize,
    },
    /// No memory for a temporary of `nbytes` bytes.
    Alloc {
        nbytes: usize,
    },
}

impl From<view::Error> for Error {
    fn from(e: view::Error) -> Self {
        Error::View(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::View(e) => e.fmt(f),
            Error::AliasedDestination { axis, len } => write!(
                f,
                "axis {axis} of the destination has stride 0 and extent {len}: its items are one item, written {len} times"
            ),
            Error::Alloc { nbytes } => write!(f, "no memory for a temporary of {nbytes} bytes"),
        }
    }
}

pub type Result<T> = core::result::Result<T, Error>;

/// The axes of a copy: extents and the byte strides of the destination and of the source,
/// outermost first.
#[derive(Clone, Copy, Debug)]
struct Axes {
    n: usize,
    len: [isize; MAX_DIMS],
    dst: [isize; MAX_DIMS],
    src: [isize; MAX_DIMS],
}

/// Checks what every copy and fill needs of a view: a positive `itemsize`, no indirect axis.
#[inline(always)]
pub fn check_source<P: Addr>(v: &View<P>, itemsize: isize) -> Result<()> {
    view::check_itemsize(itemsize)?;
    Ok(v.direct()?)
}

/// Copies every item of `src` into `dst` as if `src` were first copied to a temporary
/// (`np.copyto(dst, src.copy())`), with Cython's broadcasting: shapes aligned from the end,
/// missing leading axes of extent 1, and a source axis of extent 1 repeated along the
/// destination's. A destination axis of stride 0 and extent > 1 is refused, unless the
/// destination has no items.
///
/// The copy is direct when the views' byte extents are disjoint, when they are the same items
/// (nothing to do), or when each is one contiguous run (a `memmove`); otherwise `src` is copied
/// to a temporary first. On error nothing is written.
pub fn copy<P: Addr, M: Memory<P>>(mem: &mut M, src: &View<P>, dst: &View<P>, itemsize: isize) -> Result<()> {
    check_source(src, itemsize)?;
    check_source(dst, itemsize)?;
    let axes = broadcast(src, dst)?;
    let (s, d) = (range(mem, src, itemsize)?, range(mem, dst, itemsize)?);
    if dst.is_empty() {
        return Ok(());
    }
    if let Some(axis) = (0..axes.n).find(|&a| axes.dst[a] == 0 && axes.len[a] > 1) {
        return Err(Error::AliasedDestination { axis, len: axes.len[axis] });
    }
    if s.1 <= d.0 || d.1 <= s.0 {
        copy_direct(mem, dst.data(), src.data(), axes, itemsize, false);
        return Ok(());
    }
    let same = mem.position(src.data()) == mem.position(dst.data())
        && (0..axes.n).all(|a| axes.len[a] == 1 || axes.dst[a] == axes.src[a]);
    if same {
        return Ok(());
    }
    if let Some(plan) = Plan::new(dst.data(), src.data(), axes) {
        let (n, ds, ss) = (plan.axes.n, plan.axes.dst[0], plan.axes.src[0]);
        if n == 0 || (n == 1 && ds == itemsize && ss == itemsize) {
            plan.run(mem, itemsize, true);
            return Ok(());
        }
    }
    // The views may overlap: through a C-contiguous temporary of the source's shape.
    let nbytes = src.byte_count(itemsize)? as usize;
    let temp = mem.alloc(nbytes).ok_or(Error::Alloc { nbytes })?;
    let t = View::contiguous(temp, itemsize, &src.shape()[..src.ndim()], Order::C)?;
    copy_direct(mem, temp, src.data(), broadcast(src, &t)?, itemsize, false);
    copy_direct(mem, dst.data(), temp, broadcast(&t, dst)?, itemsize, false);
    mem.free(temp, nbytes);
    Ok(())
}

/// Most items [`copy_small`] copies: past this, planning pays for itself.
const SMALL: isize = 256;

/// A view as a caller stores it, unchecked: its data address and its arrays.
#[derive(Clone, Copy)]
pub struct Stored<'a, P> {
    pub data: P,
    pub shape: &'a [isize; MAX_DIMS],
    pub strides: &'a [isize; MAX_DIMS],
    pub suboffsets: &'a [isize; MAX_DIMS],
}

/// The common case of [`copy`], done when this returns true: two views of the same `n <= 4`
/// dimensions and shape, usual (see [`view::MVS_USUAL_EXTENT_LIMIT`]: so that
/// no offset can overflow), whose byte extents are disjoint, of at most [`SMALL`] items of 1,
/// 2, 4, 8 or 16 bytes. It checks all that itself, on the views as stored, and copies them in
/// index order, with no plan. False, with nothing written, for any other input: [`copy`]
/// then checks and copies it.
#[inline(always)]
pub fn copy_small<P: Addr, M: Memory<P>>(
    mem: &mut M,
    src: Stored<'_, P>,
    dst: Stored<'_, P>,
    n: usize,
    itemsize: isize,
) -> bool {
    if !matches!(itemsize, 1 | 2 | 4 | 8 | 16) {
        return false;
    }
    match n {
        0 => small::<0, P, M>(mem, src, dst, itemsize),
        1 => small::<1, P, M>(mem, src, dst, itemsize),
        2 => small::<2, P, M>(mem, src, dst, itemsize),
        3 => small::<3, P, M>(mem, src, dst, itemsize),
        4 => small::<4, P, M>(mem, src, dst, itemsize),
        _ => false,
    }
}

/// [`copy_small`] for `D` dimensions, its loops unrolled.
#[inline(always)]
fn small<const D: usize, P: Addr, M: Memory<P>>(
    mem: &mut M,
    src: Stored<'_, P>,
    dst: Stored<'_, P>,
    itemsize: isize,
) -> bool {
    let (mut len, mut s_step, mut d_step) = ([1isize; 4], [0isize; 4], [0isize; 4]);
    let (mut count, mut s_lo, mut s_hi, mut d_lo, mut d_hi) = (1isize, 0isize, 0isize, 0isize, 0isize);
    // Bits outside the usual ranges (view::MVS_USUAL_EXTENT_LIMIT): extents as unsigned numbers
    // below the extent limit (a negative one is not), strides plus the stride limit likewise,
    // suboffsets negative (direct).
    let (mut unusual, mut usual_direct) = (0usize, -1isize);
    let (mut refused, mut aliased) = (false, false);
    for a in 0..D {
        let (shape, ss, ds) = (dst.shape[a], src.strides[a], dst.strides[a]);
        // Wrapping: on unusual input these values are thrown away (below), never used.
        let bias = MVS_USUAL_STRIDE_LIMIT;
        unusual |= shape as usize | ss.wrapping_add(bias) as usize | ds.wrapping_add(bias) as usize;
        usual_direct &= src.suboffsets[a] & dst.suboffsets[a];
        refused |= shape != src.shape[a];
        aliased |= ds == 0 && shape > 1;
        let k = 4 - D + a;
        (len[k], s_step[k], d_step[k]) = (shape, ss, ds);
        count = count.wrapping_mul(shape.min(SMALL + 1));
        let (s_span, d_span) = (shape.wrapping_sub(1).wrapping_mul(ss), shape.wrapping_sub(1).wrapping_mul(ds));
        (s_lo, s_hi) = (s_lo.wrapping_add(s_span.min(0)), s_hi.wrapping_add(s_span.max(0)));
        (d_lo, d_hi) = (d_lo.wrapping_add(d_span.min(0)), d_hi.wrapping_add(d_span.max(0)));
    }
    if unusual >= MVS_USUAL_EXTENT_LIMIT as usize || usual_direct >= 0 || refused || count > SMALL {
        return false;
    }
    if count == 0 {
        return true;
    }
    if aliased {
        return false;
    }
    let (sp, dp) = (mem.position(src.data) as isize, mem.position(dst.data) as isize);
    let disjoint = sp.wrapping_add(s_hi).wrapping_add(itemsize) <= dp.wrapping_add(d_lo)
        || dp.wrapping_add(d_hi).wrapping_add(itemsize) <= sp.wrapping_add(s_lo);
    if !disjoint {
        return false;
    }
    let (s, d) = (src.data, dst.data);
    match itemsize {
        1 => copy_nested::<1, P, M>(mem, s, d, &len, &s_step, &d_step),
        2 => copy_nested::<2, P, M>(mem, s, d, &len, &s_step, &d_step),
        4 => copy_nested::<4, P, M>(mem, s, d, &len, &s_step, &d_step),
        8 => copy_nested::<8, P, M>(mem, s, d, &len, &s_step, &d_step),
        16 => copy_nested::<16, P, M>(mem, s, d, &len, &s_step, &d_step),
        _ => return false,
    }
    true
}

/// The loops of [`copy_small`]: four axes, the last innermost.
#[inline(always)]
fn copy_nested<const N: usize, P: Addr, M: Memory<P>>(
    mem: &mut M,
    s: P,
    d: P,
    len: &[isize; 4],
    ss: &[isize; 4],
    ds: &[isize; 4],
) {
    for i in 0..len[0] {
        let (s, d) = (s.byte_offset(i * ss[0]), d.byte_offset(i * ds[0]));
        for j in 0..len[1] {
            let (s, d) = (s.byte_offset(j * ss[1]), d.byte_offset(j * ds[1]));
            for k in 0..len[2] {
                let (s, d) = (s.byte_offset(k * ss[2]), d.byte_offset(k * ds[2]));
                mem.copy_items::<N>(d, ds[3], s, ss[3], len[3] as usize);
            }
        }
    }
}

/// Sets every item of `dst` to the `itemsize` bytes at `item`, which may be an item of `dst`:
/// it is read before anything is written. Axes of stride 0 are written once.
pub fn fill<P: Addr, M: Memory<P>>(mem: &mut M, dst: &View<P>, itemsize: isize, item: P) -> Result<()> {
    check_source(dst, itemsize)?;
    // The last item's bytes must be addressable too.
    dst.extent(itemsize)?;
    let mut axes = Axes { n: dst.ndim(), len: *dst.shape(), dst: *dst.strides(), src: [0; MAX_DIMS] };
    for a in 0..axes.n {
        if axes.dst[a] == 0 {
            axes.len[a] = axes.len[a].min(1);
        }
    }
    let Some(plan) = Plan::new(dst.data(), item, axes) else { return Ok(()) };
    match itemsize {
        1 => plan.fill::<1, M>(mem),
        2 => plan.fill::<2, M>(mem),
        4 => plan.fill::<4, M>(mem),
        8 => plan.fill::<8, M>(mem),
        16 => plan.fill::<16, M>(mem),
        n if n as usize <= LOCAL_ITEM => {
            // The item is read first, into a local copy that no write to `dst` can change.
            let mut local = [0u8; LOCAL_ITEM];
            let local = &mut local[..n as usize];
            mem.read_into(item, local);
            plan.fill_bytes(mem, itemsize, |mem, d| mem.write_from(d, local));
        }
        n => {
            // Larger items go first to the first item of `dst`, the source of all the others
            // (so items of `dst` that partly overlap each other get unspecified contents).
            mem.move_bytes(plan.dst, item, n as usize);
            let first = plan.dst;
            plan.fill_bytes(mem, itemsize, |mem, d| mem.move_bytes(d, first, n as usize));
        }
    }
    Ok(())
}

/// The byte range `[lo, hi)` of `v`, absolute.
#[inline(always)]
fn range<P: Addr, M: Memory<P>>(mem: &M, v: &View<P>, itemsize: isize) -> Result<(i128, i128)> {
    let (lo, hi) = v.extent(itemsize)?;
    let at = mem.position(v.data()) as i128;
    Ok((at + lo as i128, at + hi as i128))
}

/// The axes of copying `src` to `dst`: `dst`'s extents and strides, `src`'s strides with 0
/// where it broadcasts.
#[inline(always)]
fn broadcast<P: Addr>(src: &View<P>, dst: &View<P>) -> Result<Axes> {
    let n = src.ndim().max(dst.ndim());
    let (ls, ld) = (n - src.ndim(), n - dst.ndim());
    let mut axes = Axes { n, len: [0; MAX_DIMS], dst: [0; MAX_DIMS], src: [0; MAX_DIMS] };
    for a in 0..n {
        let (s_len, s_stride) = if a < ls { (1, 0) } else { (src.shape()[a - ls], src.strides()[a - ls]) };
        let (d_len, d_stride) = if a < ld { (1, 0) } else { (dst.shape()[a - ld], dst.strides()[a - ld]) };
        axes.len[a] = d_len;
        axes.dst[a] = d_stride;
        axes.src[a] = if s_len == d_len {
            s_stride
        } else if s_len == 1 {
            0
        } else {
            return Err(view::Error::Broadcast { axis: a, from: s_len, to: d_len }.into());
        };
    }
    Ok(axes)
}

/// Copies along `axes` from `src` to `dst` in one pass: right when the views do not overlap,
/// or overlap only as one run each (`overlap`, moved as by `memmove`).
#[inline(always)]
fn copy_direct<P: Addr, M: Memory<P>>(mem: &mut M, dst: P, src: P, axes: Axes, itemsize: isize, overlap: bool) {
    if let Some(plan) = Plan::new(dst, src, axes) {
        plan.run(mem, itemsize, overlap);
    }
}

/// A copy or fill ready to run: the address of the first item of each view, and the axes,
/// normalized (see the module's documentation).
#[derive(Clone, Copy, Debug)]
struct Plan<P> {
    dst: P,
    src: P,
    axes: Axes,
}

impl<P: Addr> Plan<P> {
    /// The plan of `axes` from `src` to `dst`; `None` when there is no item to move. The
    /// offsets stay inside the views, whose byte extents fit in `isize` (checked when they
    /// were made), so the arithmetic cannot overflow.
    #[inline(always)]
    fn new(mut dst: P, mut src: P, axes: Axes) -> Option<Self> {
        if axes.len[..axes.n].contains(&0) {
            return None;
        }
        let mut out = Axes { n: 0, len: [1; MAX_DIMS], dst: [0; MAX_DIMS], src: [0; MAX_DIMS] };
        for a in 0..axes.n {
            let (len, mut d, mut s) = (axes.len[a], axes.dst[a], axes.src[a]);
            if len == 1 {
                continue;
            }
            if d < 0 {
                dst = dst.byte_offset((len - 1) * d);
                src = src.byte_offset((len - 1) * s);
                (d, s) = (-d, -s);
            }
            // Insertion by stride, largest first; equal strides keep their order.
            let mut i = out.n;
            while i > 0 && out.dst[i - 1] < d {
                out.len[i] = out.len[i - 1];
                out.dst[i] = out.dst[i - 1];
                out.src[i] = out.src[i - 1];
                i -= 1;
            }
            (out.len[i], out.dst[i], out.src[i]) = (len, d, s);
            out.n += 1;
        }
        // Merges each axis into the next inner one when both views step over it as over the
        // inner axis's whole extent.
        let mut merged = Axes { n: 0, ..out };
        for a in 0..out.n {
            let m = merged.n;
            let spans = |stride: isize| out.len[a].checked_mul(stride);
            if m > 0 && Some(merged.dst[m - 1]) == spans(out.dst[a]) && Some(merged.src[m - 1]) == spans(out.src[a]) {
                merged.len[m - 1] *= out.len[a];
                merged.dst[m - 1] = out.dst[a];
                merged.src[m - 1] = out.src[a];
            } else {
                merged.len[m] = out.len[a];
                merged.dst[m] = out.dst[a];
                merged.src[m] = out.src[a];
                merged.n += 1;
            }
        }
        for a in merged.n..MAX_DIMS {
            (merged.len[a], merged.dst[a], merged.src[a]) = (1, 0, 0);
        }
        Some(Plan { dst, src, axes: merged })
    }

    /// Runs the copy for items of `itemsize` bytes.
    #[inline(always)]
    fn run<M: Memory<P>>(&self, mem: &mut M, itemsize: isize, overlap: bool) {
        match itemsize {
            1 => self.copy::<1, M>(mem, overlap),
            2 => self.copy::<2, M>(mem, overlap),
            4 => self.copy::<4, M>(mem, overlap),
            8 => self.copy::<8, M>(mem, overlap),
            16 => self.copy::<16, M>(mem, overlap),
            _ => self.copy_bytes(mem, itemsize, overlap),
        }
    }

    /// The innermost axis: its extent and the two strides (a 0-d plan has one item).
    #[inline(always)]
    fn inner(&self) -> (isize, isize, isize) {
        match self.axes.n {
            0 => (1, 0, 0),
            n => (self.axes.len[n - 1], self.axes.dst[n - 1], self.axes.src[n - 1]),
        }
    }

    /// The copy for items of `N` bytes.
    #[inline(always)]
    fn copy<const N: usize, M: Memory<P>>(&self, mem: &mut M, overlap: bool) {
        let size = N as isize;
        let (len, ds, ss) = self.inner();
        let outer = self.axes.n.saturating_sub(1);
        if overlap || (ds == size && ss == size && len * size > SHORT_RUN) {
            let nbytes = (len * size) as usize;
            self.each(outer, |d, s| mem.move_bytes(d, s, nbytes));
        } else if let Some(tiled) = self.tiled() {
            tiled.copy_tiles::<N, M>(mem);
        } else {
            self.each(outer, |d, s| mem.copy_items::<N>(d, ds, s, ss, len as usize));
        }
    }

    /// The copy for items of any size.
    fn copy_bytes<M: Memory<P>>(&self, mem: &mut M, itemsize: isize, overlap: bool) {
        let (len, ds, ss) = self.inner();
        let outer = self.axes.n.saturating_sub(1);
        if overlap || (ds == itemsize && ss == itemsize) {
            let nbytes = (len * itemsize) as usize;
            self.each(outer, |d, s| mem.move_bytes(d, s, nbytes));
        } else {
            self.each(outer, |d, s| {
                for i in 0..len {
                    mem.move_bytes(d.byte_offset(i * ds), s.byte_offset(i * ss), itemsize as usize);
                }
            });
        }
    }

    /// This plan with the source's fastest axis moved next to the innermost, when the source
    /// steps across cache lines along the innermost axis and more finely along another one:
    /// then the two innermost axes are copied in tiles.
    fn tiled(&self) -> Option<Self> {
        let n = self.axes.n;
        let j = transposed_axis(&self.axes.src[..n])?;
        let mut t = *self;
        for a in j..n - 2 {
            t.axes.len[a] = self.axes.len[a + 1];
            t.axes.dst[a] = self.axes.dst[a + 1];
            t.axes.src[a] = self.axes.src[a + 1];
        }
        (t.axes.len[n - 2], t.axes.dst[n - 2], t.axes.src[n - 2]) =
            (self.axes.len[j], self.axes.dst[j], self.axes.src[j]);
        Some(t)
    }

    /// The copy of a [`Plan::tiled`] plan: the two innermost axes in tiles
    /// ([`Memory::tile_shape`]; the first row and column of tiles end at a line),
    /// each copied by [`Memory::copy_tile`], streaming when the destination has at least
    /// [`STREAM_BYTES`].
    fn copy_tiles<const N: usize, M: Memory<P>>(&self, mem: &mut M) {
        let n = self.axes.n;
        let (rows, dr, sr) = (self.axes.len[n - 2], self.axes.dst[n - 2], self.axes.src[n - 2]);
        let (cols, dc, sc) = (self.axes.len[n - 1], self.axes.dst[n - 1], self.axes.src[n - 1]);
        let (side_r, side_c) = mem.tile_shape::<N>();
        let stream = self.axes.len[..n].iter().fold(N as isize, |b, &len| b.saturating_mul(len)) >= STREAM_BYTES;
        // (stores that bypass the cache do not collide in it)
        let staged = aliased(sc) || (!stream && aliased(dr));
        self.each(n - 2, |d, s| {
            // The first tiles end where the destination's rows, and the source's along the
            // tiles' rows, reach TILE_ALIGN bytes (when their items are adjacent and the first
            // is aligned to its size): the others then start aligned.
            let (lead_r, lead_c) = (lead::<N>(mem.position(s), sr), lead::<N>(mem.position(d), dc));
            let mut r0 = 0;
            while r0 < rows {
                let height = (if r0 == 0 && lead_r > 0 { lead_r } else { side_r }).min(rows - r0);
                let mut c0 = 0;
                while c0 < cols {
                    let width = if c0 == 0 && lead_c > 0 { lead_c } else { side_c };
                    let tile = Tile {
                        staged,
                        dst: d.byte_offset(r0 * dr + c0 * dc),
                        dst_row: dr,
                        dst_col: dc,
                        src: s.byte_offset(r0 * sr + c0 * sc),
                        src_row: sr,
                        src_col: sc,
                        rows: height,
                        cols: width.min(cols - c0),
                    };
                    mem.copy_tile::<N>(&tile, stream);
                    c0 += tile.cols;
                }
                r0 += height;
            }
        });
        if stream {
            mem.end_stream();
        }
    }

    /// Writes the item at `self.src` to every item of the destination.
    fn fill<const N: usize, M: Memory<P>>(&self, mem: &mut M) {
        let item = mem.load::<N>(self.src);
        let (len, ds, _) = self.inner();
        let outer = self.axes.n.saturating_sub(1);
        if ds == N as isize && item.iter().all(|&b| b == item[0]) {
            let nbytes = (len * N as isize) as usize;
            self.each(outer, |d, _| mem.set_bytes(d, item[0], nbytes));
        } else {
            self.each(outer, |d, _| mem.fill_items::<N>(d, ds, item, len as usize));
        }
    }

    /// Writes an item of `itemsize` bytes to every item of the destination, `put(mem, at)`
    /// writing one: runs by doubling what is already written, other items one by one.
    fn fill_bytes<M: Memory<P>>(&self, mem: &mut M, itemsize: isize, mut put: impl FnMut(&mut M, P)) {
        let (len, ds, _) = self.inner();
        let outer = self.axes.n.saturating_sub(1);
        self.each(outer, |d, _| {
            put(mem, d);
            if ds == itemsize {
                let (total, mut done) = (len * itemsize, itemsize);
                while done < total {
                    let n = done.min(total - done);
                    mem.move_bytes(d.byte_offset(done), d, n as usize);
                    done += n;
                }
            } else {
                for i in 1..len {
                    put(mem, d.byte_offset(i * ds));
                }
            }
        });
    }

    /// Calls `f` with the first item of each view at every index of the `outer` outermost
    /// axes, the last of them fastest.
    #[inline(always)]
    fn each(&self, outer: usize, mut f: impl FnMut(P, P)) {
        let a = &self.axes;
        let mut index = [0isize; MAX_DIMS];
        let (mut d, mut s) = (self.dst, self.src);
        loop {
            f(d, s);
            let mut k = outer;
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                index[k] += 1;
                if index[k] < a.len[k] {
                    d = d.byte_offset(a.dst[k]);
                    s = s.byte_offset(a.src[k]);
                    break;
                }
                d = d.byte_offset(-(a.len[k] - 1) * a.dst[k]);
                s = s.byte_offset(-(a.len[k] - 1) * a.src[k]);
                index[k] = 0;
            }
        }
    }
}
