//! Huge pages for the big tables that the search reads at random (the
//! transposition table, continuation history): with 4 KiB pages nearly every
//! probe also misses the TLB.

/// Asks the kernel to back the still untouched capacity of `v` with huge pages.
/// Call it before filling the vector: pages already touched stay small. Where
/// the kernel says no, nothing changes.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn advise<T>(v: &Vec<T>) {
    const HUGE: usize = 2 << 20;
    let start = v.as_ptr() as usize;
    let end = start + v.capacity() * std::mem::size_of::<T>();
    let aligned = start.next_multiple_of(HUGE);
    let len = end.saturating_sub(aligned) / HUGE * HUGE;
    if len > 0 {
        // SAFETY: the range lies inside the vector's own allocation, and
        // MADV_HUGEPAGE changes only how the kernel backs those pages, never
        // their contents; its result is a hint's, so an error is ignored.
        unsafe { libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
pub fn advise<T>(_: &Vec<T>) {}
