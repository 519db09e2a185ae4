//! Errors of the view arithmetic. Each carries the numbers its message needs, so formatting
//! never allocates, and maps to one [`Kind`], which the C layer turns into a status code.

use core::fmt;

/// The class of an error; one status code per class in the C API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ndim,
    Axis,
    Itemsize,
    Shape,
    Index,
    Step,
    Overflow,
    NeedsCopy,
    Indirect,
    Bounds,
    Broadcast,
    NotContiguous,
    Value,
}

/// Everything the view arithmetic can refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// `ndim` outside `0..=8`.
    Ndim {
        ndim: isize,
    },
    /// The result would have more than 8 dimensions.
    TooManyDims {
        ndim: usize,
    },
    /// The operation needs at least `min` dimensions.
    TooFewDims {
        ndim: usize,
        min: usize,
    },
    /// Axis out of range for a view of `ndim` dimensions.
    Axis {
        axis: isize,
        ndim: usize,
    },
    /// The same axis named twice.
    RepeatedAxis {
        axis: usize,
    },
    Itemsize {
        itemsize: isize,
    },
    /// A negative extent along an axis (of a shape argument or of a source view).
    NegativeDim {
        axis: usize,
        len: isize,
    },
    /// A negative byte count.
    NegativeSize {
        size: isize,
    },
    /// A reshape target whose item count differs from the source's.
    SizeMismatch {
        from: isize,
        to: isize,
    },
    /// More than one negative (unknown) extent in a reshape target.
    MultipleUnknown,
    /// `-1` in a reshape target whose other entries multiply to zero.
    UnknownWithZero,
    /// An index out of range: `index` as given, `len` the extent of `axis`.
    Index {
        index: isize,
        axis: usize,
        len: isize,
    },
    TooManyIndices {
        ndim: usize,
        given: usize,
    },
    MultipleEllipsis,
    StepZero,
    /// A window step that is not positive.
    WindowStep {
        step: isize,
    },
    Overflow,
    NeedsCopy,
    /// An indirect (suboffset >= 0) dimension the operation cannot handle.
    Indirect {
        axis: usize,
    },
    /// An offset behind indirect `axis` would make its suboffset negative.
    NegativeSuboffset {
        axis: usize,
    },
    OutOfBounds,
    /// A subview of `need` items from `offset` does not fit in `have` items.
    SubviewTooLarge {
        offset: isize,
        need: isize,
        have: isize,
    },
    NegativeOffset {
        offset: isize,
    },
    /// Source axis `axis` of extent `from` cannot broadcast to `to`.
    Broadcast {
        axis: usize,
        from: isize,
        to: isize,
    },
    BroadcastRank {
        from: usize,
        to: usize,
    },
    NotContiguous,
    Order {
        order: i32,
    },
    Rule {
        rule: i32,
    },
    ItemKind {
        position: usize,
        kind: i32,
    },
    Count {
        what: &'static str,
        count: isize,
    },
    NotSqueezable {
        axis: usize,
        len: isize,
    },
    Window {
        window: isize,
        axis: usize,
        len: isize,
    },
    UnevenSplit {
        len: isize,
        sections: isize,
    },
    Sections {
        sections: isize,
    },
    /// A change of item size asked of a 0-d view (NumPy supports it only for an equal size).
    ItemsizeOf0d {
        itemsize: isize,
        new_itemsize: isize,
    },
    /// A change of item size on a view whose last axis (`axis`) is not contiguous: neither of
    /// stride `itemsize`, nor of extent 1, nor in an empty view.
    LastAxisNotContiguous {
        axis: usize,
        stride: isize,
        itemsize: isize,
    },
    /// A smaller item size that does not divide the original one.
    SmallerItemsize {
        itemsize: isize,
        new_itemsize: isize,
    },
    /// A larger item size that does not divide the bytes of the last axis, `len` items of
    /// `itemsize` bytes.
    LargerItemsize {
        len: isize,
        itemsize: isize,
        new_itemsize: isize,
    },
}

