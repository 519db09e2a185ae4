//! The DLPack arithmetic: item types, devices, versions, and tensors read as views and back.

use super::*;

#[test]
fn item_sizes_of_the_types_dlpack_names() {
    assert_eq!(itemsize(0, 8, 1), Ok(1));
    assert_eq!(itemsize(0, 64, 1), Ok(8));
    assert_eq!(itemsize(1, 16, 1), Ok(2));
    assert_eq!(itemsize(2, 16, 1), Ok(2));
    assert_eq!(itemsize(2, 64, 1), Ok(8));
    assert_eq!(itemsize(5, 128, 1), Ok(16));
    assert_eq!(itemsize(6, 8, 1), Ok(1));
    assert_eq!(itemsize(4, 16, 1), Ok(2));
    assert_eq!(itemsize(3, 64, 1), Ok(8));
    assert_eq!(itemsize(12, 8, 1), Ok(1));
    assert_eq!(itemsize(0, 248, 1), Ok(31));
}

#[test]
fn unknown_codes_sub_byte_widths_and_vectors_are_refused() {
    assert_eq!(itemsize(18, 8, 1), Err(Error::Code { code: 18 }));
    assert_eq!(itemsize(-1, 8, 1), Err(Error::Code { code: -1 }));
    assert_eq!(itemsize(256, 8, 1), Err(Error::Code { code: 256 }));
    assert_eq!(itemsize(0, 0, 1), Err(Error::Bits { code: 0, bits: 0 }));
    assert_eq!(itemsize(0, 4, 1), Err(Error::Bits { code: 0, bits: 4 }));
    assert_eq!(itemsize(17, 4, 1), Err(Error::Bits { code: 17, bits: 4 }));
    assert_eq!(itemsize(0, 12, 1), Err(Error::Bits { code: 0, bits: 12 }));
    assert_eq!(itemsize(0, 256, 1), Err(Error::Bits { code: 0, bits: 256 }));
    assert_eq!(itemsize(6, 16, 1), Err(Error::Bits { code: 6, bits: 16 }));
    assert_eq!(itemsize(4, 32, 1), Err(Error::Bits { code: 4, bits: 32 }));
    assert_eq!(itemsize(8, 16, 1), Err(Error::Bits { code: 8, bits: 16 }));
    assert_eq!(itemsize(2, 32, 4), Err(Error::Lanes { lanes: 4 }));
    assert_eq!(itemsize(2, 32, 0), Err(Error::Lanes { lanes: 0 }));
    for e in [Error::Code { code: 18 }, Error::Bits { code: 0, bits: 4 }, Error::Lanes { lanes: 2 }] {
        assert_eq!(e.kind(), Kind::Dtype);
    }
}

#[test]
fn only_major_version_1_and_the_cpu_are_accepted() {
    assert_eq!(check_version(1, 0), Ok(()));
    assert_eq!(check_version(1, 7), Ok(()));
    assert_eq!(check_version(0, 8), Err(Error::Version { major: 0, minor: 8 }));
    assert_eq!(check_version(2, 0).unwrap_err().kind(), Kind::Version);
    assert_eq!(check_device(1, 0), Ok(()));
    assert_eq!(check_device(1, 3), Ok(()));
    assert_eq!(check_device(2, 1), Err(Error::Device { device_type: 2, device_id: 1 }));
    assert_eq!(check_device(5, 0), Err(Error::UnknownDevice { device_type: 5 }));
    assert_eq!(check_device(0, 0), Err(Error::UnknownDevice { device_type: 0 }));
    assert_eq!(check_device(-1, 0).unwrap_err().kind(), Kind::Device);
    assert_eq!(check_ndim(8), Ok(8));
    assert_eq!(check_ndim(9), Err(Error::Ndim { ndim: 9 }));
    assert_eq!(check_ndim(-1), Err(Error::Ndim { ndim: -1 }));
}

#[test]
fn strides_in_items_become_bytes_and_null_strides_are_row_major() {
    let t = import(0x1000, &[2, 3], Some(&[3, 1]), 8, 0).unwrap();
    assert_eq!((t.view.data(), &t.view.strides()[..2], &t.view.shape()[..2]), (0x1000, &[24, 8][..], &[2, 3][..]));
    assert_eq!((t.start, t.nbytes), (0x1000, 48));
    let c = import(0x1000, &[2, 3, 4], None, 4, 0).unwrap();
    assert_eq!(&c.view.strides()[..3], &[48, 16, 4]);
    // zero extents count as one for the strides, as NumPy's do
    let z = import(0x1000, &[2, 0, 4], None, 4, 0).unwrap();
    assert_eq!(&z.view.strides()[..3], &[16, 16, 4]);
    assert_eq!(z.nbytes, 0);
    // negative and zero strides, and the byte offset: the buffer starts at the lowest byte
    let n = import(0x1000, &[3, 2], Some(&[-2, 0]), 8, 64).unwrap();
    assert_eq!(n.view.data(), 0x1040);
    assert_eq!(&n.view.strides()[..2], &[-16, 0]);
    assert_eq!((n.start, n.nbytes), (0x1040 - 32, 40));
    let s = import(0x1000, &[], None, 2, 6).unwrap();
    assert_eq!((s.view.ndim(), s.view.data(), s.start, s.nbytes), (0, 0x1006, 0x1006, 2));
}

