//! Whether two views share a byte, decided exactly (NumPy's `np.shares_memory`).
//!
//! A byte of view `a` is `lo_a + Σ |sa_i| x_i + p` with `0 <= x_i < na_i` and
//! `0 <= p < a_itemsize`, where `lo_a` is the lowest element address (an axis of negative stride
//! counts from its other end, so every coefficient is `|stride|`); likewise for `b`. Replacing
//! each `y_j` of `b` by `nb_j - 1 - y_j` and its `q` by `b_itemsize - 1 - q` turns "some byte of
//! `a` is some byte of `b`" into one bounded equation with positive coefficients:
//!
//! ```text
//! Σ c_k z_k = r,   0 <= z_k <= u_k,   c_k > 0,   r = hi_b - 1 - lo_a
//! ```
//!
//! (`hi_b` the end of `b`'s byte extent; the other way round, `r = hi_a - 1 - lo_b`, the same
//! terms: the smaller `r` is taken.) Each axis of extent > 1 and stride != 0 of either view is a
//! term `(|stride|, extent - 1)`, each item size > 1 a term `(1, itemsize - 1)`.
//!
//! The equation is solved as NumPy's `solve_may_share_memory` does (after P. Ramachandran, "Use
//! of Extended Euclidean Algorithm in Solving a System of Linear Diophantine Equations with
//! Bounded Variables", 2006), written here from that description:
//!
//! - Terms of equal coefficient merge (`c z + c z'` takes every value of `c (z + z'')` with
//!   `z''` up to `u + u'`), bounds are cut to `r / c`, terms of bound 0 go, and the rest are
//!   sorted by decreasing coefficient: `c_0 > c_1 > ... > c_{n-1}`.
//! - With `g_k = gcd(c_0, ..., c_k)` and `s_k = Σ_{i<=k} c_i u_i`, a search at level `k` with
//!   right-hand side `r` (a multiple of `g_k`) chooses `z_k`: the rest, `r - c_k z_k`, must be a
//!   multiple of `g_{k-1}` in `0..=s_{k-1}`. So `z_k` lies in an interval and in one residue
//!   class modulo `g_{k-1} / g_k`, found with the extended Euclidean algorithm.
//! - At level 1 the last unknown `z_0` is then determined and within its bounds, so any
//!   candidate `z_1` is a solution. Above it, the candidates are tried depth first.
//!
//! Blocks of one contiguous parent (such as `x[:, 0, :]` and `x[:, 1, :]`) leave at most one
//! candidate per level (NumPy's analysis); the problem is NP-hard in general, hence the work
//! bound.
//!
//! No arithmetic can overflow: everything is in `i128`. Addresses are below 2^64 and a view's
//! extent (which [`View::extent`] checks fits in `isize`) below 2^63 either side of it, so
//! `|r| < 2^65`; coefficients and gcds are at most 2^63; a bound cut to `r / c` makes `c u <= r`,
//! so `s_k < 18 * 2^65`; residues are below 2^63, so their products are below 2^126.

use super::*;

/// The answer of [`shares_memory`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlap {
    /// No byte is in both views.
    No,
    /// Some byte is in both views.
    Yes,
    /// The work bound ran out before the question was decided. Treat as [`Overlap::Yes`] where
    /// sharing must be excluded.
    TooHard,
}

/// The work bound of [`shares_memory`] when none is given, in search nodes (see there). It keeps
/// adversarial layouts, which exist (NumPy's `mem_overlap.c` gives one, which the tests use),
/// to a fraction of a second; blocks of one contiguous parent need at most one node per term.
pub const SHARES_MEMORY_MAX_WORK: u64 = 1 << 20;

/// Most terms of the equation: one per axis of each view, one per item size.
const MAX_TERMS: usize = 2 * MAX_DIMS + 2;

