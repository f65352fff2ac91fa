// The page of `urlspec serve`: redraws the view through the JSON API as
// the user types. The server draws the same view for the page's URL
// (page.rs), with the same classes and data attributes; this script only
// keeps it current. Every text goes in as a text node, never as markup.
"use strict";

(() => {
  const form = document.getElementById("query");
  const view = document.getElementById("view");
  if (!form || !view) {
    return;
  }
  const encoder = new TextEncoder();

  // An element with attributes ("class" may be empty) and children: nodes
  // or strings, the strings as text.
  const el = (tag, attrs, ...children) => {
    const e = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === "class") {
        if (value.trim()) e.className = value.trim();
      } else {
        e.setAttribute(name, String(value));
      }
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) e.append(child);
    }
    return e;
  };

  // Controls as output/text.rs's `visible` shows them, one character each.
  const visible = (text) =>
    Array.from(text, (c) => {
      const n = c.codePointAt(0);
      if (n < 0x20) return String.fromCodePoint(0x2400 + n);
      if (n === 0x7f) return "\u2421";
      if ((n >= 0x80 && n <= 0x9f) || (n >= 0x202a && n <= 0x202e) ||
          (n >= 0x2066 && n <= 0x2069)) return "\ufffd";
      return c;
    }).join("");

  // A value as the matrix shows it.
  const shown = (value) =>
    value === null || value === undefined ? "(absent)" : value === "" ? '""' : visible(value);

  // The character column of byte `position` of `text` (UTF-8).
  const column = (text, position) => {
    let bytes = 0;
    let col = 0;
    for (const c of text) {
      if (bytes >= position) break;
      bytes += encoder.encode(c).length;
      col += 1;
    }
    return col;
  };

  // The input with carets under the bytes start..end.
  const carets = (input, start, end) => {
    const from = column(input, start);
    const width = Math.max(1, column(input, end) - from);
    return visible(input) + "\n" + " ".repeat(from) + "^".repeat(width);
  };

  const securityMarker = () =>
    el("span", { class: "security-marker" }, "security");

  // The readers of a group: its specs, then its real parsers.
  const readers = (g) => g.specs.concat(g.parsers || []);

  // A row's reader: a spec, or a real parser.
  const reader = (row) => row.spec || row.parser;

  // The index of the group with the most readers (the first of the largest).
  const majority = (d) => {
    let best = 0;
    d.groups.forEach((g, i) => {
      if (readers(g).length > readers(d.groups[best]).length) best = i;
    });
    return best;
  };

  const isMarked = (d, name) => {
    const group = d.groups.findIndex((g) => readers(g).includes(name));
    return group >= 0 && group !== majority(d);
  };

  // The WHATWG standard and the real parsers have no net_loc and no params.
  const inModel = (row, col) =>
    (row.parser === undefined && row.spec !== "whatwg") ||
    (col !== "net_loc" && col !== "params");

  const verdict = (diff, columns) => {
    if (diff.agree) return `The ${diff.rows.length} specs agree.`;
    const names = diff.differences.map((d) =>
      d.security ? `${d.column} (security)` : d.column);
    return `The specs disagree on ${diff.differences.length} of ` +
      `${columns.length} columns: ${names.join(", ")}.`;
  };

  const matrix = (diff) => {
    const parse = diff.base === null;
    let columns = [];
    for (const row of diff.rows) {
      const keys = Object.keys(row.cells || {});
      if (keys.length > columns.length) columns = keys;
    }
    const difference = (col) => diff.differences.find((d) => d.column === col);
    const head = el("tr", {}, el("th", {}, "spec"), columns.map((col) => {
      const d = difference(col);
      const security = d && d.security;
      return el("th", {
        "data-column": col,
        class: `${d ? "differs" : ""} ${security ? "security" : ""}`,
      }, col, security ? [" ", securityMarker()] : null);
    }), parse ? el("th", {}, "valid") : null);
    const rows = diff.rows.map((row) => {
      let cells;
      if (row.error !== null) {
        cells = [el("td", { class: "error", colspan: columns.length },
          "error: " + visible(row.error))];
      } else {
        cells = columns.map((col) => {
          if (!inModel(row, col)) {
            return el("td", { "data-column": col, class: "none" }, "-");
          }
          const d = difference(col);
          const marked = d !== undefined && isMarked(d, reader(row));
          const value = row.cells[col];
          return el("td", {
            "data-column": col,
            class: `${marked ? "differs" : ""} ` +
              `${marked && d.security ? "security" : ""} ` +
              `${value === null ? "absent" : ""}`,
          }, shown(value));
        });
      }
      return el("tr", { "data-spec": reader(row) }, el("th", {}, reader(row)), cells,
        parse ? el("td", { class: "valid" }, row.valid ? "yes" : "no") : null);
    });
    return el("section", { id: "matrix" },
      el("h2", {}, "Matrix"),
      el("p", { id: "verdict", class: diff.agree ? "agree" : "" }, verdict(diff, columns)),
      el("div", { class: "scroll" },
        el("table", { class: "matrix" }, el("thead", {}, head), el("tbody", {}, rows))));
  };

  const differences = (diff) =>
    el("section", { id: "differences" },
      el("h2", {}, "Differences"),
      diff.differences.length === 0 ? el("p", {}, "None.") : null,
      diff.differences.map((d) =>
        el("article", { "data-column": d.column },
          el("h3", {}, d.column, d.security ? [" ", securityMarker()] : null),
          el("ul", { class: "groups" }, d.groups.map((g) =>
            el("li", {}, el("code", {}, shown(g.value)), " \u2190 " + readers(g).join(", ")))),
          d.explanations.map((why) => el("p", { class: "why" }, visible(why))))));

  const findings = (input, checks) => {
    const groups = [];
    for (const check of checks) {
      const key = JSON.stringify(check.findings);
      const group = groups.find((g) => g.key === key);
      if (group) group.specs.push(check.spec);
      else groups.push({ key, specs: [check.spec], findings: check.findings });
    }
    return el("section", { id: "findings" },
      el("h2", {}, "Security findings (check)"),
      groups.map((g) =>
        el("article", { "data-specs": g.specs.join(",") },
          el("h3", {}, g.specs.join(", ")),
          g.findings.length === 0 ? el("p", {}, "No findings.") : null,
          g.findings.map((f) =>
            el("div", { class: "finding", "data-code": f.code },
              el("p", {}, el("strong", {}, f.code), " ",
                el("span", { class: "severity" }, f.severity),
                ` ${f.name} at ${f.span.start}..${f.span.end}`),
              el("pre", { class: "caret" }, carets(input, f.span.start, f.span.end)),
              el("p", {}, visible(f.message)),
              el("p", { class: "source" }, "source: " + f.source))))));
  };

  const MAX_SHOWN = 20;

  const validity = (input, parses) =>
    el("section", { id: "validity" },
      el("h2", {}, "Validity (the input alone, as parse)"),
      parses.map((p) =>
        el("article", { "data-spec": p.spec, class: p.valid ? "valid" : "" },
          el("h3", {}, `${p.spec}: ${p.valid ? "valid" : "invalid"}`),
          p.violations.slice(0, MAX_SHOWN).map((v) => {
            const next = Array.from(input)[column(input, v.position)];
            const end = v.position + (next === undefined ? 0 : encoder.encode(next).length);
            return el("div", {
              class: "violation", "data-position": v.position, "data-rule": v.rule,
            },
              el("pre", { class: "caret" }, carets(input, v.position, end)),
              el("p", {}, "rule ", el("code", {}, v.rule),
                ` at byte ${v.position}: ${visible(v.message)}`));
          }),
          p.violations.length > MAX_SHOWN
            ? el("p", {}, `\u2026 and ${p.violations.length - MAX_SHOWN} more ` +
              `violation${p.violations.length - MAX_SHOWN === 1 ? "" : "s"} ` +
              "(--json lists them all)")
            : null)));

  // Which parsers an allowlist of one host would be fooled with.
  const allowlist = (a) =>
    el("section", { id: "allowlist" },
      el("h2", {}, "Allowlist"),
      a.fooled.length === 0
        ? el("p", { class: "agree" }, "No parser reads ", el("code", {}, a.allowed),
          " while another reads another host.")
        : null,
      a.fooled.map((f) =>
        el("article", { "data-parser": f.parser },
          el("h3", {}, f.parser + " reads ", el("code", {}, a.allowed)),
          el("ul", {}, f.elsewhere.map((e) =>
            el("li", { "data-parser": e.parser }, e.parser + " connects to ",
              e.host === null ? "no host" : el("code", {}, visible(e.host))))))));

  const get = async (path, params) => {
    const response = await fetch(`${path}?${new URLSearchParams(params)}`);
    return { ok: response.ok, body: await response.json() };
  };

  let latest = 0;

  const update = async () => {
    const input = form.elements.input.value;
    const base = form.elements.base.value;
    const specs = Array.from(form.querySelectorAll("input[name=specs]:checked"),
      (box) => box.value);
    const parsers = Array.from(form.querySelectorAll("input[name=parsers]:checked"),
      (box) => box.value);
    const allowed = form.elements.allowed.value.trim();
    const query = new URLSearchParams({ input });
    if (base) query.set("base", base);
    query.set("specs", specs.join(","));
    if (parsers.length > 0) query.set("parsers", parsers.join(","));
    const link = `/?${query}${allowed ? `&${new URLSearchParams({ allowed })}` : ""}`;
    history.replaceState(null, "", link);
    const ticket = ++latest;
    const [diff, checks, parses, fooled] = await Promise.all([
      get("/api/diff", query),
      Promise.all(specs.map((spec) => get("/api/check", { input, spec }))),
      Promise.all(specs.map((spec) => get("/api/parse", { input, spec }))),
      allowed ? get("/api/allowlist", {
        input, allowed, parsers: parsers.length > 0 ? parsers.join(",") : "all",
      }) : null,
    ]);
    const parts = diff.ok ? [
      el("p", { id: "permalink" }, el("a", { href: link }, "Link to this view")),
      fooled && fooled.ok ? allowlist(fooled.body) : null,
      matrix(diff.body), differences(diff.body),
      findings(input, checks.map((c) => c.body)),
      validity(input, parses.map((p) => p.body)),
    ] : [el("p", { class: "problem" }, diff.body.error.message)];
    if (ticket !== latest) return;
    view.replaceChildren(...parts);
    view.dataset.rendered = "script";
  };

  let timer = 0;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => update().catch(() => {}), 120);
  };
  form.addEventListener("input", soon);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    update().catch(() => {});
  });
  // Drawn once through the API on load: the same view, now kept current.
  if (new URLSearchParams(location.search).has("input")) {
    update().catch(() => {});
  }
})();
