//! The crate's floors: each module may use only modules on floors below
//! its own. The order is the numbered list under "What lives where" in the
//! crate docs (`src/lib.rs`); this test reads it there, reads every `crate::`
//! path of each module's non-test code (items under `#[cfg(test)]` left
//! out, macro bodies included) and fails on any edge to a module on the
//! same floor or above, or to a module the list does not name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::{self, Visit};

/// The floor of each module, from the crate docs' numbered list: on each
/// line `N. …`, the backquoted names before the first `: `.
fn floors(lib: &str) -> BTreeMap<String, usize> {
    let mut floors = BTreeMap::new();
    for line in lib.lines().filter_map(|l| l.strip_prefix("//! ")) {
        let Some((number, rest)) = line.split_once(". ") else { continue };
        let Ok(floor) = number.parse::<usize>() else { continue };
        let head = rest.split(": ").next().unwrap_or("");
        for name in head.split('`').skip(1).step_by(2) {
            floors.insert(name.to_string(), floor);
        }
    }
    floors
}

/// The `crate::NAME` paths of a file, outside `#[cfg(test)]` items.
#[derive(Default)]
struct Uses {
    names: BTreeSet<String>,
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item::*;
    match item {
        Const(i) => &i.attrs,
        Enum(i) => &i.attrs,
        Fn(i) => &i.attrs,
        Impl(i) => &i.attrs,
        Macro(i) => &i.attrs,
        Mod(i) => &i.attrs,
        Static(i) => &i.attrs,
        Struct(i) => &i.attrs,
        Trait(i) => &i.attrs,
        Type(i) => &i.attrs,
        Union(i) => &i.attrs,
        Use(i) => &i.attrs,
        _ => &[],
    }
}

impl Uses {
    fn use_tree(&mut self, tree: &syn::UseTree) {
        let ident = match tree {
            syn::UseTree::Path(p) => &p.ident,
            syn::UseTree::Name(n) => &n.ident,
            syn::UseTree::Rename(r) => &r.ident,
            syn::UseTree::Group(g) => {
                g.items.iter().for_each(|t| self.use_tree(t));
                return;
            }
            syn::UseTree::Glob(_) => return,
        };
        self.names.insert(ident.to_string());
    }
}

impl<'ast> Visit<'ast> for Uses {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_cfg_test(item_attrs(item)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        if let syn::ImplItem::Fn(f) = item {
            if is_cfg_test(&f.attrs) {
                return;
            }
        }
        visit::visit_impl_item(self, item);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        match &item.tree {
            syn::UseTree::Path(p) if p.ident == "crate" => {
                self.use_tree(&p.tree)
            }
            _ => {}
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let mut segments = path.segments.iter();
        if segments.next().is_some_and(|s| s.ident == "crate") {
            if let Some(next) = segments.next() {
                self.names.insert(next.ident.to_string());
            }
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // Macro bodies are tokens, not syntax: read them as text.
        let text = mac.tokens.to_string();
        for (at, _) in text.match_indices("crate :: ") {
            let rest = &text[at + "crate :: ".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            self.names.insert(name);
        }
        visit::visit_macro(self, mac);
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn modules_use_only_lower_floors() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let floors = floors(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    assert!(floors.len() >= 10, "the crate docs' list of floors: {floors:?}");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = module.trim_end_matches(".rs");
        if module == "lib" {
            continue; // the root re-exports; it stands above every floor
        }
        let Some(&floor) = floors.get(module) else {
            wrong.push(format!(
                "{}: module `{module}` is on no floor",
                relative.display()
            ));
            continue;
        };
        let syntax = syn::parse_file(&std::fs::read_to_string(file).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", relative.display()));
        let mut uses = Uses::default();
        uses.visit_file(&syntax);
        for name in uses.names {
            if name == module {
                continue;
            }
            match floors.get(&name) {
                Some(&f) if f < floor => {}
                Some(&f) => wrong.push(format!(
                    "{}: `{module}` (floor {floor}) uses `crate::{name}` (floor {f})",
                    relative.display()
                )),
                None => wrong.push(format!(
                    "{}: `{module}` uses `crate::{name}`, on no floor",
                    relative.display()
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "edges against the floors:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_floors_are_read() {
    let lib = "//! 1. [`chars`]: classes `a`\n//! 10. [`scheme`], [`extract`]: views\n";
    let floors = floors(lib);
    assert_eq!(floors["chars"], 1);
    assert_eq!((floors["scheme"], floors["extract"]), (10, 10));
    assert!(!floors.contains_key("a"));
}