/// Whether some byte of an item of `a` is a byte of an item of `b` (items of `a_itemsize` and
/// `b_itemsize` bytes), as NumPy's `np.shares_memory(a, b, max_work)`: an exact answer, not the
/// byte-range test. `a[::2]` and `a[1::2]` share nothing, nor do two columns of a C array, nor
/// `a[::2]` and `a[::-2]` of an even length; a view shares memory with itself unless empty. Empty
/// views share nothing.
///
/// `max_work` bounds the search, in nodes (each a right-hand side of the equation in the module
/// documentation tried; the first is the whole question): `Some(0)` tests the byte ranges only
/// ([`Overlap::TooHard`] when they intersect), `None` means [`SHARES_MEMORY_MAX_WORK`], and
/// `Some(u64::MAX)` is, in practice, no bound. Past the bound the answer is
/// [`Overlap::TooHard`]. No allocation; the recursion is at most 17 levels deep.
///
/// Errors, checked as [`View::extent`] checks them, `a` first: [`Error::Itemsize`] for an item
/// size that is not positive, [`Error::Indirect`] for a view with an indirect axis,
/// [`Error::Overflow`] for a byte extent that does not fit in `isize`.
pub fn shares_memory<P: Addr>(
    a: &View<P>,
    a_itemsize: isize,
    b: &View<P>,
    b_itemsize: isize,
    max_work: Option<u64>,
) -> Result<Overlap> {
    let (a_lo, a_hi) = absolute_extent(a, a_itemsize)?;
    let (b_lo, b_hi) = absolute_extent(b, b_itemsize)?;
    // An empty view has the empty range; disjoint ranges share nothing.
    if !(a_lo < a_hi && b_lo < b_hi && a_lo < b_hi && b_lo < a_hi) {
        return Ok(Overlap::No);
    }
    let max_work = max_work.unwrap_or(SHARES_MEMORY_MAX_WORK);
    if max_work == 0 {
        return Ok(Overlap::TooHard);
    }
    // Both are at least 0: the ranges intersect.
    let rhs = (b_hi - 1 - a_lo).min(a_hi - 1 - b_lo);
    let mut terms = Terms { n: 0, c: [0; MAX_TERMS], u: [0; MAX_TERMS] };
    terms.push_axes(a);
    terms.push_axes(b);
    terms.push(1, a_itemsize as i128 - 1);
    terms.push(1, b_itemsize as i128 - 1);
    terms.simplify(rhs);
    Ok(Search::new(&terms, max_work).solve(rhs))
}

/// The absolute byte range `[lo, hi)` of `v`, empty (`lo == hi`) for an empty view.
fn absolute_extent<P: Addr>(v: &View<P>, itemsize: isize) -> Result<(i128, i128)> {
    let (lo, hi) = v.extent(itemsize)?;
    let at = v.data().position() as i128;
    Ok((at + lo as i128, at + hi as i128))
}

/// The terms `c_k z_k` of the equation, `0 <= z_k <= u_k`, `c_k > 0`.
struct Terms {
    n: usize,
    c: [i128; MAX_TERMS],
    u: [i128; MAX_TERMS],
}

impl Terms {
    /// Adds `c z`, `0 <= z <= u`, unless it can only be 0.
    fn push(&mut self, c: i128, u: i128) {
        if c != 0 && u > 0 {
            (self.c[self.n], self.u[self.n]) = (c.abs(), u);
            self.n += 1;
        }
    }

    /// Adds a term for each axis of `v` (a view that is not empty).
    fn push_axes<P: Addr>(&mut self, v: &View<P>) {
        for axis in 0..v.ndim() {
            self.push(v.strides()[axis] as i128, v.shape()[axis] as i128 - 1);
        }
    }

    /// Merges terms of equal coefficient, cuts bounds to what `c z <= rhs` allows, drops the
    /// terms that can then only be 0, and sorts by decreasing coefficient. The equation keeps
    /// its solutions (as far as their existence goes).
    fn simplify(&mut self, rhs: i128) {
        let n = self.n;
        let mut pairs = [(0i128, 0i128); MAX_TERMS];
        for (k, pair) in pairs[..n].iter_mut().enumerate() {
            *pair = (self.c[k], self.u[k]);
        }
        pairs[..n].sort_unstable_by_key(|&(c, _)| core::cmp::Reverse(c));
        self.n = 0;
        for &(c, u) in &pairs[..n] {
            match self.n.checked_sub(1) {
                Some(last) if self.c[last] == c => self.u[last] += u,
                _ => self.push(c, u),
            }
        }
        let mut kept = 0;
        for k in 0..self.n {
            let u = self.u[k].min(rhs / self.c[k]);
            if u > 0 {
                (self.c[kept], self.u[kept]) = (self.c[k], u);
                kept += 1;
            }
        }
        self.n = kept;
    }
}

