//! What the criterion benchmarks (views.rs, ownership.rs, copy.rs) share.

use core::ffi::c_int;
use memviewslice::ffi::{mvs_last_error, mvs_status, MVS_OK};

/// The order argument 'C'.
pub const C: c_int = b'C' as c_int;

/// Panics with the library's message unless `status` is MVS_OK; `what` names the call.
pub fn check(status: mvs_status, what: &str) {
    // SAFETY: mvs_last_error gives a NUL-terminated message that lives until the thread's next call.
    assert_eq!(status, MVS_OK, "{what} failed: {:?}", unsafe { core::ffi::CStr::from_ptr(mvs_last_error()) });
}

/// `check` of a call that needs no name.
pub fn ok(status: mvs_status) {
    check(status, "a call");
}
