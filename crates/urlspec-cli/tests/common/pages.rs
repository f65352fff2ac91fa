//! A loopback HTTP server of fixed responses for the browser tests: it
//! answers every host (Chromium maps them all to it with
//! `--host-resolver-rules`), serves each page at its full URL, answers
//! anything else with an empty 404, and logs every request as the absolute
//! URL it asked for. It listens on 127.0.0.1 only, serves a bounded number
//! of connections for a bounded time, and stops when dropped.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The longest the server runs.
const LIFETIME: Duration = Duration::from_secs(600);
/// The most connections it accepts.
const MAX_CONNECTIONS: usize = 5_000;
/// The most requests one connection may send.
const MAX_REQUESTS: usize = 200;
/// How long a read or write on a connection may block.
const IO_LIMIT: Duration = Duration::from_secs(10);

/// One response: its `Content-Type` and body.
#[derive(Clone)]
pub struct Response {
    pub content_type: String,
    pub body: Vec<u8>,
}

/// The running server.
pub struct Pages {
    /// Where it listens.
    pub address: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Pages {
    /// Serves `pages`, keyed by absolute URL (`http://host/path?query`).
    pub fn start(pages: HashMap<String, Response>) -> Pages {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("non-blocking listener");
        let address = listener.local_addr().expect("address");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let pages = Arc::new(pages);
        let thread = {
            let (log, stop) = (log.clone(), stop.clone());
            thread::spawn(move || serve(&listener, &pages, &log, &stop))
        };
        Pages { address, log, stop, thread: Some(thread) }
    }

    /// The URLs requested so far, in order, and clears the log.
    pub fn take_requests(&self) -> Vec<String> {
        std::mem::take(&mut *self.log.lock().unwrap())
    }
}

impl Drop for Pages {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve(
    listener: &TcpListener,
    pages: &Arc<HashMap<String, Response>>,
    log: &Arc<Mutex<Vec<String>>>,
    stop: &AtomicBool,
) {
    let start = Instant::now();
    let mut accepted = 0;
    while !stop.load(Ordering::Relaxed)
        && accepted < MAX_CONNECTIONS
        && start.elapsed() < LIFETIME
    {
        match listener.accept() {
            Ok((stream, _)) => {
                accepted += 1;
                let (pages, log) = (pages.clone(), log.clone());
                // Connection threads end on their own: bounded requests,
                // bounded waits.
                thread::spawn(move || {
                    let _ = connection(stream, &pages, &log);
                });
            }
            Err(_) => thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// Answers the requests of one connection until it closes.
fn connection(
    stream: TcpStream,
    pages: &HashMap<String, Response>,
    log: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(IO_LIMIT))?;
    stream.set_write_timeout(Some(IO_LIMIT))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    for _ in 0..MAX_REQUESTS {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let mut parts = line.split_whitespace();
        let (Some(_method), Some(target)) = (parts.next(), parts.next())
        else {
            // Not HTTP (a TLS hello to the plain listener): close.
            return Ok(());
        };
        let target = target.to_owned();
        let (mut host, mut length) = (String::new(), 0usize);
        loop {
            line.clear();
            if reader.read_line(&mut line)? == 0 {
                return Ok(());
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("host") {
                    host = value.trim().to_owned();
                } else if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
        }
        // A body (a ping's POST) is read and dropped.
        std::io::copy(
            &mut (&mut reader).take(length as u64),
            &mut std::io::sink(),
        )?;
        let url = format!("http://{host}{target}");
        log.lock().unwrap().push(url.clone());
        let (status, response) = match pages.get(&url) {
            Some(page) => ("200 OK", page.clone()),
            None => (
                "404 Not Found",
                Response {
                    content_type: "text/plain".into(),
                    body: Vec::new(),
                },
            ),
        };
        write!(
            writer,
            "HTTP/1.1 {status}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Cache-Control: no-store\r\n\r\n",
            response.content_type,
            response.body.len()
        )?;
        writer.write_all(&response.body)?;
        writer.flush()?;
    }
    Ok(())
}
