//! Ctrl-C (SIGINT) and SIGTERM as a request to stop: the long-running commands (`listen`,
//! `simulate`) end as they do at `--count` or `--for`, with their counters, rather than dying
//! without them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag set once SIGINT or SIGTERM arrives (watched by a thread of its own); `None` when
/// the signals cannot be watched (a note says why), and the command then ends as before.
pub fn on_signals() -> Option<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    let set = flag.clone();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build();
    let runtime = match runtime {
        Ok(r) => r,
        Err(e) => {
            eprintln!("snmpc: note: Ctrl-C ends without the counters ({e})");
            return None;
        }
    };
    let watching = runtime.block_on(async {
        use tokio::signal::unix::{signal, SignalKind};
        Ok::<_, std::io::Error>((
            signal(SignalKind::interrupt())?,
            signal(SignalKind::terminate())?,
        ))
    });
    let (mut interrupt, mut terminate) = match watching {
        Ok(s) => s,
        Err(e) => {
            eprintln!("snmpc: note: Ctrl-C ends without the counters ({e})");
            return None;
        }
    };
    std::thread::spawn(move || {
        runtime.block_on(async {
            let either = std::future::poll_fn(|cx| {
                if interrupt.poll_recv(cx).is_ready() || terminate.poll_recv(cx).is_ready() {
                    std::task::Poll::Ready(())
                } else {
                    std::task::Poll::Pending
                }
            });
            either.await;
        });
        set.store(true, Ordering::Relaxed);
    });
    Some(flag)
}

/// Whether `flag` says to stop.
pub fn asked(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
}
