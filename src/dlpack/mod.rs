//! DLPack, the safe part: what a DLPack 1.1 tensor may hold and how its numbers become a view
//! and back. Item types (code, bits, lanes) become item sizes; shapes and strides in items
//! become extents and byte strides, with every overflow checked; devices, versions and numbers
//! of dimensions are validated. Knows nothing of C: addresses are plain integers here, and the
//! C layer (`crate::ffi::dlpack`) reads and writes the structs.

use core::fmt;

use crate::view::{self, Addr, View, MAX_DIMS, MVS_USUAL_EXTENT_LIMIT, MVS_USUAL_STRIDE_LIMIT};

/// The DLPack version this library implements (DLPack's `DLPACK_MAJOR_VERSION`).
pub(crate) const MAJOR: u32 = 1;
/// DLPack's `DLPACK_MINOR_VERSION`.
pub(crate) const MINOR: u32 = 1;
/// `kDLCPU`, the only device whose memory the library can view.
pub(crate) const DEVICE_CPU: i32 = 1;
/// The device types dlpack.h names (`DLDeviceType`, 1.1, and kDLTrn after it): kDLCPU 1, kDLCUDA 2, kDLCUDAHost 3,
/// kDLOpenCL 4, kDLVulkan 7, kDLMetal 8, kDLVPI 9, kDLROCM 10, kDLROCMHost 11, kDLExtDev 12,
/// kDLCUDAManaged 13, kDLOneAPI 14, kDLWebGPU 15, kDLHexagon 16, kDLMAIA 17, kDLTrn 18.
const KNOWN_DEVICES: [i32; 16] = [1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
/// `DLPACK_FLAG_BITMASK_READ_ONLY`.
pub(crate) const FLAG_READ_ONLY: u64 = 1 << 0;
/// `DLPACK_FLAG_BITMASK_IS_COPIED`.
pub(crate) const FLAG_IS_COPIED: u64 = 1 << 1;
/// `DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED`.
pub(crate) const FLAG_IS_SUBBYTE_TYPE_PADDED: u64 = 1 << 2;
/// The flags an exporter may ask for.
pub(crate) const EXPORT_FLAGS: u64 = FLAG_READ_ONLY | FLAG_IS_COPIED;

/// `DLDataTypeCode`: kDLInt 0, kDLUInt 1, kDLFloat 2, kDLOpaqueHandle 3, kDLBfloat 4,
/// kDLComplex 5, kDLBool 6, the float8 codes 7 (e3m4) to 14 (e8m0fnu), the float6 codes 15 and
/// 16, and the float4 code 17.
pub(crate) const CODE_BFLOAT: u8 = 4;
pub(crate) const CODE_BOOL: u8 = 6;
const CODE_FLOAT8_FIRST: u8 = 7;
const CODE_FLOAT8_LAST: u8 = 14;
const CODE_LAST: u8 = 17;

/// Everything DLPack import and export can refuse, besides the view arithmetic's own errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A major version other than [`MAJOR`].
    Version { major: u32, minor: u32 },
    /// A device DLPack knows that is not the CPU.
    Device { device_type: i32, device_id: i32 },
    /// A device type DLPack does not name.
    UnknownDevice { device_type: i32 },
    /// A type code DLPack does not name (or, from C, outside 0..=255).
    Code { code: i64 },
    /// A bit width the library cannot view for this code: not a positive multiple of 8 (a
    /// sub-byte type), not the code's width, or (from C) outside 0..=255.
    Bits { code: u8, bits: i64 },
    /// A vector type (lanes != 1).
    Lanes { lanes: u16 },
    /// `ndim` outside 0..=8.
    Ndim { ndim: i32 },
    /// A negative extent.
    NegativeDim { axis: usize, len: i64 },
    /// An extent that does not fit in `ptrdiff_t`.
    DimOverflow { axis: usize, len: i64 },
    /// NULL data for a tensor with `items` items.
    NullData { items: isize },
    /// A stride in items whose value in bytes does not fit in `ptrdiff_t`.
    StrideOverflow { axis: usize, stride: i64, itemsize: isize },
    /// The byte offset, or an address reached through it, does not fit in the address space.
    OffsetOverflow { byte_offset: u64 },
    /// A byte stride that is not a multiple of the item size (DLPack strides count items).
    NotItemMultiple { axis: usize, stride: isize, itemsize: isize },
    /// Flag bits an exporter may not set.
    Flags { flags: u64, allowed: u64 },
    /// A read-only export in the legacy form, which cannot say it is read-only.
    LegacyReadOnly,
    /// The view's arithmetic refused it (an indirect axis, a span that overflows, bounds).
    View(view::Error),
}

