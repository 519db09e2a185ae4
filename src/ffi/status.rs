//! Status codes, their static descriptions, and the thread-local message of the last failure.

use core::cell::RefCell;
use core::ffi::{c_char, c_int, CStr};
use core::fmt::{self, Write};

use crate::view::{Error, Kind};
use crate::{copy, dlpack, iter, memory};

/// The result of every fallible function: `MVS_OK` (0) or one of the `MVS_ERR_*` codes.
pub type mvs_status = c_int;

/// Success.
pub const MVS_OK: mvs_status = 0;
/// A required pointer argument is NULL.
pub const MVS_ERR_NULL: mvs_status = 1;
/// `ndim` is outside 0..=8, the result would have more than 8 dimensions, or the operation
/// needs more dimensions than the view has (a 0-d view given another item size, too).
pub const MVS_ERR_NDIM: mvs_status = 2;
/// An axis is out of range, or the same axis is named twice.
pub const MVS_ERR_AXIS: mvs_status = 3;
/// `itemsize` is not positive.
pub const MVS_ERR_ITEMSIZE: mvs_status = 4;
/// A negative extent or byte count, a reshape to a different item count, a bad `-1`, or a
/// squeeze of an axis whose extent is not 1.
pub const MVS_ERR_SHAPE: mvs_status = 5;
/// An index is out of range, there are more indices than dimensions, or more than one ellipsis
/// (Python's `IndexError`).
pub const MVS_ERR_INDEX: mvs_status = 6;
/// A slice step of 0, or a window step that is not positive.
pub const MVS_ERR_STEP: mvs_status = 7;
/// Arithmetic on extents, strides or offsets would overflow `ptrdiff_t`; a buffer or pool
/// would be larger than `PTRDIFF_MAX` bytes or a pool hold more than 2^32 - 1 arrays; a
/// buffer's reference count is at its limit.
pub const MVS_ERR_OVERFLOW: mvs_status = 8;
/// The reshape is valid but impossible without copying the data.
pub const MVS_ERR_NEEDS_COPY: mvs_status = 9;
/// The view has an indirect dimension (suboffset >= 0) that the operation does not support, or
/// an offset behind an indirect dimension would make its suboffset negative.
pub const MVS_ERR_INDIRECT: mvs_status = 10;
/// The view addresses bytes outside the given extent, a subview does not fit its source, or a
/// view does not fit its buffer.
pub const MVS_ERR_BOUNDS: mvs_status = 11;
/// The shapes cannot be broadcast together.
pub const MVS_ERR_BROADCAST: mvs_status = 12;
/// The operation needs a contiguous source (`mvs_subview`), or a contiguous last axis
/// (`mvs_view_as`, for another item size).
pub const MVS_ERR_NOT_CONTIGUOUS: mvs_status = 13;
/// Another argument is invalid: an unknown order, rule or item kind, a count out of range, a
/// window larger than its axis, sections that do not divide an axis, an item size that does
/// not divide the old one or the last axis's bytes (`mvs_view_as`); an alignment that is
/// not a power of two, unknown flag bits, a negative pool capacity, a view that carries no
/// buffer, a view released to a pool that did not hand it out or released twice.
pub const MVS_ERR_VALUE: mvs_status = 14;
/// An internal error (a bug in the library); the message carries the panic's message.
pub const MVS_ERR_INTERNAL: mvs_status = 15;
/// Memory allocation failed (only the functions that allocate: buffers and pools).
pub const MVS_ERR_ALLOC: mvs_status = 16;
/// A DLPack tensor is not on the CPU (`kDLCPU`), or names a device type DLPack does not know.
pub const MVS_ERR_DEVICE: mvs_status = 17;
/// A DLPack item type the library cannot view: an unknown type code, a sub-byte width or one
/// that does not suit the code, or a vector type (lanes != 1).
pub const MVS_ERR_DTYPE: mvs_status = 18;
/// A DLPack tensor of a major version other than `MVS_DLPACK_MAJOR_VERSION`.
pub const MVS_ERR_VERSION: mvs_status = 19;
/// A written operand of an iteration shares memory with another operand, other than as the
/// very same view (in place).
pub const MVS_ERR_OVERLAP: mvs_status = 20;
/// A producer's function failed (`mvs_dlpack_import_object`: a Python producer has set an
/// exception, which is the error to raise).
pub const MVS_ERR_PRODUCER: mvs_status = 21;

