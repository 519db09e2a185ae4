//! Owned memory, the safe part: the layout arithmetic of buffers and pool slabs, the buffers'
//! reference counts and attachments ([`Ownership`]), and the pool's lock-free bookkeeping
//! ([`FreeList`]). Knows nothing of C; addresses are plain integers here,
//! and the C layer (`crate::ffi::buffer`, `crate::ffi::pool`) does the allocating.

pub mod blocks;
mod cache;
mod freelist;
mod ownership;
mod thread_slot;

use core::alloc::Layout;
use core::fmt;

pub use freelist::FreeList;
pub use ownership::Ownership;
#[allow(unused_imports)] // used only where the C layer cannot read the thread pointer
pub use thread_slot::this_thread;

/// Alignment, and least spacing, of the arrays of a pool: a cache line, so that arrays used by
/// different threads never share one, and any SIMD type fits.
pub const POOL_ALIGN: usize = 64;

/// Everything the ownership layer can refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A negative byte count.
    NegativeSize { nbytes: isize },
    /// An alignment that is not a power of two.
    Alignment { alignment: isize },
    /// Flag bits the function does not know.
    Flags { flags: i32, allowed: i32 },
    /// A negative pool capacity.
    Capacity { capacity: isize },
    /// A block of `nbytes` bytes aligned to `alignment` (with its header, or `count` arrays of a
    /// pool) is larger than `isize::MAX` bytes.
    TooLarge,
    /// A reference count at its limit.
    RefCount,
    /// A pool would hold more than `max` arrays.
    TooManyArrays { max: usize },
    /// The allocator refused `nbytes` bytes aligned to `alignment`.
    Alloc { nbytes: usize, alignment: usize },
    /// A view of `bytes` bytes at byte `offset` does not fit in a buffer of `have` bytes.
    ViewTooLarge { bytes: isize, offset: isize, have: isize },
    /// The view's memview is NULL: it carries no buffer.
    NoBuffer,
    /// The view's data address is not an array of this pool.
    NotFromPool,
    /// The view's array is not acquired: released twice, or never handed out.
    NotAcquired,
    /// A writable view of a read-only buffer was requested.
    ReadOnly,
    /// A negative offset into a buffer.
    NegativeOffset { offset: isize },
    /// An offset of `offset` items of `itemsize` bytes does not fit in `isize`.
    OffsetOverflow { offset: isize, itemsize: isize },
    /// A pool's arrays are not what the caller asked for.
    PoolLayout { want: ArrayLayout, have: ArrayLayout },
}

/// What a pool's arrays are: their item size, number of dimensions and order (`b'C'` or
/// `b'F'`, `b'A'` for arrays of 0 or 1 dimensions, which are both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayLayout {
    pub itemsize: isize,
    pub ndim: usize,
    pub order: u8,
}

impl ArrayLayout {
    /// Whether arrays of this layout are also arrays of `want`'s.
    pub fn satisfies(&self, want: &ArrayLayout) -> bool {
        self.itemsize == want.itemsize
            && self.ndim == want.ndim
            && (self.order == want.order || self.order == b'A' || want.order == b'A')
    }
}

impl fmt::Display for ArrayLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let order = match self.order {
            b'A' => String::new(),
            o => format!(", {}-contiguous", o as char),
        };
        write!(f, "{}-d arrays of {}-byte items{order}", self.ndim, self.itemsize)
    }
}

/// The class of an error; one status code per class in the C API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Shape,
    Value,
    Overflow,
    Alloc,
    Bounds,
}

