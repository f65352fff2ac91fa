//! A loopback HTTP server of fixed responses for the browser tests: it
//! answers every host (Chromium maps them all to it with
//! `--host-resolver-rules`), serves each page at its full URL, answers
//! anything else with an empty 404, and logs every request as the absolute
//! URL it asked for. A connection that opens with a TLS handshake is
//! served over TLS (`rustls`) with a self-signed certificate made for the
//! run (`rcgen`), its requests as `https:` URLs, so `http:` and `https:`
//! pages share the one port the resolver rules name (Chromium is started
//! with `--ignore-certificate-errors`). It listens on 127.0.0.1 only,
//! serves a bounded number of connections for a bounded time, and stops
//! when dropped.

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

/// One response: its `Content-Type`, its `Content-Security-Policy` if
/// any, and body.
#[derive(Clone)]
pub struct Response {
    pub content_type: String,
    pub policy: Option<String>,
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
    /// Serves `pages`, keyed by absolute URL (`http://host/path?query`,
    /// `https://…`).
    pub fn start(pages: HashMap<String, Response>) -> Pages {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("non-blocking listener");
        let address = listener.local_addr().expect("address");
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let tls = tls_config(&pages);
        let pages = Arc::new(pages);
        let thread = {
            let (log, stop) = (log.clone(), stop.clone());
            thread::spawn(move || serve(&listener, &pages, &tls, &log, &stop))
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

/// A TLS configuration with a self-signed certificate for the hosts of
/// the `https:` pages.
fn tls_config(pages: &HashMap<String, Response>) -> Arc<rustls::ServerConfig> {
    use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
    let mut hosts: Vec<String> = pages
        .keys()
        .filter_map(|url| url.strip_prefix("https://"))
        .filter_map(|rest| rest.split(['/', ':', '?', '#']).next())
        .filter(|host| !host.is_empty())
        .map(str::to_owned)
        .collect();
    hosts.sort();
    hosts.dedup();
    if hosts.is_empty() {
        hosts.push("localhost".into());
    }
    let certified =
        rcgen::generate_simple_self_signed(hosts).expect("a certificate");
    let key = PrivatePkcs8KeyDer::from(certified.signing_key.serialize_der());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(
            vec![certified.cert.der().clone()],
            PrivateKeyDer::Pkcs8(key),
        )
        .expect("the certificate and its key");
    Arc::new(config)
}

fn serve(
    listener: &TcpListener,
    pages: &Arc<HashMap<String, Response>>,
    tls: &Arc<rustls::ServerConfig>,
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
                let (pages, tls, log) =
                    (pages.clone(), tls.clone(), log.clone());
                // Connection threads end on their own: bounded requests,
                // bounded waits.
                thread::spawn(move || {
                    let _ = connection(stream, &pages, tls, &log);
                });
            }
            Err(_) => thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// Answers the requests of one connection until it closes, over TLS when
/// its first byte is a TLS handshake record's.
fn connection(
    stream: TcpStream,
    pages: &HashMap<String, Response>,
    tls: Arc<rustls::ServerConfig>,
    log: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(IO_LIMIT))?;
    stream.set_write_timeout(Some(IO_LIMIT))?;
    let mut first = [0u8];
    if stream.peek(&mut first)? == 1 && first[0] == 0x16 {
        let server = rustls::ServerConnection::new(tls)
            .map_err(std::io::Error::other)?;
        let stream = rustls::StreamOwned::new(server, stream);
        requests(stream, "https", pages, log)
    } else {
        requests(stream, "http", pages, log)
    }
}

/// Answers the requests read from `stream`, logged as `scheme` URLs.
fn requests(
    stream: impl Read + Write,
    scheme: &str,
    pages: &HashMap<String, Response>,
    log: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream);
    for _ in 0..MAX_REQUESTS {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let mut parts = line.split_whitespace();
        let (Some(_method), Some(target)) = (parts.next(), parts.next())
        else {
            // Not HTTP: close.
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
        let url = format!("{scheme}://{host}{target}");
        log.lock().unwrap().push(url.clone());
        let (status, response) = match pages.get(&url) {
            Some(page) => ("200 OK", page.clone()),
            None => (
                "404 Not Found",
                Response {
                    content_type: "text/plain".into(),
                    policy: None,
                    body: Vec::new(),
                },
            ),
        };
        let writer = reader.get_mut();
        let policy = response
            .policy
            .map(|p| format!("Content-Security-Policy: {p}\r\n"))
            .unwrap_or_default();
        write!(
            writer,
            "HTTP/1.1 {status}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             {policy}Cache-Control: no-store\r\n\r\n",
            response.content_type,
            response.body.len()
        )?;
        writer.write_all(&response.body)?;
        writer.flush()?;
    }
    Ok(())
}
