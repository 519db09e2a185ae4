//! Elementwise iteration over several views at once, as NumPy's `nditer` with an external inner
//! loop: the operands broadcast together by NumPy's rules, the axes put in an order (K: the
//! operands' memory order; C; F) and merged where every operand allows, then walked as runs of
//! the innermost axis, each run given as the operands' addresses and a count (the strides are
//! fixed). In K order, when an operand steps across cache lines along the innermost axis and
//! more finely along another (a transposed operand), those two axes are walked in tiles, each
//! tile row by row, so that every operand reads whole cache lines. A range of iteration indices
//! restricts a copy of the iterator, so that threads can split one iteration. Safe Rust; no
//! allocation; an [`Iter`] is `Copy`.

// An Error carries every operand's shape, for NumPy's message, without allocating; it is
// large (about 600 bytes), and only ever made on the way out of a refused iteration.
#![allow(clippy::result_large_err, clippy::large_enum_variant)]

#[cfg(test)]
mod tests;

use core::fmt;

use crate::copy::transposed_axis;
use crate::view::{self, Addr, Overlap, View, MAX_DIMS};

/// Most operands of one iteration.
pub const MAX_OPERANDS: usize = 8;

/// The operand is read.
pub const READ: u32 = 1;
/// The operand is written.
pub const WRITE: u32 = 2;
/// A written operand may be broadcast: several iterations reach each of its items (a
/// reduction, as NumPy's `REDUCE_OK`).
pub const REDUCE: u32 = 4;

/// The order in which the iteration visits the elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The operands' memory order: axes sorted by stride, negative strides walked backwards
    /// where every operand has them.
    K,
    /// The last axis fastest.
    C,
    /// The first axis fastest.
    F,
}

impl Order {
    /// The order named by `'K'`, `'C'` or `'F'`.
    pub fn from_char(order: i32) -> Result<Order> {
        match u8::try_from(order) {
            Ok(b'K') => Ok(Order::K),
            Ok(b'C') => Ok(Order::C),
            Ok(b'F') => Ok(Order::F),
            _ => Err(Error::Order { order }),
        }
    }
}

/// One operand: a direct view, its item size and its flags (`READ`, `WRITE`, both, and
/// `REDUCE` with `WRITE`).
#[derive(Clone, Copy, Debug)]
pub struct Operand<P> {
    pub view: View<P>,
    pub itemsize: isize,
    pub flags: u32,
}

/// A tile of a transposed iteration: its rows (along the transposed operand's fastest axis)
/// span `TILE_ROW_BYTES` of that operand, half a cache line, and its columns (a run) are
/// `TILE_COLS` items. An iteration is tiled only when one row touches more than
/// `TILE_MIN_ROW_LINES` lines of the transposed operand: fewer stay in cache from one row to
/// the next, and then walking whole rows is as fast or faster, as each tile row is one more
/// stream of the other operands for the prefetchers to follow. Measured on c = a + b.T in
/// float64 through mvs_apply (2 cores of an AMD EPYC, 1 MiB of L2 each): N x N tiled against
/// whole rows took 20 against 16 ms at N = 2500, 33 against 45 at 3000, 69 against 109 at 4000,
/// and 64 x 200,000 took 31 against 91; taller or wider tiles were slower at some sizes.
const TILE_ROW_BYTES: isize = 32;
const TILE_COLS: isize = 128;
const TILE_MIN_ROW_LINES: isize = 2560;

/// An iteration, positioned at its next run. Axes are stored outermost first, at least two;
/// the last is the inner one, whose strides every run shares. The last two are walked in tiles
/// of `tile` (rows, columns); an iteration that is not tiled has tiles of one whole row.
#[derive(Clone, Copy, Debug)]
pub struct Iter<P> {
    nop: usize,
    ndim: usize,
    shape: [isize; MAX_DIMS],
    strides: [[isize; MAX_OPERANDS]; MAX_DIMS],
    tile: [isize; 2],
    base: [P; MAX_OPERANDS],
    size: isize,
    // The state: the next iteration index, the end of the range, the index along each axis,
    // the current tile's rows and columns (`lo..hi` of the last two axes), and the operands'
    // addresses there.
    pos: isize,
    end: isize,
    index: [isize; MAX_DIMS],
    lo: [isize; 2],
    hi: [isize; 2],
    ptrs: [P; MAX_OPERANDS],
}

/// One run of the inner axis: `count` elements from `ptrs`, the iteration's `inner_strides` apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run<P> {
    pub ptrs: [P; MAX_OPERANDS],
    pub count: isize,
}