impl Error {
    pub fn kind(&self) -> Kind {
        use Error::*;
        match self {
            NegativeSize { .. } => Kind::Shape,
            NegativeOffset { .. } => Kind::Shape,
            Alignment { .. }
            | Flags { .. }
            | Capacity { .. }
            | NoBuffer
            | NotFromPool
            | NotAcquired
            | ReadOnly
            | PoolLayout { .. } => Kind::Value,
            TooLarge | RefCount | TooManyArrays { .. } | OffsetOverflow { .. } => Kind::Overflow,
            Alloc { .. } => Kind::Alloc,
            ViewTooLarge { .. } => Kind::Bounds,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Error::*;
        match *self {
            NegativeSize { nbytes } => write!(f, "byte count {nbytes} is negative"),
            Alignment { alignment } => write!(f, "alignment {alignment} is not a power of two"),
            Flags { flags, allowed } => {
                write!(f, "flags {flags:#x} have bits outside the allowed {allowed:#x}")
            }
            Capacity { capacity } => write!(f, "pool capacity {capacity} is negative"),
            TooLarge => write!(f, "the block would be larger than PTRDIFF_MAX bytes"),
            RefCount => write!(f, "the reference count is at its limit (PTRDIFF_MAX)"),
            TooManyArrays { max } => write!(f, "a pool can hold at most {max} arrays"),
            Alloc { nbytes, alignment } => write!(f, "allocation of {nbytes} bytes aligned to {alignment} failed"),
            ViewTooLarge { bytes, offset: 0, have } => {
                write!(f, "a view of {bytes} bytes does not fit in a buffer of {have} bytes")
            }
            ViewTooLarge { bytes, offset, have } => write!(
                f,
                "a view of {bytes} bytes at byte offset {offset} (ending at byte {}) does not fit in a buffer of {have} bytes",
                bytes.saturating_add(offset)
            ),
            NoBuffer => write!(f, "the view's memview is NULL: it carries no buffer"),
            NotFromPool => write!(f, "the view's data address is not the start of an array of this pool"),
            NotAcquired => write!(f, "the view's array is not acquired from this pool (released twice?)"),
            ReadOnly => write!(f, "the buffer is read-only; a writable view of it was requested"),
            NegativeOffset { offset } => write!(f, "offset {offset} is negative"),
            OffsetOverflow { offset, itemsize } => {
                write!(f, "offset {offset} items of {itemsize} bytes is more than PTRDIFF_MAX bytes")
            }
            PoolLayout { want, have } => write!(f, "the pool holds {have}; {want} were requested"),
        }
    }
}

pub type Result<T> = core::result::Result<T, Error>;

/// Checks `flags` against the `allowed` bits.
pub fn check_flags(flags: i32, allowed: i32) -> Result<()> {
    if flags & !allowed == 0 {
        Ok(())
    } else {
        Err(Error::Flags { flags, allowed })
    }
}

/// An offset of `offset` items of `itemsize` (> 0) bytes, in bytes, checked.
pub fn offset_bytes(offset: isize, itemsize: isize) -> Result<isize> {
    if offset < 0 {
        return Err(Error::NegativeOffset { offset });
    }
    offset.checked_mul(itemsize).ok_or(Error::OffsetOverflow { offset, itemsize })
}

/// The layout of `nbytes` bytes aligned to `alignment` (a power of two), checked.
pub fn data_layout(nbytes: isize, alignment: isize) -> Result<Layout> {
    if nbytes < 0 {
        return Err(Error::NegativeSize { nbytes });
    }
    if alignment <= 0 || (alignment as usize).count_ones() != 1 {
        return Err(Error::Alignment { alignment });
    }
    Layout::from_size_align(nbytes as usize, alignment as usize).map_err(|_| Error::TooLarge)
}

/// The alignment the system allocator (`malloc`) gives every block on the 64-bit targets the
/// library builds for, and the alignment of a block's header.
pub(crate) const SYSTEM_ALIGN: usize = 16;

/// Data aligned to at most this many bytes goes in a block from `malloc`, with room to align
/// it there: at most this much less `SYSTEM_ALIGN` is wasted, and `malloc` is several times
/// faster than `aligned_alloc` (glibc: 8 ns against 50 for 72 bytes at 64). Larger alignments
/// ask the allocator for them.
pub(crate) const SLACK_ALIGN_MAX: usize = 256;

/// One block from the system allocator holding a header, then data of a given layout: what to
/// ask the allocator for, and where the data and the header go in what it returns. The data
/// starts at the first address aligned for it at least a header's room after the block's
/// start, and the header ends where the data starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// What to ask the allocator for (and give back to it).
    pub layout: Layout,
    /// The header's room: its size rounded up to `SYSTEM_ALIGN`.
    header: usize,
    data_align: usize,
}

impl Block {
    /// The block for a header of layout `header` (alignment at most `SYSTEM_ALIGN`) and `data`.
    #[inline]
    pub fn new(header: Layout, data: Layout) -> Result<Block> {
        debug_assert!(header.align() <= SYSTEM_ALIGN);
        let room = round_up(header.size(), SYSTEM_ALIGN);
        let align = data.align();
        // Between the header's room and the data: nothing when the allocator's alignment is
        // enough, else the slack to align the data in a block from `malloc`, else the room
        // rounded up to the data's alignment, in a block aligned as the data.
        let (lead, block_align) = if align <= SYSTEM_ALIGN {
            (room, SYSTEM_ALIGN)
        } else if align <= SLACK_ALIGN_MAX {
            (room + align - SYSTEM_ALIGN, SYSTEM_ALIGN)
        } else {
            (round_up(room, align), align)
        };
        let size = lead.checked_add(data.size()).ok_or(Error::TooLarge)?;
        let layout = Layout::from_size_align(size, block_align).map_err(|_| Error::TooLarge)?;
        Ok(Block { layout, header: room, data_align: align })
    }

    /// The data's address in the block that starts at `base` (aligned to `layout.align()`).
    #[inline]
    pub fn data(&self, base: usize) -> usize {
        round_up(base + self.header, self.data_align)
    }

    /// The header's address in the block that starts at `base`: the header's room before the
    /// data, aligned to `SYSTEM_ALIGN`.
    #[inline]
    pub fn header(&self, base: usize) -> usize {
        self.data(base) - self.header
    }
}

/// `n` rounded up to a multiple of `align`, a power of two, where that does not overflow.
#[inline]
fn round_up(n: usize, align: usize) -> usize {
    (n + (align - 1)) & !(align - 1)
}

/// The spacing of the arrays of a pool whose arrays have `array_bytes` bytes: a multiple of
/// [`POOL_ALIGN`], at least one (so that zero-size arrays still have distinct addresses).
pub fn pool_slot_bytes(array_bytes: usize) -> Result<usize> {
    let rounded = array_bytes.checked_next_multiple_of(POOL_ALIGN).ok_or(Error::TooLarge)?;
    let slot = rounded.max(POOL_ALIGN);
    if slot > isize::MAX as usize {
        return Err(Error::TooLarge);
    }
    Ok(slot)
}

/// The layout of a slab of `count` arrays spaced `slot_bytes` apart.
pub fn slab_layout(slot_bytes: usize, count: usize) -> Result<Layout> {
    let size = slot_bytes.checked_mul(count).ok_or(Error::TooLarge)?;
    Layout::from_size_align(size, POOL_ALIGN).map_err(|_| Error::TooLarge)
}

#[cfg(test)]
mod tests;
