//! The JSON API of `urlspec serve`: each endpoint's query becomes the
//! arguments of its subcommand ([`Endpoint`]), which clap checks as on the
//! command line, and the subcommand's own function writes the answer, so
//! that the API's JSON is the CLI's, byte for byte.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use clap::{Args, FromArgMatches};

use crate::cmd::check::CheckArgs;
use crate::cmd::diff::DiffArgs;
use crate::cmd::links::{LinksArgs, LinksOutput};
use crate::cmd::parse::ParseArgs;
use crate::cmd::resolve::{Mode, ResolveArgs, Single};
use crate::cmd::{check, diff, links, parse};
use crate::output::{self, JsonObject, Origin};
use urlspec_parsers::{pairs, Profile};

/// How an endpoint's query becomes the arguments of its subcommand.
pub struct Endpoint {
    /// The subcommand.
    pub command: &'static str,
    /// Arguments always given: the JSON output.
    pub fixed: &'static [&'static str],
    /// The parameter that is the subcommand's input (required), if any.
    pub input: Option<&'static str>,
    /// The parameters taken as the options of the same name.
    pub options: &'static [&'static str],
    /// A help heading whose options are all taken too.
    pub heading: Option<&'static str>,
}

/// `GET /api/parse?input=&spec=`.
pub const PARSE: Endpoint = Endpoint {
    command: "parse",
    fixed: &["--json"],
    input: Some("input"),
    options: &["spec"],
    heading: None,
};

/// `GET /api/resolve?base=&reference=&spec=` and the resolution options.
pub const RESOLVE: Endpoint = Endpoint {
    command: "resolve",
    fixed: &["--json"],
    input: Some("reference"),
    options: &["base", "spec"],
    heading: Some("Resolution options"),
};

/// `GET /api/diff?input=&base=&specs=&parsers=` (the parsers' rows
/// when there is no base).
pub const DIFF: Endpoint = Endpoint {
    command: "diff",
    fixed: &["--json"],
    input: Some("input"),
    options: &["base", "specs", "parsers"],
    heading: None,
};

/// `GET /api/check?input=&spec=&fail-on=` (and `validator`, `fetcher`,
/// `parser-pairs`).
pub const CHECK: Endpoint = Endpoint {
    command: "check",
    fixed: &["--json"],
    input: Some("input"),
    options: &["spec", "fail-on", "validator", "fetcher", "parser-pairs"],
    heading: None,
};

/// `POST /api/links?url=&spec=&format=`, the document in the body.
pub const LINKS: Endpoint = Endpoint {
    command: "links",
    fixed: &["--output", "json"],
    input: None,
    options: &[
        "url",
        "redirect",
        "spec",
        "format",
        "base-headers",
        "strict-base",
    ],
    heading: None,
};

/// An answer that is not a record: a status and a JSON error object.
#[derive(Debug)]
pub struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// The short name (`BadParameter`, `PayloadTooLarge`, …).
    pub kind: &'static str,
    /// What went wrong.
    pub message: String,
}

impl ApiError {
    /// A 400: a parameter missing, unknown or refused.
    pub fn bad(message: String) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            kind: "BadParameter",
            message,
        }
    }

    /// A 500: the library failed on this input, a bug.
    fn internal(message: String) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            kind: "InternalError",
            message,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error(self.status, self.kind, &self.message)
    }
}

/// A status with `{"error":{"kind":…,"message":…}}`.
pub fn error(status: StatusCode, kind: &str, message: &str) -> Response {
    let mut buf = Vec::with_capacity(64 + message.len());
    let mut o = JsonObject::new(&mut buf);
    o.object("error", |e| {
        e.string("kind", kind).string("message", message);
    });
    o.finish();
    buf.push(b'\n');
    json(status, buf, "application/json")
}

/// A response with a JSON body of type `kind`.
fn json(status: StatusCode, body: Vec<u8>, kind: &'static str) -> Response {
    let kind = HeaderValue::from_static(kind);
    (status, [(header::CONTENT_TYPE, kind)], body).into_response()
}

/// The decoded parameters of a query, in order (`+` is a space, as forms
/// send it).
pub fn params(uri: &Uri) -> Vec<(String, String)> {
    let query = uri.query().unwrap_or_default();
    form_urlencoded::parse(query.as_bytes()).into_owned().collect()
}

