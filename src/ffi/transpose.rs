//! The blocks of transposed copies' tiles on x86-64, for items of 1, 2, 4, 8 and 16 bytes: one
//! kernel shape for every item size and both instruction sets, SSE2 (part of x86-64) and AVX2
//! (detected at run time). A block is as many source rows as a vector has items, each loaded
//! as one vector; an unpacking ladder transposes each 16-byte lane's square of items in
//! registers (unpacking items, then pairs of them, and so on up to 8 bytes), and with AVX2 the
//! two lanes' squares are joined into whole rows by lane permutes. The rows are stored as
//! vectors, bypassing the cache when the copy streams and the destination's rows start cache
//! lines (the copy's tiles start at lines: `copy::TILE_ALIGN`).

use core::arch::x86_64::{
    __m128i, __m256i, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_storeu_si256, _mm256_stream_si256,
    _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpackhi_epi8, _mm256_unpacklo_epi16,
    _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_unpacklo_epi8, _mm_loadu_si128, _mm_sfence, _mm_storeu_si128,
    _mm_stream_si128, _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpackhi_epi8,
    _mm_unpacklo_epi16, _mm_unpacklo_epi32, _mm_unpacklo_epi64, _mm_unpacklo_epi8,
};

use super::RawPtr;
use crate::copy::Tile;

/// Bytes of a lane: the unpacking instructions work within each.
const LANE: usize = 16;

/// Bytes of a cache line.
const LINE: usize = 64;

/// A vector register and the instructions the blocks use, for one instruction set.
///
/// # Safety
/// Implementors' functions need their instruction set: call them only from functions compiled
/// for it (`#[target_feature]`) on a CPU that has it.
trait Vector: Copy {
    /// Bytes in a vector: a multiple of [`LANE`].
    const BYTES: usize;
    /// The vector at `p`, which need not be aligned.
    unsafe fn load(p: *const u8) -> Self;
    /// Stores `v` at `p`; bypassing the cache when `stream`, then `p` is aligned to `BYTES`.
    unsafe fn store(p: *mut u8, v: Self, stream: bool);
    /// In each lane, the chunks of `width` bytes (1, 2, 4 or 8) of the low halves of `a` and
    /// `b` (`high` false) or of their high halves, interleaved: a's first, b's first, ...
    unsafe fn unpack(a: Self, b: Self, width: usize, high: bool) -> Self;
    /// The low lanes of `a` and `b` (`high` false) or their high lanes, `a`'s first (only for
    /// vectors of two lanes).
    unsafe fn join(a: Self, b: Self, high: bool) -> Self;
}

/// `impl Vector` for a vector type of `$bytes` bytes, from its instruction set's load, store,
/// streaming store and unpacking instructions (at widths 1, 2, 4 and 8 bytes), and the body of
/// its `join`.
macro_rules! vector {
    ($t:ty, $bytes:expr, $load:ident, $store:ident, $stream:ident,
     [$($width:literal => $lo:ident, $hi:ident),*],
     fn join($a:ident, $b:ident, $high:ident) $join:block) => {
        impl Vector for $t {
            const BYTES: usize = $bytes;

            #[inline(always)]
            unsafe fn load(p: *const u8) -> Self {
                // SAFETY: per the caller, `BYTES` readable bytes, and the trait's contract.
                unsafe { $load(p.cast()) }
            }

            #[inline(always)]
            unsafe fn store(p: *mut u8, v: Self, stream: bool) {
                // SAFETY: per the caller, `BYTES` writable bytes, aligned when streaming, and
                // the trait's contract.
                unsafe {
                    if stream {
                        $stream(p.cast(), v)
                    } else {
                        $store(p.cast(), v)
                    }
                }
            }

            #[inline(always)]
            unsafe fn unpack(a: Self, b: Self, width: usize, high: bool) -> Self {
                // SAFETY: per the trait's contract.
                unsafe {
                    match (width, high) {
                        $(($width, false) => $lo(a, b), ($width, true) => $hi(a, b),)*
                        _ => unreachable!("unpacking widths are 1, 2, 4 and 8 bytes"),
                    }
                }
            }

            #[inline(always)]
            unsafe fn join($a: Self, $b: Self, $high: bool) -> Self {
                $join
            }
        }
    };
}

