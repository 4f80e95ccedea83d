//! Progress on stderr for long runs: a line redrawn in place when stderr is a terminal,
//! nothing at all otherwise (pipes, CI logs, tests).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A status line; `None` inside when stderr is not a terminal.
pub struct Progress {
    inner: Option<Arc<Inner>>,
    ticker: Option<std::thread::JoinHandle<()>>,
}

struct Inner {
    started: Instant,
    label: Mutex<String>,
    done: AtomicUsize,
    total: usize,
    stop: AtomicBool,
}

impl Progress {
    /// A spinner with a label (`total` 0) or a bar of `total` steps. Shown only after
    /// half a second, so quick runs print nothing.
    pub fn new(label: &str, total: usize) -> Progress {
        if !std::io::stderr().is_terminal() || std::env::var_os("KDIAG_NO_PROGRESS").is_some() {
            return Progress {
                inner: None,
                ticker: None,
            };
        }
        let inner = Arc::new(Inner {
            started: Instant::now(),
            label: Mutex::new(label.to_string()),
            done: AtomicUsize::new(0),
            total,
            stop: AtomicBool::new(false),
        });
        let t = inner.clone();
        let ticker = std::thread::spawn(move || {
            let mut frame = 0usize;
            while !t.stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(120));
                if t.started.elapsed() < Duration::from_millis(500)
                    || t.stop.load(Ordering::Relaxed)
                {
                    continue;
                }
                frame += 1;
                let line = t.line(frame);
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2K{line}");
                let _ = err.flush();
            }
        });
        Progress {
            inner: Some(inner),
            ticker: Some(ticker),
        }
    }

    pub fn set_label(&self, label: &str) {
        if let Some(i) = &self.inner
            && let Ok(mut l) = i.label.lock()
        {
            *l = label.to_string();
        }
    }

    pub fn step(&self) {
        if let Some(i) = &self.inner {
            i.done.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Clears the line.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(i) = self.inner.take() {
            i.stop.store(true, Ordering::Relaxed);
            if let Some(t) = self.ticker.take() {
                let _ = t.join();
            }
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Inner {
    fn line(&self, frame: usize) -> String {
        const SPIN: [char; 4] = ['|', '/', '-', '\\'];
        let secs = self.started.elapsed().as_secs_f64();
        let label = self.label.lock().map(|l| l.clone()).unwrap_or_default();
        let label: String = label.chars().take(60).collect();
        if self.total == 0 {
            return format!("kdiag {} {label} {secs:.1}s", SPIN[frame % 4]);
        }
        let done = self.done.load(Ordering::Relaxed).min(self.total);
        let width = 30;
        let filled = done * width / self.total;
        format!(
            "kdiag [{}{}] {done}/{} {label} {secs:.0}s",
            "#".repeat(filled),
            "-".repeat(width - filled),
            self.total
        )
    }
}