#[test]
fn malformed_tensors_are_refused_with_their_own_errors() {
    assert_eq!(import(0x1000, &[2, -1], None, 8, 0), Err(Error::NegativeDim { axis: 1, len: -1 }));
    assert_eq!(import(0, &[2, 3], None, 8, 0), Err(Error::NullData { items: 6 }));
    assert!(import(0, &[2, 0], None, 8, 0).is_ok());
    assert_eq!(
        import(0x1000, &[2, 3], Some(&[i64::MAX / 4, 1]), 8, 0),
        Err(Error::StrideOverflow { axis: 0, stride: i64::MAX / 4, itemsize: 8 })
    );
    assert_eq!(import(0x1000, &[2, 3], Some(&[i64::MIN, 1]), 1, 0).unwrap_err().kind(), Kind::Overflow);
    // byte strides that fit but whose span does not
    assert_eq!(import(0x1000, &[3, 3], Some(&[1 << 59, 1 << 59]), 8, 0), Err(Error::View(view::Error::Overflow)));
    assert_eq!(import(0x1000, &[1 << 62, 4], None, 8, 0).unwrap_err().kind(), Kind::Overflow);
    assert_eq!(import(0x1000, &[2], None, 8, u64::MAX), Err(Error::OffsetOverflow { byte_offset: u64::MAX }));
    assert_eq!(import(usize::MAX - 8, &[2], None, 8, 0).unwrap_err().kind(), Kind::Overflow);
    assert_eq!(import(8, &[3], Some(&[-1]), 8, 0).unwrap_err().kind(), Kind::Overflow);
    assert_eq!(import(0x1000, &[1; 9], None, 8, 0), Err(Error::Ndim { ndim: 9 }));
    // a span that fits, whose bytes (the span plus one item) do not
    assert_eq!(import(1 << 63, &[2], Some(&[-((1 << 60) - 1)]), 8, 0), Err(Error::View(view::Error::Overflow)));
    assert!(import(1 << 63, &[2], Some(&[-((1 << 60) - 2)]), 8, 0).is_ok());
}

#[test]
fn views_become_item_strides_and_refuse_what_dlpack_cannot_say() {
    let v = View::strided(0x1010usize, 4, &[2, 3], &[-24, 8]).unwrap();
    let (shape, strides) = export(&v, 4, 0x30, 0x60).unwrap();
    assert_eq!((&shape[..2], &strides[..2]), (&[2i64, 3][..], &[-6i64, 2][..]));
    // not a multiple of the item size
    let odd = View::strided(0usize, 4, &[2, 3], &[12, 6]).unwrap();
    assert_eq!(export(&odd, 4, 0, 64), Err(Error::NotItemMultiple { axis: 1, stride: 6, itemsize: 4 }));
    // an axis of extent 1 (or a view with no item) addresses nothing through that stride
    let one = View::strided(0usize, 4, &[1, 3], &[7, 4]).unwrap();
    assert_eq!(export(&one, 4, 0, 12).unwrap().1[..2], [1, 1]);
    let none = View::strided(0usize, 4, &[0, 3], &[7, 6]).unwrap();
    assert!(export(&none, 4, 0, 0).is_ok());
    // outside the buffer
    assert_eq!(export(&v, 4, 0x30, 0x40), Err(Error::View(view::Error::OutOfBounds)));
    assert_eq!(export(&v, 4, 0, 0x60), Err(Error::View(view::Error::OutOfBounds)));
    assert_eq!(check_export_flags(3), Ok(()));
    assert_eq!(check_export_flags(4), Err(Error::Flags { flags: 4, allowed: 3 }));
}

#[test]
fn usual_imports_are_imports() {
    // import_usual against import on tensors inside and around its limits: where it takes one,
    // import succeeds with the same result.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let (mut taken, mut cases) = (0, 0);
    for _ in 0..200_000 {
        let ndim = next(10) as usize;
        let ndim = ndim.min(MAX_DIMS + 1);
        let extent = |r: u64| match r % 16 {
            0 => 0,
            1 => (1 << 29) + (r >> 8) as i64 % 3,
            2 => (1 << 30) - 1 + (r >> 8) as i64 % 3,
            3 => -1,
            _ => (r % 5) as i64,
        };
        let shape: Vec<i64> = (0..ndim).map(|_| extent(next(1 << 20))).collect();
        let stride = |r: u64| match r % 12 {
            0 => (1 << 28) + (r >> 8) as i64 % 5 - 2,
            1 => -(1 << 28) - (r >> 8) as i64 % 5 + 2,
            2 => i64::MAX - (r >> 8) as i64 % 2,
            _ => (r % 21) as i64 - 10,
        };
        let strides: Vec<i64> = (0..ndim).map(|_| stride(next(1 << 20))).collect();
        let itemsize = [1, 2, 4, 8, 16, 31][next(6) as usize];
        let data = [0usize, 0x1000, usize::MAX - 4096, 1 << 40][next(4) as usize];
        let byte_offset = [0u64, 8, (1 << 32) - 8, 1 << 32, u64::MAX][next(5) as usize];
        let strides = if next(3) == 0 { None } else { Some(&strides[..]) };
        cases += 1;
        if let Some(quick) = import_usual(data, &shape, strides, itemsize, byte_offset) {
            taken += 1;
            assert_eq!(
                import(data, &shape, strides, itemsize, byte_offset),
                Ok(quick),
                "{shape:?} {strides:?} {itemsize}"
            );
        }
    }
    assert!(taken > cases / 10 && taken < cases * 9 / 10, "{taken} of {cases} taken");
}
