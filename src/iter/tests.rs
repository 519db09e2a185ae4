//! The iteration against a model: every element's operand addresses, in the order visited.

use proptest::prelude::*;

use super::*;
use crate::view::tests::config_with;

/// A C-contiguous view of `shape` at address `data` with items of `itemsize` bytes.
fn contiguous(data: usize, shape: &[isize], itemsize: isize) -> View<usize> {
    View::contiguous(data, itemsize, shape, view::Order::C).unwrap()
}

fn strided(data: usize, shape: &[isize], strides: &[isize]) -> View<usize> {
    View::strided(data, 8, shape, strides).unwrap()
}

fn op(view: View<usize>, flags: u32) -> Operand<usize> {
    Operand { view, itemsize: 8, flags }
}

/// Every element visited: the operands' addresses, in order.
fn visits(it: &mut Iter<usize>) -> Vec<Vec<usize>> {
    let strides = *it.inner_strides();
    let mut out = Vec::new();
    while let Some(run) = it.next_run() {
        for i in 0..run.count {
            out.push((0..it.nop).map(|k| run.ptrs[k].byte_offset(i * strides[k])).collect());
        }
    }
    out
}

/// The addresses NumPy's nditer visits in C order: the broadcast multi-index in C order.
fn c_order_model(ops: &[Operand<usize>], shape: &[isize]) -> Vec<Vec<usize>> {
    let n: isize = shape.iter().product();
    let mut out = Vec::new();
    for flat in 0..n {
        let mut idx = vec![0isize; shape.len()];
        let mut rest = flat;
        for axis in (0..shape.len()).rev() {
            idx[axis] = rest % shape[axis];
            rest /= shape[axis];
        }
        out.push(
            ops.iter()
                .map(|o| {
                    let skip = shape.len() - o.view.ndim();
                    let mut a = o.view.data() as isize;
                    for axis in 0..o.view.ndim() {
                        if o.view.shape()[axis] != 1 {
                            a += idx[axis + skip] * o.view.strides()[axis];
                        }
                    }
                    a as usize
                })
                .collect(),
        );
    }
    out
}

#[test]
fn c_order_visits_the_broadcast_elements_in_order() {
    let a = contiguous(1000, &[2, 3], 8);
    let b = strided(5000, &[3], &[-16]);
    let c = contiguous(9000, &[2, 3], 8);
    let ops = [op(a, READ), op(b, READ), op(c, WRITE)];
    let mut it = Iter::new(&ops, Order::C).unwrap();
    assert_eq!(it.size(), 6);
    assert_eq!(visits(&mut it), c_order_model(&ops, &[2, 3]));
}

#[test]
fn a_contiguous_4d_iteration_is_one_run() {
    let a = contiguous(0, &[2, 3, 4, 5], 8);
    let b = contiguous(4096, &[2, 3, 4, 5], 8);
    let mut it = Iter::new(&[op(a, READ), op(b, WRITE)], Order::K).unwrap();
    let run = it.next_run().unwrap();
    assert_eq!((run.count, run.ptrs[0], run.ptrs[1]), (120, 0, 4096));
    assert!(it.next_run().is_none());
}

#[test]
fn k_order_walks_memory_order_and_turns_negative_strides() {
    // a transposed, reversed view: K order walks memory forwards, as one run
    let a = strided(8 * 11, &[3, 4], &[-8, -24]);
    let mut it = Iter::new(&[op(a, READ)], Order::K).unwrap();
    let run = it.next_run().unwrap();
    assert_eq!((run.count, run.ptrs[0], it.inner_strides()[0]), (12, 0, 8));
}

#[test]
fn f_order_is_c_order_of_the_reversed_axes() {
    let a = contiguous(0, &[2, 3], 8);
    let mut it = Iter::new(&[op(a, READ)], Order::F).unwrap();
    let got: Vec<usize> = visits(&mut it).into_iter().map(|v| v[0]).collect();
    assert_eq!(got, vec![0, 24, 8, 32, 16, 40]);
}

