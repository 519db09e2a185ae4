//! Splitting an axis into pieces, as `np.split` and `np.array_split`.

use super::*;

impl<P: Addr> View<P> {
    /// `np.split(a, sections, axis)` (`uneven == false`: the extent must divide evenly) or
    /// `np.array_split` (`uneven == true`: the first `len % sections` pieces get one more).
    pub fn split_sections(
        &self,
        axis: isize,
        sections: isize,
        uneven: bool,
    ) -> Result<impl ExactSizeIterator<Item = Result<Self>> + Clone> {
        let ax = self.axis(axis)?;
        if sections <= 0 {
            return Err(Error::Sections { sections });
        }
        let len = self.shape[ax];
        let (each, extra) = (len / sections, len % sections);
        if extra != 0 && !uneven {
            return Err(Error::UnevenSplit { len, sections });
        }
        // Piece i starts at i * each + min(i, extra), which never exceeds len.
        self.pieces(ax, sections, move |i| i * each + i.min(extra))
    }

    /// `np.split(a, indices, axis)`: the pieces `[:i0]`, `[i0:i1]`, ..., `[ik:]`, each with
    /// Python's slice semantics (negatives count from the end, bounds clamp).
    pub fn split_at<'a>(
        &self,
        axis: isize,
        indices: &'a [isize],
    ) -> Result<impl ExactSizeIterator<Item = Result<Self>> + Clone + 'a>
    where
        P: 'a,
    {
        let ax = self.axis(axis)?;
        let k = indices.len();
        self.pieces(ax, k as isize + 1, move |i| match i as usize {
            0 => 0,
            i if i > k => NONE,
            i => indices[i - 1],
        })
    }

    /// The `count` pieces `self[bound(i):bound(i + 1)]` along `axis`, computed as the iterator
    /// is walked. It is `Clone`, so a caller that must not write anything on failure can walk it
    /// once to check every piece, then again to write them.
    fn pieces(
        &self,
        axis: usize,
        count: isize,
        bound: impl Fn(isize) -> isize + Clone,
    ) -> Result<impl ExactSizeIterator<Item = Result<Self>> + Clone> {
        let v = *self;
        let count = usize::try_from(count).map_err(|_| Error::Count { what: "piece count", count })?;
        Ok((0..count as isize)
            .map(move |i| Ok(v.parts().slice_axis(axis as isize, bound(i), bound(i + 1), 1)?.into_view())))
    }
}
