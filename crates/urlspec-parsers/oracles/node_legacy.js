// The real implementation of the node-legacy profile: Node.js's legacy
// url.parse (lib/url.js, Url.prototype.parse), without its query parsing.
//
// The oracle protocol (README.md): a first line naming the runtime, then,
// for each line of standard input (a URL as a JSON string), one line of
// JSON with the components, or the error thrown (its code, else its
// name). The scheme is the protocol without its ":", the host the
// hostname (without an IPv6 address's brackets), the fragment the hash
// without its "#".
'use strict';

const url = require('url');
const readline = require('readline');

// url.parse warns once of a port that is not a number (DEP0170): the
// warning is not an answer.
process.noDeprecation = true;

function answer(input) {
  let u;
  try {
    u = url.parse(input);
  } catch (e) {
    return { error: e.code || e.name, message: e.message };
  }
  return {
    scheme: u.protocol === null ? null : u.protocol.replace(/:$/, ''),
    userinfo: u.auth,
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    query: u.query,
    fragment: u.hash === null ? null : u.hash.slice(1),
  };
}

// node oracles/node_legacy.js --bench FILE [ROUNDS]: url.parse over every
// line of FILE, ROUNDS times, timed without reading or JSON; one line of
// JSON with the URLs parsed and the URLs a second.
if (process.argv[2] === '--bench') {
  const urls = require('fs').readFileSync(process.argv[3], 'utf8').split('\n');
  if (urls[urls.length - 1] === '') urls.pop();
  const rounds = Number(process.argv[4] || 1);
  let parsed = 0;
  const start = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) {
    for (const u of urls) {
      try {
        url.parse(u);
        parsed++;
      } catch {
        // A refusal is an answer too.
      }
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const n = urls.length * rounds;
  process.stdout.write(JSON.stringify({
    runtime: `Node.js ${process.versions.node}`, urls: n, parsed,
    seconds: Number(seconds.toFixed(3)), urls_per_second: Math.round(n / seconds),
  }) + '\n');
  process.exit(0);
}

const hello = {
  runtime: `Node.js ${process.versions.node}`,
  library: `url.parse (ada ${process.versions.ada})`,
};
process.stdout.write(JSON.stringify(hello) + '\n');
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let out = [];
lines.on('line', (line) => {
  out.push(JSON.stringify(answer(JSON.parse(line))));
  if (out.length >= 1024) {
    process.stdout.write(out.join('\n') + '\n');
    out = [];
  }
});
lines.on('close', () => {
  if (out.length > 0) process.stdout.write(out.join('\n') + '\n');
});