#[test]
fn ranges_split_the_iteration_exactly() {
    let a = strided(0, &[3, 5, 2], &[200, -16, 8]);
    let all = visits(&mut Iter::new(&[op(a, READ)], Order::C).unwrap());
    for cuts in [[0, 30], [7, 30], [0, 0], [13, 14], [29, 30]] {
        let mut pieces = Vec::new();
        for (start, end) in [(0, cuts[0]), (cuts[0], cuts[1]), (cuts[1], 30)] {
            let mut it = Iter::new(&[op(a, READ)], Order::C).unwrap();
            it.set_range(start, end).unwrap();
            pieces.extend(visits(&mut it));
        }
        assert_eq!(pieces, all, "cuts {cuts:?}");
    }
    let mut it = Iter::new(&[op(a, READ)], Order::C).unwrap();
    assert_eq!(it.set_range(5, 31), Err(Error::Range { start: 5, end: 31, size: 30 }));
    assert_eq!(it.set_range(6, 5), Err(Error::Range { start: 6, end: 5, size: 30 }));
}

#[test]
fn zero_size_makes_no_run_and_0d_one_run_of_one() {
    let empty = contiguous(0, &[3, 0], 8);
    assert!(Iter::new(&[op(empty, READ)], Order::K).unwrap().next_run().is_none());
    let scalar = contiguous(64, &[], 8);
    let mut it = Iter::new(&[op(scalar, READ)], Order::K).unwrap();
    assert_eq!(it.next_run().map(|r| (r.ptrs[0], r.count)), Some((64, 1)));
    assert!(it.next_run().is_none());
}

/// The elements of a (rows, cols) iteration in tiles of `tile`, tile by tile, each row by row.
fn tiled_model(rows: isize, cols: isize, tile: [isize; 2], at: impl Fn(isize, isize) -> Vec<usize>) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for r0 in (0..rows).step_by(tile[0] as usize) {
        for c0 in (0..cols).step_by(tile[1] as usize) {
            for i in r0..(r0 + tile[0]).min(rows) {
                for j in c0..(c0 + tile[1]).min(cols) {
                    out.push(at(i, j));
                }
            }
        }
    }
    out
}

#[test]
#[cfg_attr(miri, ignore = "tiles need rows of more than 2560 items: minutes under Miri")]
fn a_transposed_operand_is_walked_in_tiles() {
    // c = a + b.T, with edge tiles on both axes; b's fastest axis is the iteration's first
    let (tile_rows, rows, cols) = (TILE_ROW_BYTES / 8, 2 * TILE_ROW_BYTES / 8 + 3, TILE_MIN_ROW_LINES + 9);
    let a = contiguous(1 << 20, &[rows, cols], 8);
    let bt = strided(2 << 20, &[rows, cols], &[8, 8 * rows]);
    let c = contiguous(3 << 20, &[rows, cols], 8);
    let ops = [op(a, READ), op(bt, READ), op(c, WRITE)];
    let mut it = Iter::new(&ops, Order::K).unwrap();
    let at = |i: isize, j: isize| {
        let (e, t) = ((i * cols + j) as usize * 8, (j * rows + i) as usize * 8);
        vec![(1 << 20) + e, (2 << 20) + t, (3 << 20) + e]
    };
    assert_eq!(visits(&mut it), tiled_model(rows, cols, [tile_rows, TILE_COLS], at));
    // C order is never tiled, nor are rows short enough to stay in cache: runs of whole rows
    let mut it = Iter::new(&ops, Order::C).unwrap();
    assert_eq!(it.next_run().map(|r| r.count), Some(cols));
    let short = TILE_MIN_ROW_LINES;
    let (a, bt) = (contiguous(1 << 20, &[rows, short], 8), strided(2 << 20, &[rows, short], &[8, 8 * rows]));
    let mut it = Iter::new(&[op(a, READ), op(bt, READ)], Order::K).unwrap();
    assert_eq!(it.next_run().map(|r| r.count), Some(short));
}