/// The arguments of `endpoint`'s subcommand that `params` make, as clap
/// parses them: each parameter is the option of the same name (`true` or
/// `false` for a flag), the input parameter the subcommand's input. Only
/// the subcommand's own arguments are built, not the whole command line's.
pub fn arguments<A: Args + FromArgMatches>(
    endpoint: &Endpoint,
    params: &[(String, String)],
) -> Result<A, ApiError> {
    let command = A::augment_args(
        clap::Command::new(endpoint.command).no_binary_name(true),
    );
    let mut argv: Vec<String> =
        endpoint.fixed.iter().map(|a| (*a).to_owned()).collect();
    let mut input = None;
    for (name, value) in params {
        if endpoint.input == Some(name.as_str()) {
            if input.replace(value).is_some() {
                return Err(ApiError::bad(format!("`{name}` given twice")));
            }
            continue;
        }
        let arg = command.get_arguments().find(|arg| {
            arg.get_long() == Some(name.as_str())
                && (endpoint.options.contains(&name.as_str())
                    || (endpoint.heading.is_some()
                        && arg.get_help_heading() == endpoint.heading))
        });
        let Some(arg) = arg else {
            return Err(ApiError::bad(unknown(endpoint, name)));
        };
        if arg.get_action().takes_values() {
            argv.push(format!("--{name}={value}"));
            continue;
        }
        match value.as_str() {
            "" | "true" | "1" | "on" => argv.push(format!("--{name}")),
            "false" | "0" | "off" => {}
            _ => {
                return Err(ApiError::bad(format!(
                    "`{name}` is a flag: true or false, not '{}'",
                    output::visible(value)
                )))
            }
        }
    }
    match (endpoint.input, input) {
        (Some(name), None) => {
            return Err(ApiError::bad(format!("`{name}` is missing")));
        }
        (Some(_), Some(input)) => {
            argv.extend(["--".to_owned(), input.clone()]);
        }
        (None, _) => {}
    }
    let bad = |err: clap::Error| ApiError::bad(clap_message(&err));
    let matches = command.try_get_matches_from(argv).map_err(bad)?;
    A::from_arg_matches(&matches).map_err(bad)
}

/// The message of an unknown parameter, listing the known ones.
fn unknown(endpoint: &Endpoint, name: &str) -> String {
    let mut known: Vec<&str> = endpoint.input.into_iter().collect();
    known.extend(endpoint.options);
    let mut message = format!(
        "unknown parameter `{}`; /api/{} takes {}",
        output::visible(name),
        endpoint.command,
        known.join(", ")
    );
    if endpoint.heading.is_some() {
        message.push_str(" and the resolution options");
    }
    message
}

/// clap's error as one paragraph, without its usage lines.
fn clap_message(err: &clap::Error) -> String {
    let text = err.to_string();
    let first: Vec<&str> = text
        .lines()
        .take_while(|line| !line.is_empty())
        .map(str::trim)
        .collect();
    let joined = first.join(" ");
    joined.strip_prefix("error: ").unwrap_or(&joined).to_owned()
}

/// The records `answer` writes for the arguments of `uri`'s query, as one
/// JSON response: 400 when the query is refused, 500 when the library
/// fails on the input.
fn respond<A: Args + FromArgMatches>(
    endpoint: &Endpoint,
    uri: &Uri,
    answer: impl FnOnce(&A, &mut Vec<u8>),
) -> Response {
    let args = match arguments::<A>(endpoint, &params(uri)) {
        Ok(args) => args,
        Err(err) => return err.into_response(),
    };
    let mut buf = Vec::with_capacity(2048);
    match output::isolate(|| answer(&args, &mut buf)) {
        Ok(()) => json(StatusCode::OK, buf, "application/json"),
        Err(bad) => ApiError::internal(bad.to_string()).into_response(),
    }
}

/// `GET /api/parse`: the record of `urlspec parse --json`.
pub async fn parse(uri: Uri) -> Response {
    respond(&PARSE, &uri, |args: &ParseArgs, buf| {
        for url in &args.common.urls {
            parse::answer(args, buf, url);
        }
    })
}

/// `GET /api/resolve`: the record of `urlspec resolve --json`.
pub async fn resolve(uri: Uri) -> Response {
    respond(&RESOLVE, &uri, |args: &ResolveArgs, buf| {
        let base = args.base.as_deref().unwrap_or_default();
        let mut mode =
            Single::new(args.spec.value, args.options.to_options(), true);
        for (n, reference) in (1..).zip(&args.references) {
            let origin = Origin::Argument(n);
            // A Vec takes every write. `Single` keeps its base itself.
            let _ = mode.answer(buf, &(), origin, base, reference);
        }
    })
}

/// `GET /api/diff`: the object of `urlspec diff --json`.
pub async fn diff(uri: Uri) -> Response {
    respond(&DIFF, &uri, |args: &DiffArgs, buf| {
        let input = args.input.as_deref().unwrap_or_default();
        let c = diff::comparison(
            args.base.as_deref(),
            input,
            &args.specs.0,
            &args.parsers.0,
        );
        diff::write_json(buf, &c);
        buf.push(b'\n');
    })
}

/// `GET /api/check`: the record of `urlspec check --json`.
pub async fn check(uri: Uri) -> Response {
    respond(&CHECK, &uri, |args: &CheckArgs, buf| {
        let pairs = args.pairs();
        for url in &args.common.urls {
            check::answer(args, &pairs, buf, url);
        }
    })
}

