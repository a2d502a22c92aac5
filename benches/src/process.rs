//! What the sections read of processes: CPU time (a process's threads' run time from
//! /proc/PID/task/*/schedstat, in nanoseconds, else utime + stime from /proc/PID/stat in clock
//! ticks; this process's and its waited-for children's from rusage, ended threads included),
//! and a free UDP port on 127.0.0.1.

use std::net::UdpSocket;
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A live process's CPU seconds so far; `None` when /proc does not say (it is gone).
pub fn cpu_of(pid: u32) -> Option<f64> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let run_times: Vec<u64> = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse().ok())
        .collect();
    if run_times.is_empty() {
        return stat_seconds(pid);
    }
    Some(run_times.iter().sum::<u64>() as f64 / 1e9)
}

/// utime + stime of a process, from /proc/PID/stat.
fn stat_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing parenthesis; utime is the 14th field overall.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / ticks_per_second())
}

/// The kernel's clock ticks per second (`getconf CLK_TCK`; 100 when it cannot say).
fn ticks_per_second() -> f64 {
    static TICKS: OnceLock<f64> = OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// CPU seconds of this process (its threads, ended ones included) so far.
pub fn own_cpu() -> f64 {
    rusage(false)
}

/// CPU seconds of this process's waited-for children so far.
pub fn children_cpu() -> f64 {
    rusage(true)
}

/// User + system seconds of this process, or of its waited-for children (0 where the
/// platform does not say).
fn rusage(children: bool) -> f64 {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::resource::{getrusage, UsageWho};
        let who = match children {
            true => UsageWho::RUSAGE_CHILDREN,
            false => UsageWho::RUSAGE_SELF,
        };
        if let Ok(u) = getrusage(who) {
            let t = |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 / 1e6;
            return t(u.user_time()) + t(u.system_time());
        }
    }
    let _ = children;
    0.0
}

/// A UDP port on 127.0.0.1 nothing listens on now.
pub fn free_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .map_or(0, |a| a.port())
}

/// Returns once a process has bound UDP port `port` of 127.0.0.1 (a datagram sent before is
/// refused: an exporter scraping a simulator not yet listening fails the scrape); `Err` after
/// `within`.
pub fn wait_for_udp_port(port: u16, within: Duration) -> Result<(), String> {
    let until = Instant::now() + within;
    while UdpSocket::bind(("127.0.0.1", port)).is_ok() {
        if Instant::now() > until {
            return Err(format!("nothing took UDP port {port} within {within:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

/// Pins every thread of process `pid` (0: this process's calling thread, and what it starts
/// later) to CPU `cpu`: the sections that compare clients keep the agents on one CPU and the
/// clients on another, so that no client's figure depends on where the scheduler put it.
/// `Err` says why not (one CPU; not Linux).
pub fn pin(pid: u32, cpu: usize) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        use nix::sched::{sched_setaffinity, CpuSet};
        use nix::unistd::Pid;
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cpu >= cpus {
            return Err(format!("{cpus} CPU(s)"));
        }
        let mut set = CpuSet::new();
        set.set(cpu).map_err(|e| e.to_string())?;
        let tasks: Vec<i32> = if pid == 0 {
            vec![0]
        } else {
            std::fs::read_dir(format!("/proc/{pid}/task"))
                .map_err(|e| e.to_string())?
                .flatten()
                .filter_map(|t| t.file_name().to_str()?.parse().ok())
                .collect()
        };
        for t in tasks {
            sched_setaffinity(Pid::from_raw(t), &set).map_err(|e| e.to_string())?;
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (pid, cpu);
        Err("not Linux".into())
    }
}

/// The agents `agents` (process IDs) and this thread (and what it starts later) all on one
/// CPU, the last: a request and its answer are then two context switches on that CPU, where
/// across two CPUs each is a wake-up of the other (on a VM an inter-processor interrupt, tens
/// of microseconds and the largest and least steady part of a round trip: docs/benchmarks.md,
/// "Where a client's turn goes"). A note saying so, or why not.
pub fn pin_together(agents: &[u32]) -> String {
    let cpu = std::thread::available_parallelism().map_or(1, |n| n.get()) - 1;
    let pinned = agents
        .iter()
        .try_for_each(|&pid| pin(pid, cpu))
        .and_then(|()| pin(0, cpu));
    match pinned {
        Ok(()) => format!("the agents and the clients pinned to CPU {cpu}"),
        Err(e) => format!("not pinned ({e})"),
    }
}

/// The agents `agents` (process IDs) on the first CPU, this thread (and the threads and
/// processes it starts later) on the second: a note saying so, or why not.
pub fn pin_apart(agents: &[u32]) -> String {
    let pinned = agents
        .iter()
        .try_for_each(|&pid| pin(pid, 0))
        .and_then(|()| pin(0, 1));
    match pinned {
        Ok(()) => "the agent pinned to CPU 0, the clients to CPU 1".into(),
        Err(e) => format!("not pinned ({e})"),
    }
}
