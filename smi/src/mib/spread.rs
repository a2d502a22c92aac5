//! Worker threads that start on a CPU of their own.
//!
//! Linux starts a new thread on its parent's CPU. On this project's 2-vCPU machines the idle
//! CPU takes it over only after the two have shared one CPU for several 4 ms time slices:
//! `perf sched timehist` of a parse of the corpus's `ietf/` folder showed the parsing thread
//! and its worker taking turns on CPU 0 for 16 ms while CPU 1 idled, and the parse's wall
//! time going from 13 to 26 ms from run to run. A thread started with [`spawn`] first moves
//! itself to another CPU the process may use, once: it then gives its affinity back, so the
//! scheduler stays free to move it as it would any other thread.

use std::thread::{Scope, ScopedJoinHandle};

/// `scope.spawn(f)`, for the `k`-th worker (from 1) of the calling thread: the worker moves to
/// the `k`-th of the other CPUs the process may use (counted round) before it runs `f`.
/// Where there is no other CPU, or the CPU or the affinity cannot be read or set, it runs `f`
/// where it was started.
///
/// ```
/// let squares: Vec<u64> = std::thread::scope(|scope| {
///     let other = snmp_smi::mib::spread::spawn(scope, 1, || (50..100u64).map(|n| n * n).sum());
///     let mine: u64 = (0..50u64).map(|n| n * n).sum();
///     vec![mine, other.join().unwrap()]
/// });
/// assert_eq!(squares.iter().sum::<u64>(), (0..100u64).map(|n| n * n).sum());
/// ```
pub fn spawn<'scope, 'env, T, F>(
    scope: &'scope Scope<'scope, 'env>,
    k: usize,
    f: F,
) -> ScopedJoinHandle<'scope, T>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    let spawner = current_cpu();
    scope.spawn(move || {
        if let Some(cpu) = spawner {
            leave_cpu(cpu, k);
        }
        f()
    })
}

/// The CPU the calling thread runs on.
fn current_cpu() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sched_getcpu has no preconditions.
        let cpu = unsafe { libc::sched_getcpu() };
        usize::try_from(cpu).ok()
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// Moves the calling thread to the `k`-th CPU other than `spawner` that it may use, then
/// gives its affinity back.
#[cfg(target_os = "linux")]
fn leave_cpu(spawner: usize, k: usize) {
    // SAFETY: cpu_set_t is plain data; the calls read and set the calling thread's own
    // affinity (pid 0) through sets of the size they are given.
    unsafe {
        let size = std::mem::size_of::<libc::cpu_set_t>();
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, size, &mut allowed) != 0 {
            return;
        }
        let others: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| c != spawner && libc::CPU_ISSET(c, &allowed))
            .collect();
        if others.is_empty() {
            return;
        }
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(others[k.saturating_sub(1) % others.len()], &mut one);
        if libc::sched_setaffinity(0, size, &one) == 0 {
            // Moved (the call returns on the new CPU); free to move again.
            libc::sched_setaffinity(0, size, &allowed);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn leave_cpu(_spawner: usize, _k: usize) {}
