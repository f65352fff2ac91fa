//! Prints the comparison of an input under every spec (a quick look at the
//! `diff` module; the `urlspec diff` command prints it properly).
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let c = match args.as_slice() {
        [input] => {
            urlspec::diff::compare(input, &urlspec::Spec::IETF_AND_WHATWG)
        }
        [base, reference] => urlspec::diff::compare_resolution(
            base,
            reference,
            &urlspec::Spec::IETF_AND_WHATWG,
        ),
        _ => return eprintln!("usage: show_diff INPUT | BASE REFERENCE"),
    };
    for d in &c.differences {
        println!(
            "{}{}:",
            d.column,
            if d.security { " (security)" } else { "" }
        );
        for (cell, specs) in &d.groups {
            let names: Vec<_> = specs.iter().map(|s| s.name()).collect();
            let shown = match cell {
                urlspec::diff::Cell::Value(v) => format!("{v:?}"),
                urlspec::diff::Cell::Error(e) => format!("error: {e}"),
            };
            println!("  {shown}  <- {}", names.join(", "));
        }
        for e in &d.explanations {
            println!("  * {e}");
        }
    }
}