impl<P: Addr> Iter<P> {
    /// The iteration over `ops`, visiting elements in `order`.
    pub fn new(ops: &[Operand<P>], order: Order) -> Result<Self> {
        let nop = ops.len();
        if nop == 0 || nop > MAX_OPERANDS {
            return Err(Error::Operands { count: nop });
        }
        for (k, op) in ops.iter().enumerate() {
            check_flags(k, op.flags)?;
            op.view.extent(op.itemsize)?; // direct, a valid item size, no overflow
        }
        let (shape, ndim) = broadcast_shape(ops)?;
        let mut it = Iter {
            nop,
            ndim,
            shape: [1; MAX_DIMS],
            strides: [[0; MAX_OPERANDS]; MAX_DIMS],
            tile: [1, 1],
            base: [ops[0].view.data(); MAX_OPERANDS],
            size: 1,
            pos: 0,
            end: 0,
            index: [0; MAX_DIMS],
            lo: [0; 2],
            hi: [0; 2],
            ptrs: [ops[0].view.data(); MAX_OPERANDS],
        };
        for (k, op) in ops.iter().enumerate() {
            it.base[k] = op.view.data();
            let skip = ndim - op.view.ndim();
            for axis in 0..ndim {
                let n = shape[axis];
                let (len, stride) =
                    if axis < skip { (1, 0) } else { (op.view.shape()[axis - skip], op.view.strides()[axis - skip]) };
                let broadcast = len != n;
                if broadcast && n > 1 && op.flags & WRITE != 0 && op.flags & REDUCE == 0 {
                    return Err(Error::WriteBroadcast {
                        operand: k,
                        shape: Shape::of(&op.view),
                        to: Shape::new(&shape[..ndim]),
                    });
                }
                it.strides[axis][k] = if broadcast || n == 1 { 0 } else { stride };
            }
        }
        it.shape[..ndim].copy_from_slice(&shape[..ndim]);
        check_overlap(ops, &it)?;
        it.size = shape[..ndim].iter().try_fold(1isize, |a, &n| a.checked_mul(n)).ok_or(view::Error::Overflow)?;
        it.arrange(order);
        it.coalesce();
        it.pad();
        if order == Order::K {
            it.tiles();
        }
        it.end = it.size;
        it.seek(0);
        Ok(it)
    }

    /// How many operands the iteration has.
    pub fn operands(&self) -> usize {
        self.nop
    }

    /// How many elements the whole iteration visits (its iteration indices are `0..size`).
    pub fn size(&self) -> isize {
        self.size
    }

    /// The operands' byte strides along the inner axis, shared by every run.
    pub fn inner_strides(&self) -> &[isize; MAX_OPERANDS] {
        &self.strides[self.ndim - 1]
    }

    /// Restricts the iteration to the iteration indices `start..end` and goes to `start`.
    pub fn set_range(&mut self, start: isize, end: isize) -> Result<()> {
        if start < 0 || start > end || end > self.size {
            return Err(Error::Range { start, end, size: self.size });
        }
        self.end = end;
        self.seek(start);
        Ok(())
    }

    /// The next run, or `None` at the end of the range.
    #[inline]
    pub fn next_run(&mut self) -> Option<Run<P>> {
        if self.pos >= self.end {
            return None;
        }
        let inner = self.ndim - 1;
        let count = (self.hi[1] - self.index[inner]).min(self.end - self.pos);
        let run = Run { ptrs: self.ptrs, count };
        self.pos += count;
        if self.pos < self.end {
            self.advance(count);
        }
        Some(run)
    }

    /// Moves the state past a run of `count` elements, which ended its tile's row: to the
    /// tile's next row, else the next tile of its row of tiles, else the next row of tiles,
    /// else the next index of the outer axes.
    fn advance(&mut self, count: isize) {
        let (row, col) = (self.ndim - 2, self.ndim - 1);
        self.index[col] += count;
        self.step(col, count);
        if self.index[row] + 1 < self.hi[0] {
            self.index[row] += 1;
            self.step(row, 1);
            self.rewind(col, self.index[col] - self.lo[1]);
            self.index[col] = self.lo[1];
        } else if self.hi[1] < self.shape[col] {
            self.rewind(row, self.index[row] - self.lo[0]);
            self.index[row] = self.lo[0];
            self.lo[1] = self.hi[1];
            self.hi[1] = (self.lo[1] + self.tile[1]).min(self.shape[col]);
        } else {
            self.rewind(col, self.shape[col]);
            self.index[col] = 0;
            self.lo[1] = 0;
            self.hi[1] = self.tile[1].min(self.shape[col]);
            if self.hi[0] < self.shape[row] {
                self.index[row] += 1;
                self.step(row, 1);
            } else {
                self.rewind(row, self.shape[row] - 1);
                self.index[row] = 0;
                let mut axis = row;
                while axis > 0 {
                    axis -= 1;
                    self.index[axis] += 1;
                    self.step(axis, 1);
                    if self.index[axis] < self.shape[axis] {
                        break;
                    }
                    self.rewind(axis, self.shape[axis]);
                    self.index[axis] = 0;
                }
            }
            self.lo[0] = self.index[row];
            self.hi[0] = (self.lo[0] + self.tile[0]).min(self.shape[row]);
        }
    }

