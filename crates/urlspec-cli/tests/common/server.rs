//! `urlspec serve` on a free loopback port, stopped when dropped.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

/// A running `urlspec serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// Where it listens.
    pub address: SocketAddr,
}

impl Server {
    /// Starts `urlspec serve --listen 127.0.0.1:0` and waits for the line
    /// that says where it listens.
    pub fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_urlspec"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("urlspec serve starts");
        let stderr = child.stderr.take().expect("piped standard error");
        let mut line = String::new();
        // The server writes the line once it listens, or exits (EOF).
        let _ = BufReader::new(stderr).read_line(&mut line);
        let address = line
            .trim()
            .strip_prefix("urlspec: serving http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|address| address.parse().ok());
        match address {
            Some(address) => Server { child, address },
            None => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("urlspec serve did not start: {line:?}");
            }
        }
    }

    /// The URL of `path_and_query` on this server.
    pub fn url(&self, path_and_query: &str) -> String {
        format!("http://{}{path_and_query}", self.address)
    }

    /// The server's resident memory in KiB (Linux: /proc), if known.
    pub fn resident_kib(&self) -> Option<u64> {
        self.status_kib("VmRSS:")
    }

    /// The server's peak resident memory in KiB, if known.
    pub fn peak_kib(&self) -> Option<u64> {
        self.status_kib("VmHWM:")
    }

    /// A figure of /proc/PID/status, in KiB.
    fn status_kib(&self, key: &str) -> Option<u64> {
        let path = format!("/proc/{}/status", self.child.id());
        let status = std::fs::read_to_string(path).ok()?;
        let line = status.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