/// The class of an error; one status code per class in the C API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Version,
    Device,
    Dtype,
    Null,
    Ndim,
    Shape,
    Overflow,
    Value,
}

impl Error {
    /// The class of an error other than [`Error::View`] (which the C layer maps as view errors).
    pub fn kind(&self) -> Kind {
        use Error::*;
        match self {
            Version { .. } => Kind::Version,
            Device { .. } | UnknownDevice { .. } => Kind::Device,
            Code { .. } | Bits { .. } | Lanes { .. } => Kind::Dtype,
            NullData { .. } => Kind::Null,
            Ndim { .. } => Kind::Ndim,
            NegativeDim { .. } => Kind::Shape,
            DimOverflow { .. } | StrideOverflow { .. } | OffsetOverflow { .. } => Kind::Overflow,
            NotItemMultiple { .. } | Flags { .. } | LegacyReadOnly => Kind::Value,
            View(e) => match e.kind() {
                view::Kind::Overflow => Kind::Overflow,
                view::Kind::Shape => Kind::Shape,
                view::Kind::Ndim => Kind::Ndim,
                _ => Kind::Value,
            },
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
        use Error::*;
        match *self {
            Version { major, minor } => {
                write!(f, "DLPack version {major}.{minor} is not supported (major version {MAJOR} is)")
            }
            Device { device_type, device_id } => write!(
                f,
                "the tensor is on device type {device_type} (id {device_id}), not the CPU (kDLCPU = 1): \
                 only CPU memory can be viewed"
            ),
            UnknownDevice { device_type } => write!(f, "device type {device_type} is not a DLPack device"),
            Code { code } => write!(f, "DLPack type code {code} is unknown (0..={CODE_LAST} are known)"),
            Bits { code, bits } => write!(
                f,
                "DLPack type code {code} with {bits} bits is not supported (sub-byte types and widths \
                 that are not a positive multiple of 8 cannot be viewed)"
            ),
            Lanes { lanes } => write!(f, "DLPack vector types ({lanes} lanes) are not supported"),
            Ndim { ndim } => write!(f, "ndim {ndim} is outside 0..={MAX_DIMS}"),
            NegativeDim { axis, len } => write!(f, "the tensor's extent {len} along axis {axis} is negative"),
            DimOverflow { axis, len } => {
                write!(f, "the tensor's extent {len} along axis {axis} does not fit in ptrdiff_t")
            }
            NullData { items } => write!(f, "the tensor's data is NULL but it has {items} items"),
            StrideOverflow { axis, stride, itemsize } => {
                write!(f, "stride {stride} items of {itemsize} bytes along axis {axis} does not fit in ptrdiff_t bytes")
            }
            OffsetOverflow { byte_offset } => {
                write!(f, "byte offset {byte_offset} takes the tensor's addresses out of the address space")
            }
            NotItemMultiple { axis, stride, itemsize } => write!(
                f,
                "stride {stride} bytes along axis {axis} is not a multiple of the item size {itemsize}: \
                 DLPack strides count items"
            ),
            Flags { flags, allowed } => write!(f, "flags {flags:#x} have bits outside the allowed {allowed:#x}"),
            LegacyReadOnly => write!(
                f,
                "the memory is read-only, which a legacy (unversioned) DLPack tensor cannot say: \
                 export it as a versioned tensor"
            ),
            View(e) => e.fmt(f),
        }
    }
}

pub type Result<T> = core::result::Result<T, Error>;

/// Refuses a major version other than [`MAJOR`]. Minor versions of one major version share
/// the ABI (DLPack's rule), so any minor version is accepted.
pub fn check_version(major: u32, minor: u32) -> Result<()> {
    if major == MAJOR {
        Ok(())
    } else {
        Err(Error::Version { major, minor })
    }
}

/// Refuses every device but the CPU: the known ones as not the CPU, the others as unknown.
pub fn check_device(device_type: i32, device_id: i32) -> Result<()> {
    match device_type {
        DEVICE_CPU => Ok(()),
        t if KNOWN_DEVICES.contains(&t) => Err(Error::Device { device_type, device_id }),
        _ => Err(Error::UnknownDevice { device_type }),
    }
}

/// `ndim` as a count, checked against `0..=8`.
pub fn check_ndim(ndim: i32) -> Result<usize> {
    match usize::try_from(ndim) {
        Ok(n) if n <= MAX_DIMS => Ok(n),
        _ => Err(Error::Ndim { ndim }),
    }
}

/// The item size in bytes of the DLPack type `code`, `bits`, `lanes` (the C layer passes
/// ints, hence the wide types): a code DLPack names, one lane, and a width that is a positive
/// multiple of 8 (bool and the float8 codes 8, bfloat 16).
pub fn itemsize(code: i64, bits: i64, lanes: u16) -> Result<isize> {
    let code = match u8::try_from(code) {
        Ok(c) if c <= CODE_LAST => c,
        _ => return Err(Error::Code { code }),
    };
    let width = match code {
        CODE_BOOL | CODE_FLOAT8_FIRST..=CODE_FLOAT8_LAST => Some(8),
        CODE_BFLOAT => Some(16),
        _ => None,
    };
    let ok = (1..=255).contains(&bits) && bits % 8 == 0 && width.map_or(true, |w| w == bits);
    if !ok {
        return Err(Error::Bits { code, bits });
    }
    if lanes != 1 {
        return Err(Error::Lanes { lanes });
    }
    Ok((bits / 8) as isize)
}

/// Checks the export flags an exporter asks for.
pub fn check_export_flags(flags: u64) -> Result<()> {
    if flags & !EXPORT_FLAGS == 0 {
        Ok(())
    } else {
        Err(Error::Flags { flags, allowed: EXPORT_FLAGS })
    }
}

/// A tensor read as a view: the view of its items (data address first element, byte
/// strides), and the byte range it addresses, `[start, start + nbytes)`, which becomes the
/// memory of the buffer that owns the tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Imported {
    pub view: View<usize>,
    pub start: usize,
    pub nbytes: isize,
}

