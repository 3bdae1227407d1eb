//! Splitting one piece of work over the worker's helper threads.
//!
//! Only the threaded wasm build (`+atomics`, shared memory; the page loads it
//! when it is cross-origin isolated) has helpers: web workers that run
//! `helper_loop` (compiled in that build only) on the same memory. Every
//! other build, and the threaded one before its helpers have started, runs
//! the whole range on the calling
//! thread. Callers split work whose result does not depend on the split (the
//! small-batch kernel's output columns, GELU's elements, the lanes'
//! decisions), so results are bit-identical either way.
// The threaded build (nightly, `+atomics`) sleeps on wasm's atomics.
#![cfg_attr(
    all(target_arch = "wasm32", target_feature = "atomics"),
    feature(stdarch_wasm_atomic_wait)
)]

use std::ops::Range;

/// Threads that [`split`] would use now: the caller plus ready helpers.
pub fn threads() -> usize {
    1 + imp::ready_helpers()
}

/// Parts per thread a [`split`] cuts its range into (when it is long
/// enough): each thread takes the next part as it becomes free, so a helper
/// that wakes late, or is descheduled, leaves its parts to the others
/// instead of holding the caller up.
const PARTS_PER_THREAD: usize = 8;

/// Runs `f` over `0..len` cut into contiguous parts, each at least
/// `min_per_part` long (so small work is not worth a wake-up), a few per
/// thread. Returns when every part is done.
pub fn split(len: usize, min_per_part: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
    let threads = threads();
    let parts = (threads * PARTS_PER_THREAD)
        .min(len / min_per_part.max(1))
        .max(1);
    if threads == 1 || parts == 1 {
        f(0..len);
    } else {
        imp::run(len, parts, f);
    }
}

/// Runs `f(i)` for every `i` in `0..n`, each thread taking the next index
/// as it becomes free (for items of uneven cost, such as decoding lanes).
pub fn each(n: usize, f: &(dyn Fn(usize) + Sync)) {
    if threads() == 1 || n < 2 {
        (0..n).for_each(f);
    } else {
        imp::run(n, n, &|range| range.for_each(f));
    }
}

/// A buffer that the parts of a [`split`] fill, each its own elements: the
/// one place where threads share a `&mut` output.
pub struct Disjoint<'a, T> {
    ptr: *mut T,
    len: usize,
    _buf: std::marker::PhantomData<&'a mut [T]>,
}

impl<'a, T> Disjoint<'a, T> {
    pub fn new(buf: &'a mut [T]) -> Self {
        Disjoint {
            ptr: buf.as_mut_ptr(),
            len: buf.len(),
            _buf: std::marker::PhantomData,
        }
    }

    /// Elements `range` of the buffer.
    ///
    /// # Safety
    /// No other part reads or writes any of `range` while the slice lives.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice(&self, range: Range<usize>) -> &mut [T] {
        assert!(
            range.start <= range.end && range.end <= self.len,
            "Disjoint: {range:?} outside 0..{}",
            self.len
        );
        // SAFETY: in bounds (asserted); exclusive by the caller's promise.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }
}

// SAFETY: parts only touch their own elements (the contract of `slice`).
unsafe impl<T: Send> Sync for Disjoint<'_, T> {}
// SAFETY: it is a `&mut [T]` in all but name, and `T: Send`.
unsafe impl<T: Send> Send for Disjoint<'_, T> {}

