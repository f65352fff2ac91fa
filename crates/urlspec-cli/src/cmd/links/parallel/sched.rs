//! How the threads of [`super`]'s pipeline are scheduled. The reader,
//! the threads inflating ahead of it and the writer are batch threads
//! (`SCHED_BATCH` on Linux): the scheduler does not let one that wakes
//! preempt the worker that woke it. It runs when a worker gives way (once
//! a task) or its time slice ends. Woken at once, each of these threads
//! would take the core from a worker for a few microseconds of work at
//! every hand-over: two context switches, and the worker's caches
//! refilled (BENCHMARKS.md, Threads).

/// While it lives, the thread that made it is a batch thread, and so is
/// every thread it starts (threads inherit their creator's policy); when
/// it is dropped, the thread's policy is what it was. A thread under
/// another policy than the default one (a user's `chrt --idle`, a
/// real-time policy) is left as it is, and so is any thread on systems
/// other than Linux.
pub struct Batch {
    /// The policy to restore; `None`: nothing was changed.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    restore: Option<i32>,
}

impl Batch {
    /// Makes the calling thread a batch thread, if it runs under the
    /// default policy.
    pub fn enter() -> Batch {
        #[cfg(target_os = "linux")]
        {
            if linux::policy() == Some(libc::SCHED_OTHER)
                && linux::set(libc::SCHED_BATCH)
            {
                return Batch { restore: Some(libc::SCHED_OTHER) };
            }
        }
        Batch { restore: None }
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(policy) = self.restore {
            linux::set(policy);
        }
    }
}

#[cfg(target_os = "linux")]
mod linux {
    /// The calling thread's scheduling policy.
    pub fn policy() -> Option<i32> {
        // SAFETY: a system call on the calling thread (id 0) that reads
        // no memory of ours.
        #[allow(unsafe_code)]
        let policy = unsafe { libc::sched_getscheduler(0) };
        (policy >= 0).then_some(policy)
    }

    /// Puts the calling thread under `policy` (one with no static
    /// priority); whether it took.
    pub fn set(policy: i32) -> bool {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: a system call on the calling thread (id 0) that reads
        // `param`, which lives across the call.
        #[allow(unsafe_code)]
        let done = unsafe { libc::sched_setscheduler(0, policy, &param) };
        done == 0
    }
}

#[cfg(all(test, target_os = "linux"))]
pub mod tests {
    use std::thread;

    use super::linux::{policy, set};
    use super::Batch;

    /// The calling thread's scheduling policy, for the pipeline's tests.
    pub fn current() -> Option<i32> {
        policy()
    }

    #[test]
    fn a_batch_thread_and_the_threads_it_starts_are_batch_until_it_ends() {
        thread::spawn(|| {
            assert_eq!(policy(), Some(libc::SCHED_OTHER));
            {
                let _batch = Batch::enter();
                assert_eq!(policy(), Some(libc::SCHED_BATCH));
                let started = thread::spawn(policy).join().unwrap();
                assert_eq!(started, Some(libc::SCHED_BATCH));
            }
            assert_eq!(policy(), Some(libc::SCHED_OTHER));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_thread_under_another_policy_is_left_as_it_is() {
        thread::spawn(|| {
            assert!(set(libc::SCHED_IDLE));
            {
                let _batch = Batch::enter();
                assert_eq!(policy(), Some(libc::SCHED_IDLE));
            }
            assert_eq!(policy(), Some(libc::SCHED_IDLE));
        })
        .join()
        .unwrap();
    }
}
