//! The module's boundary with JavaScript: one buffer in its memory that the
//! caller writes a request into and reads the answer from, one call, and two
//! imports (`env.now_ms`, `env.info`). Strings cross as UTF-8 bytes; nothing
//! else crosses, so the boundary needs no generated glue.
#![allow(unsafe_code)]

use std::cell::RefCell;

thread_local! {
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

// SAFETY: the host gives these two functions with these signatures (the
// JavaScript in `npm/` does); `info` only reads the bytes it is shown.
#[link(wasm_import_module = "env")]
unsafe extern "C" {
    safe fn now_ms() -> f64;
    safe fn info(ptr: *const u8, len: usize);
}

/// Makes room for a request of `len` bytes; answers where to write it.
#[unsafe(no_mangle)]
pub extern "C" fn buffer(len: usize) -> *mut u8 {
    BUFFER.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// Answers the request the buffer holds (its first `len` bytes); the answer
/// is then in the buffer (see [`output`]), and its length is returned.
#[unsafe(no_mangle)]
pub extern "C" fn call(len: usize) -> usize {
    xiangqi_engine::clock::set_clock(|| now_ms());
    let request = BUFFER.with(|b| {
        let b = b.borrow();
        String::from_utf8_lossy(&b[..len.min(b.len())]).into_owned()
    });
    let answer = crate::handle(&request, &mut |text: &str| info(text.as_ptr(), text.len()));
    BUFFER.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.extend_from_slice(answer.as_bytes());
        b.len()
    })
}

/// Where the last answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn output() -> *const u8 {
    BUFFER.with(|b| b.borrow().as_ptr())
}