/// The `part`-th of `parts` near-equal contiguous pieces of `0..len`.
fn part_range(len: usize, parts: usize, part: usize) -> Range<usize> {
    len * part / parts..len * (part + 1) / parts
}

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
pub use imp::{failure_words, helper_loop};

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
mod imp {
    //! One job at a time, published like a seqlock: the caller makes `EPOCH`
    //! odd, writes the job's words, makes it even again and wakes every
    //! helper; a helper copies the words of an even epoch and keeps them only
    //! if `EPOCH` did not move meanwhile. The job's parts are then claimed
    //! one at a time, by the caller and by any helper awake, from `NEXT`,
    //! which holds the epoch beside the next part's index: a helper still
    //! holding an older job's words cannot claim a part of the new one. The
    //! caller returns once every part is claimed and every claimed part is
    //! done, so a helper that wakes late (a sleeping helper took up to a few
    //! milliseconds to start in Chromium on this 2-core machine, measured at
    //! the first product of most one-lane steps) finds nothing left to claim
    //! and the caller never waits for it. Helpers spin a little before
    //! sleeping on `EPOCH` (the matmuls of one forward pass come tens of
    //! microseconds apart).
    use super::part_range;
    use core::arch::wasm32::{memory_atomic_notify, memory_atomic_wait32};
    use std::ops::Range;
    use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};

    type Job = dyn Fn(Range<usize>) + Sync;

    static HELPERS: AtomicU32 = AtomicU32::new(0);
    /// Even while a job's words are whole, odd while they are being written.
    static EPOCH: AtomicU32 = AtomicU32::new(0);
    /// The job's epoch (high half) and the index of its next unclaimed part.
    static NEXT: AtomicU64 = AtomicU64::new(0);
    /// Parts of the job that helpers have finished.
    static DONE: AtomicU32 = AtomicU32::new(0);
    /// The job: the address of the caller's `&Job` (a thin pointer to a
    /// fat one, whose layout is the compiler's business), length and parts.
    static JOB: [AtomicUsize; 3] = [const { AtomicUsize::new(0) }; 3];
    /// Set while a job is out, so a nested or concurrent `split` runs inline.
    static BUSY: AtomicBool = AtomicBool::new(false);
    /// Set (from JavaScript) when a helper stopped on a trap: its parts would
    /// never be done, so the worker stops with an error instead of hanging.
    static FAILED: AtomicU32 = AtomicU32::new(0);

    /// About 1 ms of polling before sleeping: a step's products come closer
    /// together than that, and a helper woken from sleep for each one was
    /// slower. Measured in Chromium, two threads, distilgpt2-shaped, four
    /// paired rounds against 2^16 spins (50–100 µs): four lanes F32 +5 %,
    /// Q8_0 +9 % (faster in every round), one lane +2 % and +7 %.
    const SPINS: u32 = 1 << 20;

    pub fn ready_helpers() -> usize {
        HELPERS.load(Acquire) as usize
    }

    /// Byte addresses in the shared memory of the failure flag and of the
    /// word the worker waits on, for a helper's JavaScript wrapper to set
    /// and wake when the helper traps.
    pub fn failure_words() -> [u32; 2] {
        [FAILED.as_ptr() as u32, DONE.as_ptr() as u32]
    }

    fn check_helpers() {
        assert!(
            FAILED.load(Acquire) == 0,
            "a helper thread of the engine stopped; restart the worker"
        );
    }

    /// The next unclaimed part of the job of `epoch` (of `parts`), claimed,
    /// or `None` when all are taken or a newer job is out.
    fn claim(epoch: u32, parts: usize) -> Option<usize> {
        let mut next = NEXT.load(Acquire);
        loop {
            let index = (next & u64::from(u32::MAX)) as usize;
            if (next >> 32) as u32 != epoch || index >= parts {
                return None;
            }
            match NEXT.compare_exchange_weak(next, next + 1, AcqRel, Acquire) {
                Ok(_) => return Some(index),
                Err(now) => next = now,
            }
        }
    }

    pub fn run(len: usize, parts: usize, f: &(dyn Fn(Range<usize>) + Sync + '_)) {
        if BUSY.swap(true, Acquire) {
            return f(0..len);
        }
        check_helpers();
        // Helpers read `job` through its address only after claiming a part,
        // and this call returns only when every claimed part is done, so the
        // reference and `f` outlive every use.
        let job: &(dyn Fn(Range<usize>) + Sync + '_) = f;
        let job_address = std::ptr::addr_of!(job) as usize;
        let epoch = EPOCH.fetch_add(1, Relaxed).wrapping_add(2);
        // A helper that reads any of the new words also sees the odd epoch.
        std::sync::atomic::fence(Release);
        for (slot, word) in JOB.iter().zip([job_address, len, parts]) {
            slot.store(word, Relaxed);
        }
        DONE.store(0, Relaxed);
        NEXT.store(u64::from(epoch) << 32, Relaxed);
        EPOCH.fetch_add(1, Release);
        // Every sleeper: which helpers sleep is not known.
        // SAFETY: `EPOCH` is a valid, aligned 32-bit atomic in linear memory.
        unsafe { memory_atomic_notify(EPOCH.as_ptr() as *mut i32, u32::MAX) };
        let mut mine = 0;
        while let Some(part) = claim(epoch, parts) {
            f(part_range(len, parts, part));
            mine += 1;
        }
        wait_until_changed(&DONE, |done| {
            done as usize == parts - mine || FAILED.load(Acquire) != 0
        });
        check_helpers();
        BUSY.store(false, Release);
    }

    /// A helper thread's whole life: take parts of every job while any are
    /// left.
    pub fn helper_loop() -> ! {
        // Read before registering: a job published after registration has a
        // newer epoch, so it cannot be missed.
        let mut seen = EPOCH.load(Acquire) & !1;
        HELPERS.fetch_add(1, AcqRel);
        loop {
            let epoch = wait_until_changed(&EPOCH, |e| e != seen && e % 2 == 0);
            seen = epoch;
            let words: [usize; 3] = std::array::from_fn(|i| JOB[i].load(Relaxed));
            // The words are read before the epoch is checked again.
            std::sync::atomic::fence(Acquire);
            if EPOCH.load(Relaxed) != epoch {
                continue; // a newer job was being written; take that one
            }
            let [job_address, len, parts] = words;
            while let Some(part) = claim(epoch, parts) {
                // SAFETY: `job_address` is the address of `run`'s `&Job`;
                // this part is claimed and not done, so `run` is still
                // waiting and keeps it (and the closure) alive.
                let f: &Job = unsafe { *(job_address as *const &Job) };
                f(part_range(len, parts, part));
                DONE.fetch_add(1, Release);
                // SAFETY: `DONE` is a valid, aligned 32-bit atomic in linear memory.
                unsafe { memory_atomic_notify(DONE.as_ptr() as *mut i32, 1) };
            }
        }
    }

    /// Spins, then sleeps, until `ok(value)`; returns that value.
    fn wait_until_changed(cell: &AtomicU32, ok: impl Fn(u32) -> bool) -> u32 {
        let mut spins = 0;
        loop {
            let v = cell.load(Acquire);
            if ok(v) {
                return v;
            }
            if spins < SPINS {
                spins += 1;
                core::hint::spin_loop();
            } else {
                // SAFETY: `cell` is a valid, aligned 32-bit atomic in linear
                // memory; the wait returns at once if the value moved on.
                unsafe { memory_atomic_wait32(cell.as_ptr() as *mut i32, v as i32, -1) };
            }
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "atomics")))]
mod imp {
    use std::ops::Range;