    /// Moves the addresses `n` steps on along `axis`.
    fn step(&mut self, axis: usize, n: isize) {
        for k in 0..self.nop {
            self.ptrs[k] = self.ptrs[k].byte_offset(n * self.strides[axis][k]);
        }
    }

    /// Moves the addresses `n` steps back along `axis`, from at most one past its end: (n - 1)
    /// strides, which the view's extent bounds, then one more, so that nothing overflows.
    fn rewind(&mut self, axis: usize, n: isize) {
        if n > 0 {
            self.step(axis, -(n - 1));
            self.step(axis, -1);
        }
    }

    /// Goes to iteration index `pos` (at most the size): the outer axes' indices, then the
    /// tile, the row and the column of the last two axes.
    fn seek(&mut self, pos: isize) {
        let (row, col) = (self.ndim - 2, self.ndim - 1);
        let (rows, cols) = (self.shape[row], self.shape[col]);
        self.pos = pos;
        self.ptrs = self.base;
        self.index = [0; MAX_DIMS];
        self.lo = [0; 2];
        self.hi = [self.tile[0].min(rows), self.tile[1].min(cols)];
        if self.size == 0 {
            return;
        }
        let plane = rows * cols;
        let mut rest = pos / plane;
        for axis in (0..row).rev() {
            self.index[axis] = rest % self.shape[axis];
            rest /= self.shape[axis];
        }
        // In the plane: whole rows of tiles, then whole tiles of this row of tiles, then rows.
        let mut r = pos % plane;
        self.lo[0] = r / (self.tile[0] * cols) * self.tile[0];
        self.hi[0] = (self.lo[0] + self.tile[0]).min(rows);
        let tile_rows = self.hi[0] - self.lo[0];
        r -= self.lo[0] * cols;
        self.lo[1] = r / (tile_rows * self.tile[1]) * self.tile[1];
        self.hi[1] = (self.lo[1] + self.tile[1]).min(cols);
        r -= self.lo[1] * tile_rows;
        let tile_cols = self.hi[1] - self.lo[1];
        self.index[row] = self.lo[0] + r / tile_cols;
        self.index[col] = self.lo[1] + r % tile_cols;
        for axis in 0..self.ndim {
            self.step(axis, self.index[axis]);
        }
    }

    /// Puts the axes in `order` (outermost first), turning negative strides around in K order
    /// where every operand allows it.
    fn arrange(&mut self, order: Order) {
        let n = self.ndim;
        match order {
            Order::C => {}
            Order::F => {
                self.shape[..n].reverse();
                self.strides[..n].reverse();
            }
            Order::K => {
                for axis in 0..n {
                    let s = &self.strides[axis][..self.nop];
                    if s.iter().all(|&x| x <= 0) && s.iter().any(|&x| x < 0) {
                        for k in 0..self.nop {
                            // the last element of the axis becomes the first
                            self.base[k] = self.base[k].byte_offset((self.shape[axis] - 1) * self.strides[axis][k]);
                            self.strides[axis][k] = -self.strides[axis][k];
                        }
                    }
                }
                // Insertion sort, outer axes first: an axis moves before another when some
                // operand strides it by more and none by less (operands that do not move along
                // either axis have no say); ties keep C order.
                for i in 1..n {
                    let mut j = i;
                    while j > 0 && self.outer_than(j, j - 1) {
                        self.shape.swap(j, j - 1);
                        self.strides.swap(j, j - 1);
                        j -= 1;
                    }
                }
            }
        }
    }

    /// Whether axis `a` should be walked outside axis `b` in K order.
    fn outer_than(&self, a: usize, b: usize) -> bool {
        let (mut more, mut less) = (false, false);
        for k in 0..self.nop {
            let (sa, sb) = (self.strides[a][k].unsigned_abs(), self.strides[b][k].unsigned_abs());
            if sa == 0 || sb == 0 {
                continue;
            }
            more |= sa > sb;
            less |= sa < sb;
        }
        more && !less
    }