impl Error {
    pub fn kind(&self) -> Kind {
        use Error::*;
        match self {
            Ndim { .. } | TooManyDims { .. } | TooFewDims { .. } | ItemsizeOf0d { .. } => Kind::Ndim,
            Axis { .. } | RepeatedAxis { .. } => Kind::Axis,
            Itemsize { .. } => Kind::Itemsize,
            NegativeDim { .. }
            | NegativeSize { .. }
            | SizeMismatch { .. }
            | MultipleUnknown
            | UnknownWithZero
            | NotSqueezable { .. } => Kind::Shape,
            Index { .. } | TooManyIndices { .. } | MultipleEllipsis => Kind::Index,
            StepZero | WindowStep { .. } => Kind::Step,
            Overflow => Kind::Overflow,
            NeedsCopy => Kind::NeedsCopy,
            Indirect { .. } | NegativeSuboffset { .. } => Kind::Indirect,
            OutOfBounds | SubviewTooLarge { .. } | NegativeOffset { .. } => Kind::Bounds,
            Broadcast { .. } | BroadcastRank { .. } => Kind::Broadcast,
            NotContiguous | LastAxisNotContiguous { .. } => Kind::NotContiguous,
            Order { .. }
            | Rule { .. }
            | ItemKind { .. }
            | Count { .. }
            | Window { .. }
            | UnevenSplit { .. }
            | Sections { .. }
            | SmallerItemsize { .. }
            | LargerItemsize { .. } => Kind::Value,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Error::*;
        match *self {
            Ndim { ndim } => write!(f, "ndim {ndim} is outside 0..=8"),
            TooManyDims { ndim } => {
                write!(f, "the result would have {ndim} dimensions; at most 8 are supported")
            }
            TooFewDims { ndim, min } => write!(f, "the operation needs at least {min} dimensions; the view has {ndim}"),
            Axis { axis, ndim } => write!(f, "axis {axis} is out of bounds for a view of {ndim} dimensions"),
            RepeatedAxis { axis } => write!(f, "axis {axis} is given more than once"),
            Itemsize { itemsize } => write!(f, "itemsize {itemsize} is not positive"),
            NegativeDim { axis, len } => write!(f, "extent {len} of axis {axis} is negative"),
            NegativeSize { size } => write!(f, "byte count {size} is negative"),
            SizeMismatch { from, to } => write!(f, "cannot reshape a view of {from} items into a shape of {to} items"),
            MultipleUnknown => write!(f, "a shape can have only one unknown (negative) extent"),
            UnknownWithZero => write!(f, "cannot infer the unknown (-1) extent when the other extents multiply to 0"),
            Index { index, axis, len } => write!(f, "index {index} is out of range for axis {axis} of size {len}"),
            TooManyIndices { ndim, given } => {
                write!(f, "too many indices: the view has {ndim} dimensions, but {given} were indexed")
            }
            MultipleEllipsis => write!(f, "an index can only have a single ellipsis"),
            StepZero => write!(f, "slice step cannot be zero"),
            WindowStep { step } => write!(f, "window step {step} is not positive"),
            Overflow => write!(f, "arithmetic on the view's extents or strides overflows ptrdiff_t"),
            NeedsCopy => write!(f, "the view's strides do not allow this reshape without a copy"),
            Indirect { axis } => {
                write!(f, "axis {axis} is indirect (suboffset >= 0), which this operation does not support")
            }
            NegativeSuboffset { axis } => write!(
                f,
                "the offset would make the suboffset of indirect axis {axis} negative, which PEP 3118 reads as direct"
            ),
            OutOfBounds => write!(f, "the view addresses bytes outside the given extent"),
            SubviewTooLarge { offset, need, have } => {
                write!(f, "a subview of {need} items at item {offset} does not fit in a source of {have} items")
            }
            NegativeOffset { offset } => write!(f, "item offset {offset} is negative"),
            Broadcast { axis, from, to } => {
                write!(f, "axis {axis} of extent {from} cannot be broadcast to extent {to}")
            }
            BroadcastRank { from, to } => {
                write!(f, "cannot broadcast a view of {from} dimensions to a shape of {to} dimensions")
            }
            NotContiguous => write!(f, "the source view is not contiguous"),
            Order { order } => write!(f, "order {order} is neither 'C' (67) nor 'F' (70)"),
            Rule { rule } => write!(f, "contiguity rule {rule} is unknown"),
            ItemKind { position, kind } => {
                write!(f, "index item {position} has unknown kind {kind}")
            }
            Count { what, count } => write!(f, "{what} {count} is out of range"),
            NotSqueezable { axis, len } => {
                write!(f, "cannot squeeze axis {axis} of extent {len}; it must be 1")
            }
            Window { window, axis, len } => write!(f, "window {window} does not fit in axis {axis} of extent {len}"),
            UnevenSplit { len, sections } => {
                write!(f, "an axis of extent {len} does not split into {sections} equal sections")
            }
            Sections { sections } => write!(f, "number of sections {sections} is not positive"),
            ItemsizeOf0d { itemsize, new_itemsize } => write!(
                f,
                "changing the item size of a 0-d view is only supported if it is unchanged \
                 ({itemsize} bytes, not {new_itemsize})"
            ),
            LastAxisNotContiguous { axis, stride, itemsize } => write!(
                f,
                "to change the item size, the last axis must be contiguous: axis {axis} has stride \
                 {stride}, not the item size {itemsize}"
            ),
            SmallerItemsize { itemsize, new_itemsize } => write!(
                f,
                "when changing to a smaller item size, it must divide the original one: \
                 {new_itemsize} does not divide {itemsize}"
            ),
            LargerItemsize { len, itemsize, new_itemsize } => write!(
                f,
                "when changing to a larger item size, it must divide the bytes of the last axis: \
                 {new_itemsize} does not divide {len} items of {itemsize} bytes"
            ),
        }
    }
}

pub type Result<T> = core::result::Result<T, Error>;
