//! A global allocator that counts what one thread allocates while it asks
//! to be counted: the number of allocations, the bytes allocated, and the
//! most bytes live at once. The test harness's own allocations, and those
//! of other threads, are not counted, so the counts are deterministic and
//! independent of the machine.
//!
//! A test binary installs it once:
//!
//! ```
//! use urlspec_test_support::alloc::{measure, Counting};
//!
//! #[global_allocator]
//! static GLOBAL: Counting = Counting;
//!
//! # fn main() {
//! let (v, allocated) = measure(|| vec![0u8; 100]);
//! assert_eq!(v.len(), 100);
//! assert_eq!((allocated.count, allocated.total, allocated.peak), (1, 100, 100));
//! let ((), none) = measure(|| ());
//! assert_eq!(none.count, 0);
//! # }
//! ```

// Implementing `GlobalAlloc` takes an `unsafe impl`.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, plus counts for the current thread while
/// [`measure`] runs on it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counting;

thread_local! {
    // `const` and `Drop`-free: reading them never allocates, so the
    // allocator can use them without re-entering itself.
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static TOTAL: Cell<usize> = const { Cell::new(0) };
}

fn counting() -> bool {
    // `try_with`: the allocator can be called while the thread's locals
    // are being torn down.
    ON.try_with(Cell::get).unwrap_or(false)
}

fn grew(bytes: usize) {
    if counting() {
        COUNT.with(|c| c.set(c.get() + 1));
        let live = LIVE.with(Cell::get) + bytes as isize;
        LIVE.with(|c| c.set(live));
        PEAK.with(|c| c.set(c.get().max(live)));
        TOTAL.with(|c| c.set(c.get() + bytes));
    }
}

fn shrank(bytes: usize) {
    if counting() {
        LIVE.with(|c| c.set(c.get() - bytes as isize));
    }
}

// SAFETY: every method forwards its arguments unchanged to `System`, which
// upholds the `GlobalAlloc` contract; the additions only update
// thread-local counters, which neither allocate nor touch the memory
// handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's guarantees for `alloc` pass through as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(
        &self,
        ptr: *mut u8,
        layout: Layout,
        new_size: usize,
    ) -> *mut u8 {
        shrank(layout.size());
        grew(new_size);
        // SAFETY: `ptr` came from `System` through this allocator, and the
        // caller's guarantees for `realloc` pass through as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        // SAFETY: `ptr` came from `System` through this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// What a call allocated on its thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Allocated {
    /// The allocations made (a `realloc` counts as one).
    pub count: usize,
    /// The most bytes live at once, above what was live before the call.
    pub peak: usize,
    /// Every byte allocated (a `realloc` counts its new size).
    pub total: usize,
}

/// Runs `f`, counting what it allocates on this thread. Counts only when
/// [`Counting`] is the binary's global allocator (all zero otherwise).
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, Allocated) {
    COUNT.with(|c| c.set(0));
    LIVE.with(|c| c.set(0));
    PEAK.with(|c| c.set(0));
    TOTAL.with(|c| c.set(0));
    ON.with(|c| c.set(true));
    let out = f();
    ON.with(|c| c.set(false));
    let allocated = Allocated {
        count: COUNT.with(Cell::get),
        peak: usize::try_from(PEAK.with(Cell::get)).unwrap_or(0),
        total: TOTAL.with(Cell::get),
    };
    (out, allocated)
}
