//! include/memviewslice.h as Zig reads it and the static library linked into a Zig test: views
//! over a Zig array derived through the C API (a contiguous view, slice_axis, transpose, index,
//! a contiguous copy), each checked against shapes, strides and items that this program
//! computes itself. Zig 0.17 has no @cImport: `zig translate-c` turns the header into the module
//! imported here, as a build.zig's addTranslateC would. `make zig-test` runs it:
//!     zig translate-c -lc include/memviewslice.h > build/zig/memviewslice.zig
//!     zig test -lc -lunwind --dep memviewslice -Mroot=tests/zig/views.zig \
//!         -Mmemviewslice=build/zig/memviewslice.zig target/release/libmemviewslice.a

const std = @import("std");
const testing = std.testing;
const c = @import("memviewslice");

const P = c.ptrdiff_t;
const item: P = @sizeOf(i32);

/// 3 x 4 x 5 items of i32, each its own flat index in C order.
const dims = [3]P{ 3, 4, 5 };
var base: [60]i32 = blk: {
    var a: [60]i32 = undefined;
    for (&a, 0..) |*x, i| x.* = @intCast(i);
    break :blk a;
};

fn check(status: c.mvs_status) !void {
    if (status != c.MVS_OK) {
        std.debug.print("status {d}: {s}\n", .{ status, c.mvs_last_error() });
        return error.MvsStatus;
    }
}

/// The view has `shape` and `strides` (bytes), starts `offset` bytes into `base`, and its item
/// at [i, j, ...] is the item of `base` at offset + sum(index * stride): read through the
/// view's own data pointer and compared with `expect(index)`, computed here.
fn expectView(v: c.mvs_slice, shape: []const P, strides: []const P, offset: P, expect: anytype) !void {
    const n = shape.len;
    try testing.expectEqualSlices(P, shape, v.shape[0..n]);
    try testing.expectEqualSlices(P, strides, v.strides[0..n]);
    for (v.suboffsets[0..n]) |s| try testing.expectEqual(@as(P, -1), s);
    const start: isize = @as(isize, @intCast(@intFromPtr(&base))) + offset;
    try testing.expectEqual(start, @as(isize, @intCast(@intFromPtr(v.data))));
    var index: [c.MVS_MAX_DIMS]P = @splat(0);
    var count: usize = 0;
    while (true) : (count += 1) {
        var at: isize = @intCast(@intFromPtr(v.data));
        for (0..n) |k| at += index[k] * v.strides[k];
        const got = @as(*const i32, @ptrFromInt(@as(usize, @intCast(at)))).*;
        try testing.expectEqual(expect.at(index[0..n]), got);
        // The next index in C order; done when every axis wrapped.
        var k = n;
        while (k > 0) {
            k -= 1;
            index[k] += 1;
            if (index[k] < shape[k]) break;
            index[k] = 0;
        } else break;
    }
    var product: P = 1;
    for (shape) |e| product *= e;
    try testing.expectEqual(@as(usize, @intCast(product)), count + 1);
}

/// base[a0][a1][a2] as its flat index.
fn flat(a0: P, a1: P, a2: P) i32 {
    return @intCast((a0 * dims[1] + a1) * dims[2] + a2);
}

fn contiguous() !c.mvs_slice {
    var v: c.mvs_slice = undefined;
    try check(c.mvs_view_contiguous(&base, item, 3, &dims, 'C', &v));
    return v;
}

test "a contiguous view of a Zig array" {
    try expectView(try contiguous(), &dims, &.{ 80, 20, 4 }, 0, struct {
        fn at(i: []const P) i32 {
            return flat(i[0], i[1], i[2]);
        }
    });
}

