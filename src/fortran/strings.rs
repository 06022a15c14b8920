//! Fortran CHARACTER arguments: a pointer plus a hidden length, blank-padded, no NUL.

use std::ffi::c_char;

/// A CHARACTER input argument, trailing blanks trimmed (MPI 4.1 §19.1.9: trailing blanks are
/// not significant in names and strings passed from Fortran).
///
/// # Safety
/// `s` must point to `len` readable bytes.
pub unsafe fn read_fortran_string(s: *const c_char, len: usize) -> String {
    if s.is_null() || len == 0 {
        return String::new();
    }
    // SAFETY: `s` is valid here by this function's contract (its `# Safety`).
    let bytes = unsafe { std::slice::from_raw_parts(s.cast::<u8>(), len) };
    let end = bytes
        .iter()
        .rposition(|&b| b != b' ' && b != 0)
        .map_or(0, |i| i + 1);
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// A CHARACTER output argument: `text` (cut to `max` bytes and to the variable's length),
/// blank-padded to the hidden length. Returns the number of characters written (`resultlen`).
///
/// # Safety
/// `buf` must point to `len` writable bytes.
pub unsafe fn write_fortran_string(buf: *mut c_char, len: usize, max: usize, text: &str) -> i32 {
    if buf.is_null() {
        return 0;
    }
    let bytes = text.as_bytes();
    let n = bytes.len().min(len).min(max);
    // SAFETY: `buf` is valid here by this function's contract (its `# Safety`).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), n);
        std::ptr::write_bytes(buf.cast::<u8>().add(n), b' ', len - n);
    }
    n as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_blanks_are_trimmed_on_input() {
        let s = b"world   ";
        assert_eq!(
            // SAFETY: `s` has `s.len()` readable bytes.
            unsafe { read_fortran_string(s.as_ptr().cast(), s.len()) },
            "world"
        );
        let e = b"    ";
        // SAFETY: `e` has 4 readable bytes.
        assert_eq!(unsafe { read_fortran_string(e.as_ptr().cast(), 4) }, "");
    }

    #[test]
    fn output_is_blank_padded_and_cut() {
        let mut buf = [b'x'; 8];
        // SAFETY: `buf` has 8 writable bytes.
        let n = unsafe { write_fortran_string(buf.as_mut_ptr().cast(), 8, 100, "abc") };
        assert_eq!(n, 3);
        assert_eq!(&buf, b"abc     ");
        // SAFETY: `buf` has 8 writable bytes, more than the 2 given.
        let n = unsafe { write_fortran_string(buf.as_mut_ptr().cast(), 2, 100, "abc") };
        assert_eq!(n, 2);
        assert_eq!(&buf[..2], b"ab");
    }
}
