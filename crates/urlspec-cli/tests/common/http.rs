//! A minimal HTTP/1.1 client for tests: one request per connection, or
//! many over one kept-alive connection, every read and write bounded in
//! time.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// How long a read or write may block.
const IO_LIMIT: Duration = Duration::from_secs(20);

/// A response: status, headers (names lower-cased) and body.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// A connection that sends requests one after another.
pub struct Connection {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Connection {
    /// Connects to `address`.
    pub fn open(address: SocketAddr) -> io::Result<Connection> {
        let stream = TcpStream::connect_timeout(&address, IO_LIMIT)?;
        stream.set_read_timeout(Some(IO_LIMIT))?;
        stream.set_write_timeout(Some(IO_LIMIT))?;
        stream.set_nodelay(true)?;
        let writer = stream.try_clone()?;
        Ok(Connection { reader: BufReader::new(stream), writer })
    }

    /// Sends `method target` with `body` and reads the response (which
    /// must have a Content-Length, as the server's all do).
    pub fn send(
        &mut self,
        method: &str,
        target: &str,
        body: &[u8],
    ) -> io::Result<Response> {
        self.writer.write_all(head(method, target, body.len()).as_bytes())?;
        self.writer.write_all(body)?;
        read_response(&mut self.reader)
    }

    /// Sends the head of a request that announces a body of `length` bytes,
    /// and no body, then reads the response.
    pub fn send_head(
        &mut self,
        method: &str,
        target: &str,
        length: usize,
    ) -> io::Result<Response> {
        self.writer.write_all(head(method, target, length).as_bytes())?;
        read_response(&mut self.reader)
    }
}

/// The head of a request with a body of `length` bytes.
fn head(method: &str, target: &str, length: usize) -> String {
    format!("{method} {target} HTTP/1.1\r\nHost: test\r\nContent-Length: {length}\r\n\r\n")
}

/// Reads one response with a Content-Length body.
fn read_response(reader: &mut impl BufRead) -> io::Result<Response> {
    let bad = |what: &str| {
        io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
    };
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(&format!("status line {line:?}")))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(bad("end of headers missing"));
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let (name, value) =
            trimmed.split_once(':').ok_or_else(|| bad(trimmed))?;
        headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Response { status, headers, body })
}

/// One request on a fresh connection.
pub fn request(
    address: SocketAddr,
    method: &str,
    target: &str,
    body: &[u8],
) -> Response {
    Connection::open(address)
        .and_then(|mut c| c.send(method, target, body))
        .unwrap_or_else(|e| panic!("{method} {target:.80}: {e}"))
}

/// `GET target`.
pub fn get(address: SocketAddr, target: &str) -> Response {
    request(address, "GET", target, b"")
}

/// `target` with `params` percent-encoded as its query.
pub fn query(target: &str, params: &[(&str, &str)]) -> String {
    let mut q = String::from(target);
    for (i, (name, value)) in params.iter().enumerate() {
        q.push(if i == 0 { '?' } else { '&' });
        q.push_str(&encode(name));
        q.push('=');
        q.push_str(&encode(value));
    }
    q
}

/// `text` with every byte but unreserved ones percent-encoded.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
