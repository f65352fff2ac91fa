//! The JSON API of `urlspec serve`: each endpoint's query becomes the
//! arguments of its subcommand ([`Endpoint`]), which clap checks as on the
//! command line, and the subcommand's own function writes the answer, so
//! that the API's JSON is the CLI's, byte for byte.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use clap::{CommandFactory, Parser};

use crate::cli::{Cli, Command, LinksOutput};
use crate::cmd::resolve::{Mode, Single};
use crate::cmd::{check, diff, links, parse};
use crate::output::{self, JsonObject, Origin};

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

/// `GET /api/diff?input=&base=&specs=`.
pub const DIFF: Endpoint = Endpoint {
    command: "diff",
    fixed: &["--json"],
    input: Some("input"),
    options: &["base", "specs"],
    heading: None,
};

/// `GET /api/check?input=&spec=&fail-on=`.
pub const CHECK: Endpoint = Endpoint {
    command: "check",
    fixed: &["--json"],
    input: Some("input"),
    options: &["spec", "fail-on"],
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

/// The subcommand `endpoint` makes of `params`, as clap parses it: each
/// parameter is the option of the same name (`true` or `false` for a
/// flag), the input parameter the subcommand's input.
pub fn arguments(
    endpoint: &Endpoint,
    params: &[(String, String)],
) -> Result<Command, ApiError> {
    let cli = Cli::command();
    let sub = cli.find_subcommand(endpoint.command).ok_or_else(|| {
        ApiError::internal(format!("no subcommand {}", endpoint.command))
    })?;
    let mut argv: Vec<String> =
        vec!["urlspec".into(), endpoint.command.into()];
    argv.extend(endpoint.fixed.iter().map(|a| (*a).to_owned()));
    let mut input = None;
    for (name, value) in params {
        if endpoint.input == Some(name.as_str()) {
            if input.replace(value).is_some() {
                return Err(ApiError::bad(format!("`{name}` given twice")));
            }
            continue;
        }
        let arg = sub.get_arguments().find(|arg| {
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
            argv.extend(["--".to_owned(), input.clone()])
        }
        (None, _) => {}
    }
    Cli::try_parse_from(argv)
        .map(|cli| cli.command)
        .map_err(|err| ApiError::bad(clap_message(&err)))
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

/// The records `answer` writes for the subcommand of `uri`'s query, as one
/// JSON response: 400 when the query is refused, 500 when the library
/// fails on the input.
fn respond(
    endpoint: &Endpoint,
    uri: &Uri,
    answer: impl FnOnce(&Command, &mut Vec<u8>) -> Result<(), ApiError>,
) -> Response {
    let command = match arguments(endpoint, &params(uri)) {
        Ok(command) => command,
        Err(err) => return err.into_response(),
    };
    let mut buf = Vec::with_capacity(2048);
    match output::isolate(|| answer(&command, &mut buf)) {
        Ok(Ok(())) => json(StatusCode::OK, buf, "application/json"),
        Ok(Err(err)) => err.into_response(),
        Err(bad) => ApiError::internal(bad.to_string()).into_response(),
    }
}

/// The error of a command that is not the endpoint's: clap parsed the
/// endpoint's own subcommand, so this does not happen.
fn mismatch(endpoint: &Endpoint) -> ApiError {
    ApiError::internal(format!("not the {} command", endpoint.command))
}

/// `GET /api/parse`: the record of `urlspec parse --json`.
pub async fn parse(uri: Uri) -> Response {
    respond(&PARSE, &uri, |command, buf| {
        let Command::Parse(args) = command else {
            return Err(mismatch(&PARSE));
        };
        for url in &args.urls {
            parse::answer(args, buf, url);
        }
        Ok(())
    })
}

/// `GET /api/resolve`: the record of `urlspec resolve --json`.
pub async fn resolve(uri: Uri) -> Response {
    respond(&RESOLVE, &uri, |command, buf| {
        let Command::Resolve(args) = command else {
            return Err(mismatch(&RESOLVE));
        };
        let base = args.base.as_deref().unwrap_or_default();
        let mut mode = Single::new(args.spec, args.options.to_options(), true);
        let prepared = mode.prepare(base);
        for (n, reference) in (1..).zip(&args.references) {
            let origin = Origin::Argument(n);
            // A Vec takes every write.
            let _ = mode.answer(buf, &prepared, origin, base, reference);
        }
        Ok(())
    })
}

/// `GET /api/diff`: the object of `urlspec diff --json`.
pub async fn diff(uri: Uri) -> Response {
    respond(&DIFF, &uri, |command, buf| {
        let Command::Diff(args) = command else {
            return Err(mismatch(&DIFF));
        };
        let input = args.input.as_deref().unwrap_or_default();
        let base = args.base.as_deref().filter(|b| !b.is_empty());
        let c = diff::comparison(base, input, &args.specs.0);
        diff::write_json(buf, &c);
        buf.push(b'\n');
        Ok(())
    })
}

/// `GET /api/check`: the record of `urlspec check --json`.
pub async fn check(uri: Uri) -> Response {
    respond(&CHECK, &uri, |command, buf| {
        let Command::Check(args) = command else {
            return Err(mismatch(&CHECK));
        };
        for url in &args.urls {
            check::answer(args, buf, url);
        }
        Ok(())
    })
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
    let command = match arguments(&LINKS, &params(&uri)) {
        Ok(Command::Links(args)) => args,
        Ok(_) => return mismatch(&LINKS).into_response(),
        Err(err) => return err.into_response(),
    };
    // A large archive takes a while: off the threads that serve requests.
    let work = tokio::task::spawn_blocking(move || {
        let mut printer = links::Printer::new(LinksOutput::Json);
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
        let summary =
            links::summary_line(&printer.summary, printer.unreadable);
        (read, buf, summary)
    });
    match work.await {
        Ok((Ok(Ok(())), buf, summary)) => {
            let mut response = json(StatusCode::OK, buf, "application/jsonl");
            if let Ok(value) = HeaderValue::from_str(&summary) {
                response.headers_mut().insert("x-urlspec-summary", value);
            }
            response
        }
        Ok((Ok(Err(err)), _, _)) => {
            ApiError::internal(err.to_string()).into_response()
        }
        Ok((Err(bad), _, _)) => {
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
