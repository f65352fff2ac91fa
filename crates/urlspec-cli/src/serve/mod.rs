//! `urlspec serve`: the specs side by side in a browser, and the same over
//! a small JSON API.
//!
//! A local HTTP server: [`page`] renders the view of `/?input=…&base=…&
//! specs=…` in the HTML it sends (the page works without script), and the
//! page's script (`assets/page.js`) only updates it as the user types,
//! through the API. [`api`] answers with the CLI's own JSON records: each
//! endpoint turns its query into the arguments of its subcommand, which
//! clap checks as on the command line, and calls the function that
//! subcommand answers each input with.
//!
//! The server takes hostile input by nature, so it binds to loopback by
//! default, refuses a request target over 65,534 bytes (414: hyper's own
//! limit, `u16::MAX - 1`, just under 64 KiB, answered before the router) and a body over
//! [`MAX_BODY`] (413), ends a request whose headers, body or answer take
//! longer than [`TIME_LIMIT`], reads no files (its assets are in the
//! binary) and sends a Content-Security-Policy that allows no inline
//! script.

pub mod api;
pub mod page;

use std::io::{self, Write};
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use clap::Args;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower_http::timeout::TimeoutLayer;

use crate::output::Error;
use crate::status::Status;

/// The largest request body accepted (`POST /api/links`): 16 MiB.
pub const MAX_BODY: usize = 16 * 1024 * 1024;

/// How long a request may take: its headers, then its body and answer.
pub const TIME_LIMIT: Duration = Duration::from_secs(10);

/// The policy sent with every response: scripts, styles and requests only
/// from the server itself, no inline script or style, no frames, no
/// plugins, forms only to the server.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; \
     script-src 'self'; style-src 'self'; connect-src 'self'; \
     img-src 'self'; form-action 'self'; base-uri 'none'; \
     frame-ancestors 'none'";

/// The page's style sheet.
const CSS: &str = include_str!("assets/page.css");

/// The page's script: it updates the view through the API as the user
/// types.
const JS: &str = include_str!("assets/page.js");

/// The arguments of `urlspec serve`.
#[derive(Debug, Args)]
#[command(
    about = "Serve the specs side by side in a browser (the matrix of \
             diff, check's findings, validity per spec), and the same \
             over a small JSON API, on loopback",
    long_about = LONG_ABOUT
)]
pub struct ServeArgs {
    /// The address and port to listen on (port 0: any free port). The
    /// server is for one machine: listen on another address than loopback
    /// only behind something that limits who can reach it
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
}

/// The long description of `urlspec serve`.
pub const LONG_ABOUT: &str = "\
Serve the specs side by side in a browser, and the same over a small JSON API,
on loopback (127.0.0.1:8080 unless --listen says otherwise). The address is
printed on standard error once the server listens; it runs until stopped.

Page:
  GET /?input=URL&base=BASE&specs=LIST&parsers=LIST&allowed=HOST
        The matrix of `urlspec diff` (one row per spec, and per real parser
        asked for, one column per component, or the resolved URL with a
        base), the cells that differ
        marked and the security-relevant columns flagged; the explanations
        with their citations; the `check` findings with carets; the validity
        of the input under each spec, each violation with its position and
        rule. With an allowed host, which parsers an allowlist of it would
        be fooled with (each that reads that host while another reads
        another, as /api/allowlist). The link of a view reproduces it on any `urlspec serve`. The
        page is rendered by the server and works without script; its script
        only updates the view as one types, through the API below.

JSON API (the records of the subcommands' --json output; each parameter is
the option of the same name, checked as on the command line):
  GET  /api/parse?input=URL&spec=SPEC                     as `parse --json`
  GET  /api/resolve?base=BASE&reference=REF&spec=SPEC     as `resolve --json`
       plus the resolution options under their flag names: strict,
       same-scheme, no-same-scheme, dotdot-above-root, fix-pathless-base,
       rfc1630-dots, rootless-dots, path-guard (a flag takes true or false)
  GET  /api/diff?input=URL&base=BASE&specs=LIST           as `diff --json`
       (also parsers, without a base)
  GET  /api/check?input=URL&spec=SPEC&fail-on=SEVERITY    as `check --json`
       (also validator, fetcher, parser-pairs)
  GET  /api/allowlist?input=URL&allowed=HOST&parsers=LIST
       {input, allowed, hosts: [{parser, host, error}], fooled: [{parser,
       elsewhere: [{parser, host}]}]}: each parser (all by default) that
       reads the allowed host while another reads another host
  POST /api/links?url=URL&spec=SPEC&format=FORMAT         as `links --output json`
       (also redirect, base-headers, strict-base) with the document
       (HTML, MIME or WARC) as the body: JSON Lines, one per link, and the
       summary in the X-Urlspec-Summary header

Errors: 400 with {\"error\":{\"kind\":…,\"message\":…}} for a missing, unknown or
bad parameter; 404 for another path; 405 for another method; 413 for a body
over 16 MiB; 414 for a path and query over 65,534 bytes (64 KiB less 2); 408 when a request takes more than
10 s. Every response carries a Content-Security-Policy without
'unsafe-inline'; the server reads no files.";

/// Runs the server until the process is stopped.
pub fn run(args: &ServeArgs) -> Result<Status, Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|err| Error::Usage(format!("starting the server: {err}")))?;
    runtime.block_on(async {
        let listener =
            TcpListener::bind(args.listen).await.map_err(|err| {
                Error::Usage(format!(
                    "cannot listen on {}: {err}",
                    args.listen
                ))
            })?;
        let address = listener
            .local_addr()
            .map_err(|err| Error::Usage(format!("listening: {err}")))?;
        let _ = writeln!(
            io::stderr().lock(),
            "urlspec: serving http://{address}/"
        );
        serve(listener).await;
        Ok(Status::Valid)
    })
}

/// Answers every connection of `listener` with [`router`]: HTTP/1.1,
/// each request's headers within [`TIME_LIMIT`].
pub async fn serve(listener: TcpListener) {
    let app = router();
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, or a connection reset before it was
            // accepted: wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(TIME_LIMIT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The routes, with the limits and headers that apply to all of them.
pub fn router() -> Router {
    Router::new()
        .route("/", get(page::view))
        .route("/assets/page.css", get(|| asset(CSS, "text/css")))
        .route("/assets/page.js", get(|| asset(JS, "text/javascript")))
        .route("/api/parse", get(api::parse))
        .route("/api/resolve", get(api::resolve))
        .route("/api/diff", get(api::diff))
        .route("/api/check", get(api::check))
        .route("/api/allowlist", get(api::allowlist))
        .route("/api/links", post(api::links))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(guard))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            TIME_LIMIT,
        ))
}

/// An embedded file.
async fn asset(body: &'static str, kind: &'static str) -> Response {
    let kind = HeaderValue::from_static(kind);
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// Adds the security headers to every answer.
async fn guard(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let fixed: [(HeaderName, &'static str); 4] = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}
