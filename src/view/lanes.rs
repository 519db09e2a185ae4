//! The range test every checked view passes ([`Parts::new`](super::Parts::new)), two entries at
//! a time on x86_64.
//!
//! Written with SSE2 intrinsics because the compiler keeps the scalar form in general-purpose
//! registers, which the derivation's result then also needs: with the scalar form a 4-D slice
//! took more instructions, and stored its result entry by entry instead of 16 bytes at a time
//! (`make icount` guards it).

use super::{MAX_DIMS, MVS_USUAL_STRIDE_LIMIT};

/// What the range test reads: a view's arrays as stored, and the mask of its axes (`KEEP`).
pub(super) struct Entries<'a> {
    pub(super) shape: &'a [isize; MAX_DIMS],
    pub(super) strides: &'a [isize; MAX_DIMS],
    pub(super) suboffsets: &'a [isize; MAX_DIMS],
    pub(super) keep: &'a [isize; MAX_DIMS],
}

impl Entries<'_> {
    /// The OR, as unsigned numbers, of `shape[i] & keep[i]`, `(strides[i] & keep[i]) +
    /// MVS_USUAL_STRIDE_LIMIT` and `!suboffsets[i] & keep[i]` over the first `entries` entries
    /// (an even number): below `MVS_USUAL_EXTENT_LIMIT` exactly when the axes are usual (each
    /// extent in `0..MVS_USUAL_EXTENT_LIMIT`, each stride in `-MVS_USUAL_STRIDE_LIMIT..
    /// MVS_USUAL_STRIDE_LIMIT`, each suboffset negative).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn range_bits(&self, entries: usize) -> usize {
        use core::arch::x86_64::*;
        // SAFETY: these intrinsics take no pointers and need only SSE2, which is part of the
        // x86_64 baseline: every x86_64 processor has it.
        unsafe {
            let pair = |a: &[isize; MAX_DIMS], i: usize| _mm_set_epi64x(a[i + 1] as i64, a[i] as i64);
            let bias = _mm_set1_epi64x(MVS_USUAL_STRIDE_LIMIT as i64);
            let mut acc = _mm_setzero_si128();
            for j in 0..entries / 2 {
                let (i, k) = (2 * j, pair(self.keep, 2 * j));
                let extents = _mm_and_si128(pair(self.shape, i), k);
                let strides = _mm_add_epi64(_mm_and_si128(pair(self.strides, i), k), bias);
                let indirect = _mm_andnot_si128(pair(self.suboffsets, i), k);
                acc = _mm_or_si128(acc, _mm_or_si128(_mm_or_si128(extents, strides), indirect));
            }
            _mm_cvtsi128_si64(_mm_or_si128(acc, _mm_unpackhi_epi64(acc, acc))) as usize
        }
    }

    /// [`Entries::range_bits`] on other targets.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub(super) fn range_bits(&self, entries: usize) -> usize {
        self.range_bits_scalar(entries)
    }

    /// [`Entries::range_bits`] one entry at a time: for other targets, and the tests' reference.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    pub(super) fn range_bits_scalar(&self, entries: usize) -> usize {
        let Entries { shape, strides, suboffsets, keep } = self;
        (0..entries).fold(0, |acc, i| {
            let extent = (shape[i] & keep[i]) as usize;
            let stride = (strides[i] & keep[i]).wrapping_add(MVS_USUAL_STRIDE_LIMIT) as usize;
            acc | extent | stride | (!suboffsets[i] & keep[i]) as usize
        })
    }
}