    pub fn ready_helpers() -> usize {
        0
    }

    /// Never reached with more than one part (there are no helpers); kept
    /// part by part so a split means the same in every build.
    pub fn run(len: usize, parts: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
        for p in 0..parts {
            f(super::part_range(len, parts, p));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_visits_every_index_once() {
        let seen: Vec<_> = (0..9)
            .map(|_| std::sync::atomic::AtomicUsize::new(0))
            .collect();
        each(9, &|i| {
            seen[i].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        assert!(seen
            .iter()
            .all(|s| s.load(std::sync::atomic::Ordering::Relaxed) == 1));
    }

    #[test]
    fn parts_fill_their_own_elements_of_a_disjoint_buffer() {
        let mut buf = vec![0usize; 10];
        let out = Disjoint::new(&mut buf);
        split(10, 3, &|range| {
            // SAFETY: each part writes only its own range.
            for (o, i) in unsafe { out.slice(range.clone()) }.iter_mut().zip(range) {
                *o = i * 2;
            }
        });
        assert_eq!(buf, (0..10).map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    #[should_panic(expected = "outside")]
    fn a_disjoint_slice_past_the_end_is_refused() {
        let mut buf = [0u8; 4];
        let out = Disjoint::new(&mut buf);
        // SAFETY: nothing else uses the buffer; the bounds check panics first.
        let _ = unsafe { out.slice(2..5) };
    }

    #[test]
    fn parts_cover_the_range_once_in_order() {
        for len in [0, 1, 7, 768, 50257] {
            for parts in 1..=5 {
                let mut next = 0;
                for p in 0..parts {
                    let r = part_range(len, parts, p);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, len);
            }
        }
    }
}