    /// Merges each axis into the next inner one where every operand steps over the inner
    /// axis's whole length exactly as the outer axis moves (or one of them has length 1).
    fn coalesce(&mut self) {
        let mut out = 0; // axes kept so far, in place
        for axis in 0..self.ndim {
            if out > 0 {
                let prev = out - 1;
                let (outer_len, inner_len) = (self.shape[prev], self.shape[axis]);
                let merges = outer_len == 1
                    || inner_len == 1
                    || (0..self.nop).all(|k| self.strides[prev][k] == self.strides[axis][k] * inner_len);
                if merges {
                    // the merged axis steps as the inner one (as the outer one when the inner
                    // has length 1)
                    self.shape[prev] = outer_len * inner_len;
                    if inner_len != 1 {
                        self.strides[prev] = self.strides[axis];
                    }
                    continue;
                }
            }
            self.shape[out] = self.shape[axis];
            self.strides[out] = self.strides[axis];
            out += 1;
        }
        for axis in out..self.ndim {
            self.shape[axis] = 1;
            self.strides[axis] = [0; MAX_OPERANDS];
        }
        self.ndim = out;
    }

    /// Puts axes of length 1 before the others until there are two (a 0-d iteration is one
    /// run of one element), and makes the tiles whole rows.
    fn pad(&mut self) {
        let missing = 2usize.saturating_sub(self.ndim);
        self.shape.copy_within(0..self.ndim, missing);
        self.strides.copy_within(0..self.ndim, missing);
        self.shape[..missing].fill(1);
        self.strides[..missing].fill([0; MAX_OPERANDS]);
        self.ndim += missing;
        self.tile = [1, self.shape[self.ndim - 1].max(1)];
    }

    /// Tiles the iteration when an operand steps across cache lines along the inner axis and
    /// more finely along another (`copy::transposed_axis`), and the inner axis is long (see
    /// `TILE_MIN_ROW_LINES`): that axis moves next to the inner one, and the two are walked in
    /// tiles.
    fn tiles(&mut self) {
        let n = self.ndim;
        if self.shape[n - 1] <= TILE_MIN_ROW_LINES {
            return;
        }
        let axis = (0..self.nop).find_map(|k| {
            let mut strides = [0; MAX_DIMS];
            for (axis, s) in strides[..n].iter_mut().enumerate() {
                *s = self.strides[axis][k];
            }
            transposed_axis(&strides[..n]).map(|axis| (k, axis))
        });
        let Some((k, axis)) = axis else { return };
        let rows = (TILE_ROW_BYTES / self.strides[axis][k].abs()).max(1);
        if self.shape[axis] < 2 * rows {
            return;
        }
        self.shape[axis..n - 1].rotate_left(1);
        self.strides[axis..n - 1].rotate_left(1);
        self.tile = [rows, TILE_COLS];
    }
}

fn check_flags(operand: usize, flags: u32) -> Result<()> {
    let access = flags & (READ | WRITE);
    if flags & !(READ | WRITE | REDUCE) != 0 || access == 0 || (flags & REDUCE != 0 && flags & WRITE == 0) {
        return Err(Error::Flags { operand, flags });
    }
    Ok(())
}

/// The operands' shapes broadcast together (NumPy's rules), aligned on the last axis, and its
/// number of dimensions.
fn broadcast_shape<P: Addr>(ops: &[Operand<P>]) -> Result<([isize; MAX_DIMS], usize)> {
    let ndim = ops.iter().map(|op| op.view.ndim()).max().unwrap_or(0);
    let mut shape = [1isize; MAX_DIMS];
    for op in ops {
        let skip = ndim - op.view.ndim();
        for axis in 0..op.view.ndim() {
            let (n, have) = (op.view.shape()[axis], &mut shape[axis + skip]);
            if n == *have || n == 1 {
                continue;
            }
            if *have == 1 {
                *have = n;
            } else {
                let mut shapes = [Shape::new(&[]); MAX_OPERANDS];
                for (k, o) in ops.iter().enumerate() {
                    shapes[k] = Shape::of(&o.view);
                }
                return Err(Error::NotBroadcastable { shapes, nop: ops.len() });
            }
        }
    }
    Ok((shape, ndim))
}