vector!(__m128i, 16, _mm_loadu_si128, _mm_storeu_si128, _mm_stream_si128,
    [1 => _mm_unpacklo_epi8, _mm_unpackhi_epi8, 2 => _mm_unpacklo_epi16, _mm_unpackhi_epi16,
     4 => _mm_unpacklo_epi32, _mm_unpackhi_epi32, 8 => _mm_unpacklo_epi64, _mm_unpackhi_epi64],
    fn join(a, _b, _high) { a });

vector!(__m256i, 32, _mm256_loadu_si256, _mm256_storeu_si256, _mm256_stream_si256,
[1 => _mm256_unpacklo_epi8, _mm256_unpackhi_epi8, 2 => _mm256_unpacklo_epi16, _mm256_unpackhi_epi16,
 4 => _mm256_unpacklo_epi32, _mm256_unpackhi_epi32, 8 => _mm256_unpacklo_epi64, _mm256_unpackhi_epi64],
fn join(a, b, high) {
    // SAFETY: per the trait's contract (the caller runs with AVX2).
    unsafe {
        if high {
            _mm256_permute2x128_si256::<0x31>(a, b)
        } else {
            _mm256_permute2x128_si256::<0x20>(a, b)
        }
    }
});

/// Runs `$body` with `$k` bound to each of 0, 1, ... below `$n` (at most 16), unrolled: the
/// blocks' arrays of vectors stay in registers only when every index is a constant.
macro_rules! unrolled {
    ($k:ident < $n:expr => $body:expr) => {
        unrolled!(@ $k, $n, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@ $k:ident, $n:expr, $body:expr; $($i:literal)*) => {
        debug_assert!($n <= 16);
        $(if $i < $n {
            let $k: usize = $i;
            $body;
        })*
    };
}

/// Whether the CPU has AVX2 (cached by the standard library).
fn avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// The shape of the tiles of `N`-byte items that [`blocks`] copies, in items: rows (of the
/// destination) spanning 4 KiB of each source row, and columns spanning two lines of each
/// destination row. The source is then read in long runs, which the hardware prefetches, while
/// the destination's lines are each filled by two blocks in a row, whole before the next (a
/// large transposed copy of float64, `make bench-transpose`, measured about twice as fast as
/// with square tiles of 32 items).
pub(super) fn tile_shape<const N: usize>() -> (isize, isize) {
    ((4096 / N) as isize, (128 / N) as isize)
}

/// Copies the whole blocks of a tile of `N`-byte items (1, 2, 4, 8 or 16) whose sides are
/// each contiguous along the other's rows (`dst_col` and `src_row` are `N`), with the widest
/// vectors the CPU has that fit the tile, and returns how many rows and columns they cover (the
/// rest is the caller's); `None`, copying nothing, for any other tile or one smaller than a
/// block.
///
/// # Safety
/// Every item of the tile is readable (the source's) or writable (the destination's).
pub(super) unsafe fn blocks<const N: usize>(t: &Tile<RawPtr>, stream: bool) -> Option<(isize, isize)> {
    if t.dst_col != N as isize || t.src_row != N as isize || !matches!(N, 1 | 2 | 4 | 8 | 16) {
        return None;
    }
    // Each block row's store starts a multiple of the vector's bytes into a row that starts a
    // line, so that the tile's stores fill whole lines.
    let stream = stream && (t.dst.0 as usize) % LINE == 0 && t.dst_row % LINE as isize == 0;
    let fits = |bytes: usize| t.rows.min(t.cols) >= (bytes / N) as isize;
    // Staged tiles in squares of a line by a line, others in blocks of a vector by a vector.
    let staged = t.staged && fits(LINE);
    let bytes = if staged {
        LINE
    } else if avx2() && fits(32) {
        32
    } else if fits(LANE) {
        LANE
    } else {
        return None;
    };
    if avx2() && bytes >= 32 {
        // SAFETY: AVX2 is there; the tile's items as this function's contract says.
        unsafe { blocks_avx2::<N>(t, stream, staged) }
    } else {
        // SAFETY: SSE2 is part of x86-64; the tile's items as this function's contract says.
        unsafe { tile_blocks::<__m128i, N>(t, stream, staged) }
    }
    let side = (bytes / N) as isize;
    Some((t.rows - t.rows % side, t.cols - t.cols % side))
}

/// [`tile_blocks`] with AVX2.
///
/// # Safety
/// As [`tile_blocks`], and the CPU has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn blocks_avx2<const N: usize>(t: &Tile<RawPtr>, stream: bool, staged: bool) {
    // SAFETY: per this function's contract.
    unsafe { tile_blocks::<__m256i, N>(t, stream, staged) }
}