#[test]
fn refusals() {
    let a = contiguous(0, &[2, 3], 8);
    let b = contiguous(4096, &[4], 8);
    let e = Iter::new(&[op(a, READ), op(b, READ)], Order::C).unwrap_err();
    assert_eq!(e.kind(), Kind::Shape);
    assert_eq!(e.to_string(), "operands could not be broadcast together with shapes (2, 3) (4,)");
    let row = contiguous(8192, &[3], 8);
    let e = Iter::new(&[op(a, READ), op(row, WRITE)], Order::C).unwrap_err();
    assert_eq!(e.kind(), Kind::Broadcast);
    assert!(Iter::new(&[op(a, READ), op(row, WRITE | REDUCE)], Order::C).is_ok());
    assert_eq!(Iter::new(&[op(a, 8)], Order::C).unwrap_err(), Error::Flags { operand: 0, flags: 8 });
    assert_eq!(Iter::new(&[op(a, READ | REDUCE)], Order::C).unwrap_err().kind(), Kind::Value);
    assert_eq!(Iter::<usize>::new(&[], Order::C).unwrap_err(), Error::Operands { count: 0 });
    assert_eq!(Order::from_char(b'X' as i32), Err(Error::Order { order: b'X' as i32 }));
    // in place is fine; a shifted view of the same memory is not
    assert!(Iter::new(&[op(a, READ), op(a, WRITE)], Order::K).is_ok());
    let shifted = strided(8, &[2, 3], &[24, 8]);
    let e = Iter::new(&[op(a, READ), op(shifted, WRITE)], Order::K).unwrap_err();
    assert_eq!(e, Error::Overlap { written: 1, other: 0 });
    // interleaved views that share no element pass: every other item written, the others read
    let (even, odd) = (strided(0, &[6], &[16]), strided(8, &[6], &[16]));
    assert!(Iter::new(&[op(odd, READ), op(even, WRITE)], Order::K).is_ok());
    // the columns of a C array
    let (c0, c1) = (strided(0, &[4], &[24]), strided(8, &[4], &[24]));
    assert!(Iter::new(&[op(c0, READ), op(c1, WRITE)], Order::K).is_ok());
}

/// Random operands that broadcast together: shapes of up to 4 axes aligned on the last, each
/// axis either the common extent or 1 (or missing), strides of any sign, in separate memory.
fn operands() -> impl Strategy<Value = (Vec<isize>, Vec<Operand<usize>>)> {
    (prop::collection::vec(0isize..4, 0..=4), 1usize..=4)
        .prop_flat_map(|(shape, nop)| {
            let n = shape.len();
            let one = (0..=n, prop::collection::vec((any::<bool>(), -3isize..=3), n));
            (Just(shape), prop::collection::vec(one, nop))
        })
        .prop_map(|(shape, specs)| {
            let ops: Vec<Operand<usize>> = specs
                .into_iter()
                .enumerate()
                .map(|(k, (skip, axes))| {
                    let dims: Vec<isize> = (skip..shape.len()).map(|a| if axes[a].0 { shape[a] } else { 1 }).collect();
                    let strides: Vec<isize> = (skip..shape.len()).map(|a| axes[a].1 * 8 * (a as isize + 1)).collect();
                    let view = View::strided(1 << 20 | k << 12, 8, &dims, &strides).unwrap();
                    Operand { view, itemsize: 8, flags: READ }
                })
                .collect();
            // the shape they broadcast to: axes no operand has, and axes all have as 1, are 1 or gone
            let ndim = ops.iter().map(|o| o.view.ndim()).max().unwrap_or(0);
            let shape = (0..ndim)
                .map(|a| {
                    ops.iter()
                        .filter(|o| a + o.view.ndim() >= ndim)
                        .map(|o| o.view.shape()[a + o.view.ndim() - ndim])
                        .find(|&n| n != 1)
                        .unwrap_or(1)
                })
                .collect();
            (shape, ops)
        })
}