/// Refuses a written operand that shares memory with another operand, unless both walk the
/// same elements in the same way (in place). Exact (`view::shares_memory`: interleaved views that
/// share no element pass); a search past its work bound counts as sharing.
fn check_overlap<P: Addr>(ops: &[Operand<P>], it: &Iter<P>) -> Result<()> {
    if it.shape[..it.ndim].contains(&0) {
        return Ok(());
    }
    for (w, ow) in ops.iter().enumerate().filter(|(_, op)| op.flags & WRITE != 0) {
        for (o, other) in ops.iter().enumerate().filter(|&(o, _)| o != w) {
            let same = ow.view.data().position() == other.view.data().position()
                && ow.itemsize == other.itemsize
                && (0..it.ndim).all(|axis| it.strides[axis][w] == it.strides[axis][o]);
            if !same && view::shares_memory(&ow.view, ow.itemsize, &other.view, other.itemsize, None)? != Overlap::No {
                return Err(Error::Overlap { written: w, other: o });
            }
        }
    }
    Ok(())
}

/// A shape, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    ndim: usize,
    shape: [isize; MAX_DIMS],
}

impl Shape {
    fn new(shape: &[isize]) -> Self {
        let mut s = Shape { ndim: shape.len(), shape: [0; MAX_DIMS] };
        s.shape[..shape.len()].copy_from_slice(shape);
        s
    }

    fn of<P: Addr>(v: &View<P>) -> Self {
        Shape::new(&v.shape()[..v.ndim()])
    }
}

impl fmt::Display for Shape {
    /// As Python writes a tuple: `(2, 3)`, `(4,)`, `()`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(")?;
        for (i, n) in self.shape[..self.ndim].iter().enumerate() {
            write!(f, "{}{n}", if i > 0 { ", " } else { "" })?;
        }
        write!(f, "{})", if self.ndim == 1 { "," } else { "" })
    }
}

/// Why an iteration cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// An operand's view is invalid (indirect, a bad item size, spans that overflow).
    View(view::Error),
    /// Not 1 to `MAX_OPERANDS` operands.
    Operands { count: usize },
    /// Unknown flag bits, neither read nor write, or `REDUCE` on an operand not written.
    Flags { operand: usize, flags: u32 },
    /// An order other than 'K', 'C' or 'F'.
    Order { order: i32 },
    /// Shapes that do not broadcast together.
    NotBroadcastable { shapes: [Shape; MAX_OPERANDS], nop: usize },
    /// A written operand broadcast without `REDUCE`.
    WriteBroadcast { operand: usize, shape: Shape, to: Shape },
    /// A written operand sharing memory with another operand, other than in place.
    Overlap { written: usize, other: usize },
    /// A range outside `0..=size`, or reversed.
    Range { start: isize, end: isize, size: isize },
}

/// The status families of [`Error`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    View(view::Kind),
    Value,
    Shape,
    Broadcast,
    Overlap,
}

impl Error {
    pub fn kind(&self) -> Kind {
        match self {
            Error::View(e) => Kind::View(e.kind()),
            Error::Operands { .. } | Error::Flags { .. } | Error::Order { .. } | Error::Range { .. } => Kind::Value,
            Error::NotBroadcastable { .. } => Kind::Shape,
            Error::WriteBroadcast { .. } => Kind::Broadcast,
            Error::Overlap { .. } => Kind::Overlap,
        }
    }
}

impl From<view::Error> for Error {
    fn from(e: view::Error) -> Self {
        Error::View(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::View(e) => e.fmt(f),
            Error::Operands { count } => write!(f, "{count} operands; an iteration takes 1 to {MAX_OPERANDS}"),
            Error::Flags { operand, flags } => write!(
                f,
                "operand {operand} has flags {flags:#x}: READ (1), WRITE (2) or both, and REDUCE (4) only with WRITE"
            ),
            Error::Order { order } => write!(f, "order {order} is none of 'K' (75), 'C' (67) and 'F' (70)"),
            Error::NotBroadcastable { shapes, nop } => {
                write!(f, "operands could not be broadcast together with shapes")?;
                for s in &shapes[..*nop] {
                    write!(f, " {s}")?;
                }
                Ok(())
            }
            Error::WriteBroadcast { operand, shape, to } => write!(
                f,
                "operand {operand} is written but its shape {shape} is broadcast to {to}: \
                 a reduction into it needs the REDUCE flag"
            ),
            Error::Overlap { written, other } => write!(
                f,
                "operand {written} is written and shares memory with operand {other} \
                 (only the very same view, in place, may)"
            ),
            Error::Range { start, end, size } => {
                write!(f, "range {start}..{end} is not within the iteration's 0..{size}")
            }
        }
    }
}

pub type Result<T> = core::result::Result<T, Error>;