/// Copies the whole blocks of vectors `V` of the tile `t` (as [`blocks`] says), or when
/// `staged` its whole squares of [`LINE`] by [`LINE`] bytes through buffers.
///
/// # Safety
/// As [`blocks`], with `t`'s `dst_col` and `src_row` `N`; `V`'s instruction set is there;
/// `stream` only when every block row is aligned to [`LINE`].
#[inline(always)]
unsafe fn tile_blocks<V: Vector, const N: usize>(t: &Tile<RawPtr>, stream: bool, staged: bool) {
    // SAFETY: per this function's contract; `L` is the items of a lane.
    unsafe {
        match N {
            1 => tile_blocks_of::<V, N, 16>(t, stream, staged),
            2 => tile_blocks_of::<V, N, 8>(t, stream, staged),
            4 => tile_blocks_of::<V, N, 4>(t, stream, staged),
            8 => tile_blocks_of::<V, N, 2>(t, stream, staged),
            _ => tile_blocks_of::<V, N, 1>(t, stream, staged),
        }
    }
}

/// [`tile_blocks`], with `L` (`LANE / N`) items of `N` bytes in a lane.
///
/// # Safety
/// As [`tile_blocks`].
#[inline(always)]
unsafe fn tile_blocks_of<V: Vector, const N: usize, const L: usize>(t: &Tile<RawPtr>, stream: bool, staged: bool) {
    debug_assert_eq!(N * L, LANE);
    let at = |r: isize, c: isize| {
        let src = t.src.0.wrapping_offset(r * N as isize + c * t.src_col).cast::<u8>();
        (src, t.dst.0.wrapping_offset(r * t.dst_row + c * N as isize).cast::<u8>())
    };
    if staged {
        let mut buffers = Staging([[[0; LINE]; LINE]; 2]);
        let square = (LINE / N) as isize;
        let (rows, cols) = (t.rows / square, t.cols / square);
        for k in 0..rows * cols {
            // Squares of 16 source rows or more (items of up to 4 bytes) go down each column
            // of squares, whose source rows are then read in order, fewer at a time; smaller
            // ones across, each destination row then getting its lines in a row (each order
            // measured faster than the other for those items, on 2048^2 and 4096^2 arrays).
            let (r, c) = if N <= 4 { (k % rows, k / rows) } else { (k / cols, k % cols) };
            let (src, dst) = at(r * square, c * square);
            // SAFETY: the square's items are the tile's: a line's items along each of
            // `square` source rows and of `square` destination rows.
            unsafe { staged_square::<V, N, L>(src, t.src_col, dst, t.dst_row, stream, &mut buffers) }
        }
        return;
    }
    let side = (V::BYTES / N) as isize;
    for r in (0..t.rows - side + 1).step_by(side as usize) {
        for c in (0..t.cols - side + 1).step_by(side as usize) {
            let (src, dst) = at(r, c);
            // SAFETY: the block's items are the tile's: `side` items along each of `side`
            // source rows (`src_col` bytes apart), and of `side` destination rows.
            unsafe { block::<V, N, L>(src, t.src_col, dst, t.dst_row, stream) }
        }
    }
}

/// The two buffers of [`staged_square`]: up to [`LINE`] lines each.
#[repr(align(64))]
struct Staging([[[u8; LINE]; LINE]; 2]);