/// The depth-first search over simplified [`Terms`] (see the module documentation).
struct Search {
    n: usize,
    c: [i128; MAX_TERMS],
    u: [i128; MAX_TERMS],
    /// `g[k] = gcd(c[0..=k])`.
    g: [i128; MAX_TERMS],
    /// `s[k] = Σ c[i] u[i]` for `i <= k`: the largest value of the first `k + 1` terms.
    s: [i128; MAX_TERMS],
    /// `m[k] = g[k - 1] / g[k]`: candidates for `z_k` are this far apart (`k >= 1`).
    m: [i128; MAX_TERMS],
    /// The inverse of `c[k] / g[k]` modulo `m[k]` (`k >= 1`; 0 when `m[k] == 1`).
    inv: [i128; MAX_TERMS],
    work: u64,
    max_work: u64,
}

impl Search {
    fn new(t: &Terms, max_work: u64) -> Self {
        let mut s = Search {
            n: t.n,
            c: t.c,
            u: t.u,
            g: [0; MAX_TERMS],
            s: [0; MAX_TERMS],
            m: [0; MAX_TERMS],
            inv: [0; MAX_TERMS],
            work: 0,
            max_work,
        };
        if s.n == 0 {
            return s;
        }
        (s.g[0], s.s[0]) = (s.c[0], s.c[0] * s.u[0]);
        for k in 1..s.n {
            let (g, t) = gcd_and_inverse(s.g[k - 1], s.c[k]);
            s.g[k] = g;
            s.m[k] = s.g[k - 1] / g;
            s.inv[k] = t.rem_euclid(s.m[k]);
            s.s[k] = s.s[k - 1] + s.c[k] * s.u[k];
        }
        s
    }

    /// Whether `Σ c_k z_k == rhs` (`rhs >= 0`) has a solution in the bounds. At least one unit
    /// of work must be left: the answer without a search costs one.
    fn solve(&mut self, rhs: i128) -> Overlap {
        let found = match self.n {
            0 => rhs == 0,
            1 => rhs % self.c[0] == 0 && rhs / self.c[0] <= self.u[0],
            n if rhs % self.g[n - 1] != 0 => false,
            n => return self.level(n - 1, rhs),
        };
        if found {
            Overlap::Yes
        } else {
            Overlap::No
        }
    }

    /// Whether the first `k + 1` terms (`k >= 1`) can sum to `r`, a multiple of `g[k]` (and
    /// not negative).
    fn level(&mut self, k: usize, r: i128) -> Overlap {
        if self.work >= self.max_work {
            return Overlap::TooHard;
        }
        self.work += 1;
        let (c, m) = (self.c[k], self.m[k]);
        // The rest, r - c z, in 0..=s[k - 1]; z in 0..=u[k].
        let lo = ceil_div(r - self.s[k - 1], c).max(0);
        let hi = (r / c).min(self.u[k]);
        // c z ≡ r (mod g[k - 1]), divided by g[k]: z ≡ (r / g[k]) * inv (mod m).
        let residue = (r / self.g[k]).rem_euclid(m) * self.inv[k] % m;
        let mut z = lo + (residue - lo).rem_euclid(m);
        if k == 1 {
            // z_0 = (r - c z) / c_0 is then a whole number within 0..=u[0].
            return if z <= hi { Overlap::Yes } else { Overlap::No };
        }
        while z <= hi {
            match self.level(k - 1, r - c * z) {
                Overlap::No => z += m,
                found => return found,
            }
        }
        Overlap::No
    }
}

/// `(g, t)` with `g = gcd(x, y)` and `t y ≡ g (mod x)`, for `x, y > 0`; `|t| <= x / g`.
fn gcd_and_inverse(x: i128, y: i128) -> (i128, i128) {
    // Invariant: r0 ≡ t0 y and r1 ≡ t1 y (mod x).
    let (mut r0, mut r1, mut t0, mut t1) = (x, y, 0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    (r0, t0)
}

/// `⌈x / d⌉` for `d > 0`.
fn ceil_div(x: i128, d: i128) -> i128 {
    -(-x).div_euclid(d)
}