test "slice_axis: base[:, 3:0:-2, 1:]" {
    const v = try contiguous();
    var s: c.mvs_slice = undefined;
    try check(c.mvs_slice_axis(&v, 3, 1, 3, 0, -2, &s));
    try check(c.mvs_slice_axis(&s, 3, -1, 1, c.MVS_NONE, c.MVS_NONE, &s));
    try expectView(s, &.{ 3, 2, 4 }, &.{ 80, -40, 4 }, 3 * 20 + 4, struct {
        fn at(i: []const P) i32 {
            return flat(i[0], 3 - 2 * i[1], 1 + i[2]);
        }
    });
}

test "transpose of a slice, then a contiguous copy of it" {
    const v = try contiguous();
    var s: c.mvs_slice = undefined;
    try check(c.mvs_slice_axis(&v, 3, 1, 3, 0, -2, &s));
    var t: c.mvs_slice = undefined;
    try check(c.mvs_transpose(&s, 3, &t));
    const T = struct {
        fn at(i: []const P) i32 {
            return flat(i[2], 3 - 2 * i[1], i[0]);
        }
    };
    try expectView(t, &.{ 5, 2, 3 }, &.{ 4, -40, 80 }, 3 * 20, T);

    var buffer: ?*c.mvs_buffer = null;
    var copy: c.mvs_slice = undefined;
    try check(c.mvs_copy_contiguous(&t, 3, item, 'C', &buffer, &copy));
    defer c.mvs_buffer_release(buffer);
    try testing.expectEqualSlices(P, &.{ 24, 12, 4 }, copy.strides[0..3]);
    const items: [*]const i32 = @ptrCast(@alignCast(copy.data));
    var n: usize = 0;
    for (0..5) |a| for (0..2) |b| for (0..3) |d| {
        try testing.expectEqual(T.at(&.{ @intCast(a), @intCast(b), @intCast(d) }), items[n]);
        n += 1;
    };
}

test "index: base[2, ..., ::-2] and base[None, 1]" {
    const v = try contiguous();
    const none = c.MVS_NONE;
    const items = [_]c.mvs_index_item{
        .{ .kind = c.MVS_ITEM_INDEX, .start = 2, .stop = none, .step = none },
        .{ .kind = c.MVS_ITEM_ELLIPSIS, .start = none, .stop = none, .step = none },
        .{ .kind = c.MVS_ITEM_SLICE, .start = none, .stop = none, .step = -2 },
    };
    var r: c.mvs_slice = undefined;
    var ndim: c_int = -1;
    try check(c.mvs_index(&v, 3, &items, items.len, &r, &ndim));
    try testing.expectEqual(@as(c_int, 2), ndim);
    try expectView(r, &.{ 4, 3 }, &.{ 20, -8 }, 2 * 80 + 4 * 4, struct {
        fn at(i: []const P) i32 {
            return flat(2, i[0], 4 - 2 * i[1]);
        }
    });

    const more = [_]c.mvs_index_item{
        .{ .kind = c.MVS_ITEM_NEWAXIS, .start = none, .stop = none, .step = none },
        .{ .kind = c.MVS_ITEM_INDEX, .start = 1, .stop = none, .step = none },
    };
    try check(c.mvs_index(&v, 3, &more, more.len, &r, &ndim));
    try testing.expectEqual(@as(c_int, 3), ndim);
    try testing.expectEqualSlices(P, &.{ 1, 4, 5 }, r.shape[0..3]);
    try testing.expectEqualSlices(P, &.{ 20, 4 }, r.strides[1..3]);
    try testing.expectEqual(@intFromPtr(&base[20]), @intFromPtr(r.data));
}

test "errors: a status and a message, the output untouched" {
    const v = try contiguous();
    var s: c.mvs_slice = undefined;
    s.data = null;
    try testing.expectEqual(@as(c.mvs_status, c.MVS_ERR_AXIS), c.mvs_slice_axis(&v, 3, 3, 0, 1, 1, &s));
    try testing.expect(std.mem.indexOf(u8, std.mem.span(c.mvs_last_error()), "axis") != null);
    try testing.expect(s.data == null);
}