/// Copies a square of [`LINE`] by [`LINE`] bytes (`LINE / N` items a side) through two
/// buffers of adjacent lines: the source's rows into one, line by line, the blocks from it
/// into the other, and its lines to the destination's rows. Each line of either side is read
/// or written whole at once, however few cache sets the rows fall on.
///
/// # Safety
/// As [`block`], for the square's rows.
#[inline(always)]
unsafe fn staged_square<V: Vector, const N: usize, const L: usize>(
    src: *const u8,
    src_col: isize,
    dst: *mut u8,
    dst_row: isize,
    stream: bool,
    buffers: &mut Staging,
) {
    let [from, to] = &mut buffers.0;
    let (square, side) = (LINE / N, V::BYTES / N);
    let line = |d: *mut u8, s: *const u8, stream: bool| {
        for k in (0..LINE).step_by(V::BYTES) {
            // SAFETY: a line of the square's rows or of a buffer, each; aligned when
            // streaming, per this function's contract.
            unsafe { V::store(d.wrapping_add(k), V::load(s.wrapping_add(k)), stream) }
        }
    };
    for (j, row) in from.iter_mut().enumerate().take(square) {
        line(row.as_mut_ptr(), src.wrapping_offset(j as isize * src_col), false);
    }
    let (f, t) = (from.as_ptr().cast::<u8>(), to.as_mut_ptr().cast::<u8>());
    for r in (0..square).step_by(side) {
        for c in (0..square).step_by(side) {
            // SAFETY: the block lies in the buffers' first `square` lines.
            unsafe {
                block::<V, N, L>(
                    f.wrapping_add(r * N + c * LINE),
                    LINE as isize,
                    t.wrapping_add(r * LINE + c * N),
                    LINE as isize,
                    false,
                )
            }
        }
    }
    for (i, row) in to.iter().enumerate().take(square) {
        line(dst.wrapping_offset(i as isize * dst_row), row.as_ptr(), stream);
    }
}

/// Copies one block: the destination's row `k` (at `dst + k * dst_row`) is the vector of the
/// items `k` of the source's rows (at `src + j * src_col`), `V::BYTES / N` of each.
///
/// # Safety
/// As [`tile_blocks`]: the block's rows are readable (the source's) and writable.
#[inline(always)]
unsafe fn block<V: Vector, const N: usize, const L: usize>(
    src: *const u8,
    src_col: isize,
    dst: *mut u8,
    dst_row: isize,
    stream: bool,
) {
    let row = |i: usize| dst.wrapping_offset(i as isize * dst_row);
    // SAFETY: per this function's contract (and the trait's: the instruction set is there).
    unsafe {
        // The square of `L` by `L` items in each lane of the first `L` rows.
        let low = lanes::<V, N, L>(src, src_col);
        if V::BYTES == LANE {
            unrolled!(k < L => V::store(row(bit_reverse(k, L)), low[k], stream));
            return;
        }
        // Two lanes: `low` holds the first `L` items of rows `at` (low lane) and `L + at`
        // (high lane), `high` the next `L` items of each.
        let high = lanes::<V, N, L>(src.wrapping_offset(L as isize * src_col), src_col);
        unrolled!(k < L => {
            let at = bit_reverse(k, L);
            V::store(row(at), V::join(low[k], high[k], false), stream);
            V::store(row(L + at), V::join(low[k], high[k], true), stream);
        });
    }
}

/// The `L` vectors at `src + j * src_col` with the square of `L` by `L` items of `N` bytes in
/// each of their lanes transposed: unpacking pairs of vectors at widths N, 2N, ... 8 bytes
/// leaves the square's column `k` in vector `bit_reverse(k, L)`.
///
/// # Safety
/// As [`block`].
#[inline(always)]
unsafe fn lanes<V: Vector, const N: usize, const L: usize>(src: *const u8, src_col: isize) -> [V; L] {
    // SAFETY: per this function's contract.
    unsafe {
        let mut v = [V::load(src); L];
        unrolled!(j < L => v[j] = V::load(src.wrapping_offset(j as isize * src_col)));
        unrolled!(stage < L.trailing_zeros() as usize => {
            let (width, u) = (N << stage, v);
            unrolled!(p < L / 2 => {
                v[p] = V::unpack(u[2 * p], u[2 * p + 1], width, false);
                v[L / 2 + p] = V::unpack(u[2 * p], u[2 * p + 1], width, true);
            });
        });
        v
    }
}