/// Why an exported function failed: a view error, or one only the C layer can see.
#[derive(Debug)]
pub(crate) enum Failure {
    View(Error),
    Own(memory::Error),
    /// A copy's own refusal (never `copy::Error::View` or `Alloc`, which map to the above).
    Copy(copy::Error),
    /// A DLPack refusal (never `dlpack::Error::View`, which maps to `View`).
    DLPack(dlpack::Error),
    /// A refusal whose message is recorded already (an iteration's: `iter_failure`), with its
    /// status.
    Recorded(mvs_status),
    Null(&'static str),
    /// A producer's function (DLPack's exchange API) returned `rc`.
    Producer { function: &'static str, rc: c_int },
    /// A panic (a bug), with its message.
    Panic(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::View(e)
    }
}

impl From<memory::Error> for Failure {
    fn from(e: memory::Error) -> Self {
        Failure::Own(e)
    }
}

impl From<copy::Error> for Failure {
    fn from(e: copy::Error) -> Self {
        match e {
            copy::Error::View(e) => Failure::View(e),
            copy::Error::Alloc { nbytes } => {
                Failure::Own(memory::Error::Alloc { nbytes, alignment: memory::POOL_ALIGN })
            }
            e => Failure::Copy(e),
        }
    }
}

impl From<dlpack::Error> for Failure {
    fn from(e: dlpack::Error) -> Self {
        match e {
            dlpack::Error::View(e) => Failure::View(e),
            e => Failure::DLPack(e),
        }
    }
}

impl Failure {
    pub(crate) fn status(&self) -> mvs_status {
        match self {
            Failure::Null(_) => MVS_ERR_NULL,
            Failure::Producer { .. } => MVS_ERR_PRODUCER,
            Failure::Panic(_) => MVS_ERR_INTERNAL,
            Failure::Copy(_) => MVS_ERR_VALUE,
            Failure::DLPack(e) => match e.kind() {
                dlpack::Kind::Version => MVS_ERR_VERSION,
                dlpack::Kind::Device => MVS_ERR_DEVICE,
                dlpack::Kind::Dtype => MVS_ERR_DTYPE,
                dlpack::Kind::Null => MVS_ERR_NULL,
                dlpack::Kind::Ndim => MVS_ERR_NDIM,
                dlpack::Kind::Shape => MVS_ERR_SHAPE,
                dlpack::Kind::Overflow => MVS_ERR_OVERFLOW,
                dlpack::Kind::Value => MVS_ERR_VALUE,
            },
            Failure::Recorded(status) => *status,
            Failure::Own(e) => match e.kind() {
                memory::Kind::Shape => MVS_ERR_SHAPE,
                memory::Kind::Value => MVS_ERR_VALUE,
                memory::Kind::Overflow => MVS_ERR_OVERFLOW,
                memory::Kind::Alloc => MVS_ERR_ALLOC,
                memory::Kind::Bounds => MVS_ERR_BOUNDS,
            },
            Failure::View(e) => match e.kind() {
                Kind::Ndim => MVS_ERR_NDIM,
                Kind::Axis => MVS_ERR_AXIS,
                Kind::Itemsize => MVS_ERR_ITEMSIZE,
                Kind::Shape => MVS_ERR_SHAPE,
                Kind::Index => MVS_ERR_INDEX,
                Kind::Step => MVS_ERR_STEP,
                Kind::Overflow => MVS_ERR_OVERFLOW,
                Kind::NeedsCopy => MVS_ERR_NEEDS_COPY,
                Kind::Indirect => MVS_ERR_INDIRECT,
                Kind::Bounds => MVS_ERR_BOUNDS,
                Kind::Broadcast => MVS_ERR_BROADCAST,
                Kind::NotContiguous => MVS_ERR_NOT_CONTIGUOUS,
                Kind::Value => MVS_ERR_VALUE,
            },
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::View(e) => e.fmt(f),
            Failure::Own(e) => e.fmt(f),
            Failure::Copy(e) => e.fmt(f),
            Failure::DLPack(e) => e.fmt(f),
            Failure::Recorded(status) => write!(f, "status {status}"),
            Failure::Null(name) => write!(f, "argument `{name}` is NULL"),
            Failure::Producer { function, rc: 0 } => {
                write!(f, "the producer's {function} returned 0 but no tensor")
            }
            Failure::Producer { function, rc } => write!(
                f,
                "the producer's {function} failed (returned {rc}): a Python producer has set an exception"
            ),
            Failure::Panic(message) => {
                write!(f, "internal error: the library panicked: {message} (please report this)")
            }
        }
    }
}

const MESSAGE_CAPACITY: usize = 256;

thread_local! {
    /// The last failure's message on this thread, NUL-terminated.
    static LAST_ERROR: RefCell<[u8; MESSAGE_CAPACITY]> = const {
        RefCell::new(initial_message())
    };
}

const fn initial_message() -> [u8; MESSAGE_CAPACITY] {
    let mut buf = [0u8; MESSAGE_CAPACITY];
    let text = b"no error";
    let mut i = 0;
    while i < text.len() {
        buf[i] = text[i];
        i += 1;
    }
    buf
}

/// Writes into a fixed buffer, truncating, keeping room for the final NUL.
struct Truncating<'a> {
    buf: &'a mut [u8; MESSAGE_CAPACITY],
    len: usize,
}

impl Write for Truncating<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = MESSAGE_CAPACITY - 1 - self.len;
        let n = s.len().min(room);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

/// Records `failure` as this thread's last error and returns its status code.
#[cold]
#[inline(never)]
pub(crate) fn record(failure: &Failure) -> mvs_status {
    match failure {
        Failure::Recorded(status) => *status,
        _ => record_message(failure.status(), failure),
    }
}

/// Records `message` as this thread's last error and returns `status`.
#[cold]
#[inline(never)]
pub(crate) fn record_message(status: mvs_status, message: &dyn fmt::Display) -> mvs_status {
    LAST_ERROR.with(|cell| {
        let mut buf = cell.borrow_mut();
        let mut w = Truncating { buf: &mut buf, len: 0 };
        let _ = write!(w, "{message}");
        let end = w.len;
        buf[end] = 0;
    });
    status
}

/// Records an iteration's refusal (whose error is too large to travel as a `Failure`): the
/// `Failure` that says it is recorded.
#[cold]
#[inline(never)]
pub(crate) fn iter_failure(e: &iter::Error) -> Failure {
    let status = match e.kind() {
        iter::Kind::View(_) => match *e {
            iter::Error::View(v) => return Failure::View(v), // small: it travels as the views' do
            _ => unreachable!("only iter::Error::View is of Kind::View"),
        },
        iter::Kind::Shape => MVS_ERR_SHAPE,
        iter::Kind::Broadcast => MVS_ERR_BROADCAST,
        iter::Kind::Overlap => MVS_ERR_OVERLAP,
        iter::Kind::Value => MVS_ERR_VALUE,
    };
    Failure::Recorded(record_message(status, e))
}

/// A static, NUL-terminated description of `status`; unknown codes get "unknown status code".
/// Never NULL; the string lives as long as the program.
#[no_mangle]
pub extern "C" fn mvs_status_str(status: mvs_status) -> *const c_char {
    let s: &CStr = match status {
        MVS_OK => c"success",
        MVS_ERR_NULL => c"a required pointer argument is NULL",
        MVS_ERR_NDIM => c"number of dimensions out of range",
        MVS_ERR_AXIS => c"axis out of range or repeated",
        MVS_ERR_ITEMSIZE => c"itemsize is not positive",
        MVS_ERR_SHAPE => c"invalid shape",
        MVS_ERR_INDEX => c"index out of range",
        MVS_ERR_STEP => c"invalid step",
        MVS_ERR_OVERFLOW => c"arithmetic overflow",
        MVS_ERR_NEEDS_COPY => c"reshape needs a copy",
        MVS_ERR_INDIRECT => c"indirect dimension not supported here",
        MVS_ERR_BOUNDS => c"out of bounds",
        MVS_ERR_BROADCAST => c"shapes cannot be broadcast",
        MVS_ERR_NOT_CONTIGUOUS => c"source is not contiguous",
        MVS_ERR_VALUE => c"invalid argument value",
        MVS_ERR_INTERNAL => c"internal error",
        MVS_ERR_ALLOC => c"memory allocation failed",
        MVS_ERR_DEVICE => c"DLPack device is not the CPU",
        MVS_ERR_DTYPE => c"DLPack item type not supported",
        MVS_ERR_VERSION => c"DLPack major version not supported",
        MVS_ERR_OVERLAP => c"a written operand overlaps another",
        MVS_ERR_PRODUCER => c"a DLPack producer's function failed",
        _ => c"unknown status code",
    };
    s.as_ptr()
}

/// The detailed message of the last failure on the calling thread (for example "index 7 is out
/// of range for axis 1 of size 5"), or "no error". Successful calls leave it unchanged. Never
/// NULL; the pointer stays valid until the next failing call on this thread, or the thread's
/// exit. At most 255 bytes.
#[no_mangle]
pub extern "C" fn mvs_last_error() -> *const c_char {
    LAST_ERROR.with(|cell| cell.as_ptr().cast::<c_char>().cast_const())
}
