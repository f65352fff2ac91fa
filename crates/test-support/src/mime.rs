//! MIME messages built for tests.

use std::fmt::Write;

/// A message of `depth` nested, closed `multipart/mixed` parts (boundaries
/// `b0`, `b1`, …) with an HTML part beside the first one, linking to
/// `http://top/`, and another at the bottom, linking to `http://bottom/`.
///
/// ```
/// let m = urlspec_test_support::mime::nested_multipart(2);
/// assert!(m.starts_with("Content-Type: multipart/mixed; boundary=\"b0\""));
/// assert!(m.ends_with("\r\n--b1--\r\n\r\n--b0--\r\n"));
/// ```
pub fn nested_multipart(depth: usize) -> String {
    let mut message = String::new();
    for i in 0..depth {
        let _ = write!(
            message,
            "Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n"
        );
        if i == 0 {
            // A shallow HTML part, read whatever the depth below.
            message.push_str(
                "Content-Type: text/html\r\n\r\n\
                 <a href=\"http://top/\">t</a>\r\n--b0\r\n",
            );
        }
    }
    message.push_str(
        "Content-Type: text/html\r\n\r\n<a href=\"http://bottom/\">b</a>",
    );
    for i in (0..depth).rev() {
        let _ = write!(message, "\r\n--b{i}--\r\n");
    }
    message
}