/// `k` with its bits below `n` (a power of two) in reverse order.
#[inline(always)]
const fn bit_reverse(k: usize, n: usize) -> usize {
    let bits = n.trailing_zeros();
    if bits == 0 {
        0
    } else {
        k.reverse_bits() >> (usize::BITS - bits)
    }
}

/// Orders the stores of streamed tiles before what follows (`sfence`).
pub(super) fn end_stream() {
    // SAFETY: SSE is part of x86-64; a fence reads and writes nothing.
    unsafe { _mm_sfence() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Copies a tile of `rows` by `cols` items of `N` bytes with `with` (which returns the rows
    /// and columns it covered): the source `cols` rows of `rows` items `src_col` bytes apart,
    /// the destination `rows` rows of `cols` items, each at an odd offset; checks every byte of
    /// the destination's memory, the covered items against the source, the rest untouched.
    fn check<const N: usize>(rows: usize, cols: usize, src_col: usize, with: &dyn Fn(&Tile<RawPtr>) -> (isize, isize)) {
        let mut src: Vec<u8> = (0..cols * src_col + 64).map(|i| (i * 7 + i / 251) as u8).collect();
        let dst_row = cols * N + 64;
        let mut dst = vec![0xA5u8; rows * dst_row + 64];
        let (s0, d0) = (src.as_mut_ptr().wrapping_add(3 * N), dst.as_mut_ptr().wrapping_add(N));
        let tile = Tile {
            staged: false,
            dst: RawPtr(d0.cast()),
            dst_row: dst_row as isize,
            dst_col: N as isize,
            src: RawPtr(s0.cast()),
            src_row: N as isize,
            src_col: src_col as isize,
            rows: rows as isize,
            cols: cols as isize,
        };
        let (done_r, done_c) = with(&tile);
        assert!(done_r > 0 && done_c > 0, "{N}-byte items, {rows} x {cols}: no block");
        for (i, line) in dst.chunks(dst_row).enumerate() {
            for (j, item) in line.chunks(N).enumerate() {
                let (r, c) = (i as isize, j as isize - 1);
                let covered = r < done_r && (0..done_c).contains(&c);
                let want: Vec<u8> = if covered {
                    let at = 3 * N + c as usize * src_col + r as usize * N;
                    src[at..at + N].to_vec()
                } else {
                    vec![0xA5; item.len()]
                };
                assert_eq!(item, &want[..], "{N}-byte items, {rows} x {cols}: item ({r}, {c})");
            }
        }
    }

    /// Every kernel against a reference, on tiles whose sides are not multiples of the blocks:
    /// SSE2's and AVX2's blocks and staged squares, the blocks' items where they belong and
    /// nothing written outside them.
    fn all<const N: usize>() {
        for (rows, cols) in [(70, 45), (64, 64), (131, 67), (17, 33)] {
            let src_col = rows * N + 40;
            for staged in [false, true] {
                let sse2 = |t: &Tile<RawPtr>| {
                    // SAFETY: SSE2 is part of x86-64; the tile's items are the vectors'.
                    unsafe { tile_blocks::<__m128i, N>(t, false, staged) };
                    let side = if staged { LINE / N } else { LANE / N } as isize;
                    (t.rows - t.rows % side, t.cols - t.cols % side)
                };
                if (rows.min(cols) * N) >= if staged { LINE } else { LANE } {
                    check::<N>(rows, cols, src_col, &sse2);
                }
                if avx2() && (rows.min(cols) * N) >= if staged { LINE } else { 32 } {
                    let wide = |t: &Tile<RawPtr>| {
                        // SAFETY: AVX2 is there; the tile's items are the vectors'.
                        unsafe { blocks_avx2::<N>(t, false, staged) };
                        let side = if staged { LINE / N } else { 32 / N } as isize;
                        (t.rows - t.rows % side, t.cols - t.cols % side)
                    };
                    check::<N>(rows, cols, src_col, &wide);
                }
            }
        }
    }

    #[test]
    fn blocks_match_a_reference() {
        all::<1>();
        all::<2>();
        all::<4>();
        all::<8>();
        all::<16>();
    }
}
