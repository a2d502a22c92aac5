//! Worker threads that start on a CPU of their own.
//!
//! Linux starts a new thread on its parent's CPU. On the 2-vCPU VMs the benchmarks run on,
//! the idle CPU takes it over only after the two have shared one CPU for several 4 ms time
//! slices: `perf sched timehist` of a parse of the corpus's `ietf/` folder showed the parsing
//! thread and its worker taking turns on CPU 0 for 16 ms while CPU 1 idled, and the parse's
//! wall time going from 13 to 26 ms from run to run. A thread started with [`spawn`] first
//! moves itself to another CPU the process may use, once: it then gives its affinity back, so
//! the scheduler stays free to move it as it would any other thread.

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
    return nix::sched::sched_getcpu().ok();
    #[cfg(not(target_os = "linux"))]
    None
}

/// Moves the calling thread to the `k`-th CPU other than `spawner` that it may use, then
/// gives its affinity back: the CPU it was moved to, or `None` where it was not moved.
#[cfg(target_os = "linux")]
fn leave_cpu(spawner: usize, k: usize) -> Option<usize> {
    use nix::sched::{sched_getaffinity, sched_getcpu, sched_setaffinity, CpuSet};
    use nix::unistd::Pid;
    // Pid 0: the calling thread.
    let me = Pid::from_raw(0);
    let allowed = sched_getaffinity(me).ok()?;
    let others: Vec<usize> = (0..CpuSet::count())
        .filter(|&c| c != spawner && allowed.is_set(c).unwrap_or(false))
        .collect();
    let target = *others.get(k.saturating_sub(1) % others.len().max(1))?;
    let mut one = CpuSet::new();
    one.set(target).ok()?;
    sched_setaffinity(me, &one).ok()?;
    // The call returns on the new CPU; then the thread is free to move again.
    let moved = sched_getcpu().ok();
    let _ = sched_setaffinity(me, &allowed);
    moved
}

#[cfg(not(target_os = "linux"))]
fn leave_cpu(_spawner: usize, _k: usize) -> Option<usize> {
    None
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use nix::sched::{sched_getaffinity, CpuSet};
    use nix::unistd::Pid;

    #[test]
    fn a_worker_leaves_its_spawners_cpu_and_keeps_its_affinity() {
        let allowed = sched_getaffinity(Pid::from_raw(0)).expect("the test's affinity");
        let cpus: Vec<usize> = (0..CpuSet::count())
            .filter(|&c| allowed.is_set(c).unwrap_or(false))
            .collect();
        if cpus.len() < 2 {
            eprintln!("skipped: this process may use one CPU only");
            return;
        }
        let spawner = cpus[0];
        for k in 1..=cpus.len() {
            let (moved, after) = std::thread::scope(|scope| {
                scope
                    .spawn(|| {
                        let moved = leave_cpu(spawner, k);
                        (moved, sched_getaffinity(Pid::from_raw(0)).ok())
                    })
                    .join()
                    .expect("the worker")
            });
            // The k-th of the others, counted round.
            assert_eq!(
                moved,
                Some(cpus[1 + (k - 1) % (cpus.len() - 1)]),
                "worker {k}"
            );
            assert_eq!(after, Some(allowed), "worker {k}: affinity given back");
        }
    }
}