/// The view of a DLPack tensor whose data is at address `data`, of `shape` extents, `strides`
/// in items (`None`: compact row-major, DLPack's NULL), items of `itemsize` bytes, and the first
/// item `byte_offset` bytes after `data`. Every extent is checked non-negative, every product
/// and sum exact, and NULL data is allowed only for a tensor with no item.
pub fn import(
    data: usize,
    shape: &[i64],
    strides: Option<&[i64]>,
    itemsize: isize,
    byte_offset: u64,
) -> Result<Imported> {
    let ndim = check_ndim(shape.len() as i32)?;
    let mut extents = [0isize; MAX_DIMS];
    for (axis, &len) in shape.iter().enumerate() {
        if len < 0 {
            return Err(Error::NegativeDim { axis, len });
        }
        extents[axis] = isize::try_from(len).map_err(|_| Error::DimOverflow { axis, len })?;
    }
    let extents = &extents[..ndim];
    let items = extents.iter().try_fold(1isize, |n, &len| n.checked_mul(len)).ok_or(view::Error::Overflow)?;
    if data == 0 && items > 0 {
        return Err(Error::NullData { items });
    }
    let overflow = Error::OffsetOverflow { byte_offset };
    let offset = usize::try_from(byte_offset).map_err(|_| overflow)?;
    let first = data.checked_add(offset).ok_or(overflow)?;
    let view = match strides {
        // Row-major, as NumPy lays it out (zero extents count as one in the strides).
        None => View::contiguous(first, itemsize, extents, view::Order::C)?,
        Some(strides) => {
            let mut bytes = [0isize; MAX_DIMS];
            for (axis, &stride) in strides.iter().enumerate().take(ndim) {
                bytes[axis] = isize::try_from(stride)
                    .ok()
                    .and_then(|s| s.checked_mul(itemsize))
                    .ok_or(Error::StrideOverflow { axis, stride, itemsize })?;
            }
            View::strided(first, itemsize, extents, &bytes[..ndim])?
        }
    };
    let (lo, hi) = view.extent(itemsize)?;
    // The span fits, but the span plus an item may not (found by the fuzzer).
    let nbytes = hi.checked_sub(lo).ok_or(view::Error::Overflow)?;
    let start = first.checked_add_signed(lo).ok_or(overflow)?;
    first.checked_add_signed(hi).ok_or(overflow)?;
    Ok(Imported { view, start, nbytes })
}