proptest! {
    #![proptest_config(config_with(300, 8))]

    #[test]
    fn c_f_and_k_orders_against_the_model((shape, ops) in operands(), cut in 0.0f64..1.0) {
        let model = c_order_model(&ops, &shape);
        let mut c = Iter::new(&ops, Order::C).unwrap();
        prop_assert_eq!(visits(&mut c), model.clone());
        // F order: C order of the operands with their axes reversed
        let reversed: Vec<Operand<usize>> = ops.iter().map(|o| {
            let n = o.view.ndim();
            let dims: Vec<isize> = (0..n).rev().map(|a| o.view.shape()[a]).collect();
            let strides: Vec<isize> = (0..n).rev().map(|a| o.view.strides()[a]).collect();
            Operand { view: View::strided(o.view.data(), 8, &dims, &strides).unwrap(), ..*o }
        }).collect();
        let rshape: Vec<isize> = shape.iter().rev().copied().collect();
        // (reversing aligns the operands on the first axis: only when they all have every axis)
        if ops.iter().all(|o| o.view.ndim() == shape.len()) {
            prop_assert_eq!(visits(&mut Iter::new(&ops, Order::F).unwrap()), c_order_model(&reversed, &rshape));
        }
        // K order: every element once
        let mut k = visits(&mut Iter::new(&ops, Order::K).unwrap());
        let mut sorted = model.clone();
        k.sort();
        sorted.sort();
        prop_assert_eq!(k, sorted);
        // ranges: two pieces of a K iteration make the whole, in order
        let whole = visits(&mut Iter::new(&ops, Order::K).unwrap());
        let size = whole.len() as isize;
        let at = (cut * size as f64) as isize;
        let mut pieces = Vec::new();
        for (start, end) in [(0, at), (at, size)] {
            let mut it = Iter::new(&ops, Order::K).unwrap();
            it.set_range(start, end).unwrap();
            pieces.extend(visits(&mut it));
        }
        prop_assert_eq!(pieces, whole);
    }
}

proptest! {
    // tiled iterations are long (rows of more than TILE_MIN_ROW_LINES items): fewer cases
    #![proptest_config(config_with(40, 0))]

    #[test]
    #[cfg_attr(miri, ignore = "tiles need rows of more than 2560 items: minutes under Miri")]
    fn tiled_iterations_visit_each_element_once_and_split_exactly(
        rows in 2 * TILE_ROW_BYTES / 8..3 * TILE_ROW_BYTES / 8,
        cols in TILE_MIN_ROW_LINES + 1..TILE_MIN_ROW_LINES + 2 * TILE_COLS,
        outer in 1isize..3,
        broadcast in any::<bool>(),
        cuts in prop::collection::vec(0.0f64..1.0, 2),
    ) {
        // out[o, i, j] = a[o, i, j] + b.T[i, j] (+ a row broadcast along i)
        let a = contiguous(1 << 24, &[outer, rows, cols], 8);
        let bt = strided(2 << 24, &[rows, cols], &[8, 8 * rows]);
        let row = strided(3 << 24, &[1, cols], &[0, 8]);
        let out = contiguous(4 << 24, &[outer, rows, cols], 8);
        let mut ops = vec![op(a, READ), op(bt, READ), op(out, WRITE)];
        if broadcast {
            ops.push(op(row, READ));
        }
        let model = c_order_model(&ops, &[outer, rows, cols]);
        let whole = visits(&mut Iter::new(&ops, Order::K).unwrap());
        prop_assert_ne!(&whole, &model); // tiled: not C order
        let mut sorted = (whole.clone(), model);
        sorted.0.sort();
        sorted.1.sort();
        prop_assert_eq!(sorted.0, sorted.1);
        let size = whole.len() as isize;
        let mut at: Vec<isize> = cuts.iter().map(|c| (c * size as f64) as isize).collect();
        at.sort();
        let mut pieces = Vec::new();
        for (start, end) in [(0, at[0]), (at[0], at[1]), (at[1], size)] {
            let mut it = Iter::new(&ops, Order::K).unwrap();
            it.set_range(start, end).unwrap();
            pieces.extend(visits(&mut it));
        }
        prop_assert_eq!(pieces, whole);
    }
}
