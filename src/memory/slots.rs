//! The bookkeeping of a pool: which arrays exist (slabs of arrays spaced `slot_bytes` apart, at
//! addresses given by the caller), which are free (a LIFO stack, so a hot array is reused
//! first), and which are acquired (to refuse foreign and double releases). No allocation
//! happens in `take` and `give_back`: `reserve` makes room beforehand, and fails instead of
//! aborting when memory is short.

use super::{Error, Result};

/// An array of the pool: the slab it is in and its position there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub slab: usize,
    pub index: usize,
}

#[derive(Clone, Copy, Debug)]
struct Slab {
    base: usize,
    /// The id of the slab's first array (ids number all arrays of all slabs).
    first: usize,
    count: usize,
}

#[derive(Debug)]
pub struct Slots {
    slot_bytes: usize,
    /// log2 of `slot_bytes` when it is a power of two: a shift instead of a division in `find`.
    slot_shift: Option<u32>,
    slabs: Vec<Slab>,
    free: Vec<Slot>,
    acquired: Vec<bool>,
}

impl Slots {
    /// No arrays yet; arrays will be `slot_bytes` (> 0) apart.
    pub fn new(slot_bytes: usize) -> Self {
        assert!(slot_bytes > 0, "slot_bytes is positive");
        let slot_shift = slot_bytes.is_power_of_two().then(|| slot_bytes.trailing_zeros());
        Slots { slot_bytes, slot_shift, slabs: Vec::new(), free: Vec::new(), acquired: Vec::new() }
    }

    /// Arrays in all slabs.
    pub fn total(&self) -> usize {
        self.acquired.len()
    }

    /// Arrays acquired and not yet given back.
    pub fn in_use(&self) -> usize {
        self.total() - self.free.len()
    }

    /// The byte offset of `slot` in its slab.
    pub fn offset(&self, slot: Slot) -> usize {
        slot.index * self.slot_bytes
    }

    /// Takes a free array (the one given back last), or `None` when all are acquired.
    #[inline]
    pub fn take(&mut self) -> Option<Slot> {
        let slot = self.free.pop()?;
        let id = self.slabs[slot.slab].first + slot.index;
        debug_assert!(!self.acquired[id]);
        self.acquired[id] = true;
        Some(slot)
    }

    /// The number of arrays the next slab holds: `capacity` for the first slab, then as many
    /// as exist already (the pool doubles), at least 1.
    pub fn next_slab_len(&self, capacity: usize) -> usize {
        if self.slabs.is_empty() {
            capacity.max(1)
        } else {
            self.total().max(1)
        }
    }

    /// Makes room in the bookkeeping for a slab of `count` more arrays, so that [`add_slab`],
    /// `take` and `give_back` never allocate.
    ///
    /// [`add_slab`]: Slots::add_slab
    pub fn reserve(&mut self, count: usize) -> Result<()> {
        let alloc_error = |_| Error::Alloc { nbytes: count, alignment: 1 };
        let total = self.total().checked_add(count).ok_or(Error::TooLarge)?;
        self.slabs.try_reserve(1).map_err(alloc_error)?;
        self.free.try_reserve(total - self.free.len()).map_err(alloc_error)?;
        self.acquired.try_reserve(count).map_err(alloc_error)
    }

    /// Adds a slab of `count` free arrays starting at address `base`, after [`Slots::reserve`]
    /// for `count`. Its slab number is the number of slabs before it.
    pub fn add_slab(&mut self, base: usize, count: usize) {
        let slab = self.slabs.len();
        self.slabs.push(Slab { base, first: self.total(), count });
        self.acquired.resize(self.total() + count, false);
        // Pushed in reverse so that the slab's first array is taken first.
        self.free.extend((0..count).rev().map(|index| Slot { slab, index }));
    }

    /// Gives back the acquired array at address `addr`.
    #[inline]
    pub fn give_back(&mut self, addr: usize) -> Result<()> {
        let slot = self.find(addr).ok_or(Error::NotFromPool)?;
        let id = self.slabs[slot.slab].first + slot.index;
        if !self.acquired[id] {
            return Err(Error::NotAcquired);
        }
        self.acquired[id] = false;
        self.free.push(slot);
        Ok(())
    }

    /// The array that starts at `addr`, if any.
    #[inline]
    fn find(&self, addr: usize) -> Option<Slot> {
        self.slabs.iter().enumerate().find_map(|(slab, s)| {
            let delta = addr.checked_sub(s.base)?;
            let (index, rest) = match self.slot_shift {
                Some(shift) => (delta >> shift, delta & (self.slot_bytes - 1)),
                None => (delta / self.slot_bytes, delta % self.slot_bytes),
            };
            (rest == 0 && index < s.count).then_some(Slot { slab, index })
        })
    }
}
