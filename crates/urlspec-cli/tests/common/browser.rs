//! Headless Chromium for tests: load a page, let its script run for a
//! bounded virtual time, and return the DOM as Chromium serializes it
//! (`--dump-dom`). Chromium runs in a fresh profile directory, is killed
//! whatever happens, and is given a bounded wall-clock time.
//!
//! Debian's `chromium` (`/usr/bin/chromium`, or `URLSPEC_CHROMIUM`). When
//! it is missing, [`Chromium::find`] returns `None`, unless CI asks for
//! the browser (`CI` or `URLSPEC_BROWSER_REQUIRED` set to anything but
//! `0`), where it panics: a test must not pass by skipping in CI.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// The longest a Chromium run may take before it is killed.
const WALL_LIMIT: Duration = Duration::from_secs(60);

/// A Chromium binary.
pub struct Chromium {
    path: PathBuf,
}

/// Whether CI requires the browser.
fn required() -> bool {
    ["CI", "URLSPEC_BROWSER_REQUIRED"].iter().any(|name| {
        std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
    })
}

impl Chromium {
    /// Chromium, if it is installed (see the module's docs).
    pub fn find() -> Option<Chromium> {
        let path = std::env::var_os("URLSPEC_CHROMIUM")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
        if path.is_file() {
            return Some(Chromium { path });
        }
        assert!(
            !required(),
            "Chromium is required (CI or URLSPEC_BROWSER_REQUIRED) but {} \
             is missing: apt-get install -y chromium",
            path.display()
        );
        eprintln!("skipped: no Chromium at {}", path.display());
        None
    }

    /// The DOM of `url` after `virtual_ms` of virtual time (what script
    /// adds in that time included).
    pub fn dump_dom(&self, url: &str, virtual_ms: u32) -> String {
        self.dump_dom_with(url, virtual_ms, &[])
    }

    /// [`Chromium::dump_dom`] with more command-line switches (a
    /// `--host-resolver-rules` sending every host to a test server).
    ///
    /// A run that ends with no DOM at all (Chromium died, as it now and
    /// then does on a loaded machine) is tried again, up to three runs in
    /// all, each in a fresh profile.
    pub fn dump_dom_with(
        &self,
        url: &str,
        virtual_ms: u32,
        switches: &[String],
    ) -> String {
        let mut attempt = self.run(url, virtual_ms, switches);
        for _ in 0..2 {
            if !matches!(&attempt, (Some(_), dom) if dom.is_empty()) {
                break;
            }
            attempt = self.run(url, virtual_ms, switches);
        }
        let (status, dom) = attempt;
        assert!(
            status.is_some(),
            "Chromium did not finish {url} within {WALL_LIMIT:?}"
        );
        assert!(
            dom.contains("</html>"),
            "no DOM for {url} (Chromium {}): {dom:.200}",
            status.map_or_else(String::new, |s| s.to_string())
        );
        dom
    }

    /// One Chromium run on `url`: its exit status (`None`: killed at the
    /// wall-clock limit) and what it printed.
    fn run(
        &self,
        url: &str,
        virtual_ms: u32,
        switches: &[String],
    ) -> (Option<std::process::ExitStatus>, String) {
        let profile = Profile::new();
        let mut command = Command::new(&self.path);
        command.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ]);
        command.arg(format!("--user-data-dir={}", profile.path.display()));
        command.args(switches);
        command.arg(format!("--virtual-time-budget={virtual_ms}"));
        command.args(["--dump-dom", url]);
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", self.path.display()));
        let mut stdout = child.stdout.take().expect("piped standard output");
        let reader = thread::spawn(move || {
            let mut dom = String::new();
            let _ = stdout.read_to_string(&mut dom);
            dom
        });
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if start.elapsed() < WALL_LIMIT => {
                    thread::sleep(Duration::from_millis(50));
                }
                _ => break None,
            }
        };
        if status.is_none() {
            let _ = child.kill();
            let _ = child.wait();
        }
        let dom = reader.join().unwrap_or_default();
        (status, dom)
    }
}

/// A fresh profile directory, removed when dropped.
struct Profile {
    path: PathBuf,
}

impl Profile {
    fn new() -> Profile {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir()
            .join(format!("urlspec-chromium-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("profile directory");
        Profile { path }
    }
}

impl Drop for Profile {
    fn drop(&mut self) {
        remove(&self.path);
    }
}

/// Removes a directory tree, ignoring failures (Chromium may still be
/// writing into it as it is killed).
fn remove(path: &Path) {
    let _ = std::fs::remove_dir_all(path);
}