/// `GET /api/allowlist?input=&allowed=&parsers=`: which parsers an
/// allowlist of the host `allowed` would be fooled with on `input` (each
/// that reads the allowed host while another reads another), and each
/// parser's host. `parsers` as `urlspec diff --parsers` takes it; all by
/// default.
pub async fn allowlist(uri: Uri) -> Response {
    let params = params(&uri);
    let mut input = None;
    let mut allowed = None;
    let mut asked = vec![("parsers".to_owned(), "all".to_owned())];
    for (name, value) in &params {
        match name.as_str() {
            "input" => input = Some(value.clone()),
            "allowed" => allowed = Some(value.clone()),
            "parsers" => asked[0].1.clone_from(value),
            _ => {
                let message = format!(
                    "unknown parameter `{}`; /api/allowlist takes input, \
                     allowed, parsers",
                    output::visible(name)
                );
                return ApiError::bad(message).into_response();
            }
        }
    }
    let (Some(input), Some(allowed)) = (input, allowed) else {
        let message = "`input` and `allowed` are both needed".to_owned();
        return ApiError::bad(message).into_response();
    };
    let parsers = match arguments::<DiffArgs>(
        &DIFF,
        &[asked, vec![("input".to_owned(), input.clone())]].concat(),
    ) {
        Ok(args) if !args.parsers.0.is_empty() => args.parsers.0,
        Ok(_) => {
            let message = "`parsers` names none".to_owned();
            return ApiError::bad(message).into_response();
        }
        Err(err) => return err.into_response(),
    };
    let mut buf = Vec::with_capacity(1024);
    let written = output::isolate(|| {
        allowlist_json(&mut buf, &input, &allowed, &parsers);
    });
    match written {
        Ok(()) => json(StatusCode::OK, buf, "application/json"),
        Err(bad) => ApiError::internal(bad.to_string()).into_response(),
    }
}

/// The object of `/api/allowlist`: `input`, `allowed`, `hosts` (each
/// parser's host, or its error) and `fooled` (each parser that reads the
/// allowed host, with the parsers that read another and their hosts).
pub fn allowlist_json(
    buf: &mut Vec<u8>,
    input: &str,
    allowed: &str,
    parsers: &[&'static Profile],
) {
    let fooled = pairs::fooled(input, allowed, parsers);
    let mut o = JsonObject::new(buf);
    o.string("input", input)
        .string("allowed", allowed)
        .objects("hosts", parsers, |o, p| {
            o.string("parser", p.name);
            match p.parse(input) {
                Ok(c) => {
                    o.optional("host", c.host.as_deref()).null("error");
                }
                Err(e) => {
                    o.null("host").string("error", &e.to_string());
                }
            }
        })
        .objects("fooled", &fooled, |o, f| {
            o.string("parser", f.parser.name).objects(
                "elsewhere",
                &f.elsewhere,
                |o, (p, host)| {
                    o.string("parser", p.name)
                        .optional("host", host.as_deref());
                },
            );
        });
    o.finish();
    buf.push(b'\n');
}

/// `POST /api/links`: the lines of `urlspec links --output json` for the
/// document in the body, the summary line in `X-Urlspec-Summary`.
pub async fn links(uri: Uri, body: Result<Bytes, BytesRejection>) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection)
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE =>
        {
            let message = format!(
                "the body is over the limit of {} bytes",
                super::MAX_BODY
            );
            return error(rejection.status(), "PayloadTooLarge", &message);
        }
        Err(rejection) => {
            let message = rejection.body_text();
            return error(rejection.status(), "BadBody", &message);
        }
    };
    let command = match arguments::<LinksArgs>(&LINKS, &params(&uri)) {
        Ok(args) => args,
        Err(err) => return err.into_response(),
    };
    // A large archive takes a while: off the threads that serve requests.
    let work = tokio::task::spawn_blocking(move || {
        let mut printer =
            links::Printer::new(LinksOutput::Json, command.reads_hosts());
        let mut buf = Vec::with_capacity(4096);
        let read = output::isolate(|| {
            links::read_bytes(
                body.to_vec(),
                "body",
                &command,
                &mut printer,
                &mut buf,
            )
        });
        (read, buf)
    });
    match work.await {
        Ok((Ok(Ok(summary)), buf)) => {
            // One header line: the notes after the counts joined to them.
            let summary = links::summary_line(&summary).replace('\n', "; ");
            let mut response = json(StatusCode::OK, buf, "application/jsonl");
            if let Ok(value) = HeaderValue::from_str(&summary) {
                response.headers_mut().insert("x-urlspec-summary", value);
            }
            response
        }
        Ok((Ok(Err(err)), _)) => {
            ApiError::internal(err.to_string()).into_response()
        }
        Ok((Err(bad), _)) => {
            ApiError::internal(bad.to_string()).into_response()
        }
        Err(err) => ApiError::internal(err.to_string()).into_response(),
    }
}

/// Any other path.
pub async fn not_found(uri: Uri) -> Response {
    let path = output::visible(uri.path()).into_owned();
    error(StatusCode::NOT_FOUND, "NotFound", &format!("no such page: {path}"))
}