/// [`import`] of a usual tensor, computed without the checks that cannot fail: at most
/// [`MAX_DIMS`] axes, non-NULL data, extents in `0..MVS_USUAL_EXTENT_LIMIT`, byte strides (or,
/// for `None`, row-major ones) in `-MVS_USUAL_STRIDE_LIMIT..MVS_USUAL_STRIDE_LIMIT`, an item
/// count that fits, a byte offset below 2^32 and addresses that do not wrap. Then every span
/// and sum below fits, and the result is [`import`]'s (the tests compare them). `None` for
/// every other tensor, which [`import`] takes (and says why it refuses it). Inline, and with
/// no view returned through a `Result`: [`import`]'s three copies of the view were a third of
/// an import's time.
#[inline(always)]
pub fn import_usual(
    data: usize,
    shape: &[i64],
    strides: Option<&[i64]>,
    itemsize: isize,
    byte_offset: u64,
) -> Option<Imported> {
    let ndim = shape.len();
    if ndim > MAX_DIMS || data == 0 || byte_offset >= 1 << 32 || !(1..MVS_USUAL_STRIDE_LIMIT).contains(&itemsize) {
        return None;
    }
    let (mut extents, mut bytes) = ([0isize; MAX_DIMS], [0isize; MAX_DIMS]);
    // The item count as `import` multiplies it, in axis order (which may overflow before a 0).
    let mut items = 1isize;
    for (axis, &len) in shape.iter().enumerate() {
        if !(0..MVS_USUAL_EXTENT_LIMIT as i64).contains(&len) {
            return None;
        }
        extents[axis] = len as isize;
        items = items.checked_mul(len as isize)?;
    }
    let mut run = itemsize;
    for axis in (0..ndim).rev() {
        let len = extents[axis];
        bytes[axis] = match strides {
            Some(strides) if strides[axis].unsigned_abs() < (MVS_USUAL_STRIDE_LIMIT / itemsize) as u64 => {
                strides[axis] as isize * itemsize
            }
            Some(_) => return None,
            None if run < MVS_USUAL_STRIDE_LIMIT => {
                let stride = run;
                run *= len.max(1);
                stride
            }
            None => return None,
        };
    }
    let first = data.checked_add(byte_offset as usize)?;
    let (mut lo, mut hi) = (0isize, itemsize);
    if items == 0 {
        hi = 0;
    } else {
        for axis in 0..ndim {
            let span = (extents[axis] - 1) * bytes[axis];
            if span < 0 {
                lo += span;
            } else {
                hi += span;
            }
        }
    }
    let start = first.checked_add_signed(lo)?;
    first.checked_add_signed(hi)?;
    Some(Imported { view: View::usual_unchecked(first, ndim, extents, bytes), start, nbytes: hi - lo })
}

/// The shape and strides (in items) of a DLPack tensor describing `view`, of items of
/// `itemsize` bytes, whose data lies `offset` bytes into a buffer of `nbytes` bytes: the view
/// must be direct, lie inside the buffer, and have byte strides that are multiples of
/// `itemsize` (those of axes of extent 0 or 1, and all of a view with no item, address nothing:
/// they are divided rounding toward zero, never refused).
pub fn export<P: Addr>(
    view: &View<P>,
    itemsize: isize,
    offset: i128,
    nbytes: isize,
) -> Result<([i64; MAX_DIMS], [i64; MAX_DIMS])> {
    view.check_bounds(itemsize, offset, nbytes)?;
    let (mut shape, mut strides) = ([0i64; MAX_DIMS], [0i64; MAX_DIMS]);
    let empty = view.is_empty();
    for axis in 0..view.ndim() {
        let (len, stride) = (view.shape()[axis], view.strides()[axis]);
        if stride % itemsize != 0 && len > 1 && !empty {
            return Err(Error::NotItemMultiple { axis, stride, itemsize });
        }
        // Lossless: ptrdiff_t has at most 64 bits wherever Rust runs.
        shape[axis] = len as i64;
        strides[axis] = (stride / itemsize) as i64;
    }
    Ok((shape, strides))
}

#[cfg(test)]
mod tests;
