//! The tiles of transposed copies of 8-byte items on x86-64 with AVX2 (detected at run time):
//! 4 by 4 blocks move through registers, transposed by unpacking and lane permutes, and are
//! stored as 32-byte rows, bypassing the cache when the copy streams and the destination's
//! rows start cache lines (the copy's tiles start at lines: `copy::TILE_ALIGN`).

use core::arch::x86_64::{
    __m256d, _mm256_loadu_pd, _mm256_permute2f128_pd, _mm256_storeu_pd, _mm256_stream_pd, _mm256_unpackhi_pd,
    _mm256_unpacklo_pd, _mm_sfence,
};

use super::RawPtr;
use crate::copy::Tile;

/// The side of the tiles of 8-byte items that [`blocks`] copies (measured on 2000 x 2000
/// float64: 32 by 32 tiles of 4 by 4 blocks beat 16 and 64), or `None` without AVX2.
pub(super) fn tile_side() -> Option<isize> {
    std::is_x86_feature_detected!("avx2").then_some(32)
}

/// Copies the whole 4 by 4 blocks of a tile of 8-byte items whose sides are each contiguous
/// along the other's rows (`dst_col` and `src_row` are 8), and returns how many rows and
/// columns they cover (the rest is the caller's); `None`, copying nothing, for any other tile
/// or without AVX2.
///
/// # Safety
/// Every item of the tile is readable (the source's) or writable (the destination's).
pub(super) unsafe fn blocks(t: &Tile<RawPtr>, stream: bool) -> Option<(isize, isize)> {
    if t.dst_col != 8 || t.src_row != 8 || !std::is_x86_feature_detected!("avx2") {
        return None;
    }
    // Each block row's store starts a multiple of 32 bytes into a row that starts a line, so
    // that the tile's stores fill whole lines.
    let stream = stream && (t.dst.0 as usize) % 64 == 0 && t.dst_row % 64 == 0;
    // SAFETY: AVX2 is there; the tile's items as this function's contract says.
    unsafe { blocks_avx2(t, stream) };
    Some((t.rows - t.rows % 4, t.cols - t.cols % 4))
}

/// [`blocks`], with AVX2.
///
/// # Safety
/// As [`blocks`], and the CPU has AVX2; `stream` only when every block row is 32-byte aligned.
#[target_feature(enable = "avx2")]
unsafe fn blocks_avx2(t: &Tile<RawPtr>, stream: bool) {
    for r in (0..t.rows - 3).step_by(4) {
        for c in (0..t.cols - 3).step_by(4) {
            let src = t.src.0.wrapping_offset(r * 8 + c * t.src_col).cast::<f64>();
            let dst = t.dst.0.wrapping_offset(r * t.dst_row + c * 8).cast::<f64>();
            // SAFETY: the block's items are the tile's: 4 items along each of 4 source rows
            // (`src_col` bytes apart), and of 4 destination rows (`dst_row` bytes apart).
            unsafe {
                let mut v = [_mm256_loadu_pd(src); 4];
                for (k, x) in v.iter_mut().enumerate().skip(1) {
                    *x = _mm256_loadu_pd(src.wrapping_byte_offset(k as isize * t.src_col));
                }
                for (k, x) in transpose(v).into_iter().enumerate() {
                    let p = dst.wrapping_byte_offset(k as isize * t.dst_row);
                    if stream {
                        _mm256_stream_pd(p, x)
                    } else {
                        _mm256_storeu_pd(p, x)
                    }
                }
            }
        }
    }
}

/// The rows of the 4 by 4 block whose columns are `v`.
#[target_feature(enable = "avx2")]
fn transpose(v: [__m256d; 4]) -> [__m256d; 4] {
    let (t0, t1) = (_mm256_unpacklo_pd(v[0], v[1]), _mm256_unpackhi_pd(v[0], v[1]));
    let (t2, t3) = (_mm256_unpacklo_pd(v[2], v[3]), _mm256_unpackhi_pd(v[2], v[3]));
    [
        _mm256_permute2f128_pd::<0x20>(t0, t2),
        _mm256_permute2f128_pd::<0x20>(t1, t3),
        _mm256_permute2f128_pd::<0x31>(t0, t2),
        _mm256_permute2f128_pd::<0x31>(t1, t3),
    ]
}

/// Orders the stores of streamed tiles before what follows (`sfence`).
pub(super) fn end_stream() {
    // SAFETY: SSE is part of x86-64; a fence reads and writes nothing.
    unsafe { _mm_sfence() }
}
