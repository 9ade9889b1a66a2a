// The checker protocol v1 loop shared by the npm adapters
// (docs/checker-protocol.md): one request per line on stdin, one
// response per line on stdout, in order; exit 0 when stdin closes.
//
// Requests are answered one at a time, in order, even though the checks are
// async: the server-filesystem adapter sets module-level state (the allowed
// directories) before each check, as the server itself would.
//
// Request lines are decoded as UTF-8 with U+FFFD for invalid bytes, as the
// MCP SDK's stdio transport decodes what a client sends, so a package sees a
// path exactly as it would inside the real server. Nothing here throws out:
// a request that cannot be understood, or a check that throws anything other
// than the package's own denial, is answered `allowed: false` with a reason.
'use strict';

const DECODER = new TextDecoder('utf-8'); // not fatal: U+FFFD, like Buffer.toString

/** Turns one request line into a response object; never throws. */
async function answer(line, check) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    return { id: null, allowed: false, reason: `not a JSON request: ${e.message}` };
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return { id: null, allowed: false, reason: 'request is not a JSON object' };
  }
  const id = request.id === undefined ? null : request.id;
  const { roots, path, op } = request;
  if (!Array.isArray(roots)) return { id, allowed: false, reason: '"roots" is not an array' };
  if (typeof path !== 'string') return { id, allowed: false, reason: '"path" is not a string' };
  if (op !== 'read' && op !== 'write') return { id, allowed: false, reason: '"op" is neither "read" nor "write"' };
  try {
    const verdict = await check({ roots, path, op });
    const out = { id, allowed: verdict.allowed === true };
    if (verdict.reason !== undefined) out.reason = String(verdict.reason);
    if (out.allowed && typeof verdict.use === 'string') out.use = verdict.use;
    return out;
  } catch (e) {
    return { id, allowed: false, reason: `adapter error: ${e && e.message ? e.message : String(e)}` };
  }
}

/** Serves `check({roots, path, op}) -> Promise<{allowed, reason?, use?}>` on stdin/stdout. */
function serve(check) {
  process.on('uncaughtException', (e) => process.stderr.write(`adapter: uncaught ${e && e.stack}\n`));
  process.on('unhandledRejection', (e) => process.stderr.write(`adapter: unhandled ${e && e.stack}\n`));
  process.stdout.on('error', () => process.exit(0)); // the harness went away (EPIPE)
  let pending = Buffer.alloc(0);
  const lines = [];
  let busy = false;
  let ended = false;

  const pump = async () => {
    if (busy) return;
    busy = true;
    while (lines.length > 0) {
      const line = lines.shift();
      let response;
      try {
        response = await answer(line, check);
      } catch (e) {
        response = { id: null, allowed: false, reason: `adapter error: ${e}` };
      }
      let text;
      try {
        text = JSON.stringify(response);
      } catch (e) {
        text = JSON.stringify({ id: null, allowed: false, reason: 'unencodable response' });
      }
      process.stdout.write(text + '\n');
    }
    busy = false;
    if (ended) finish();
  };

  const finish = () => {
    // Let stdout drain, then exit 0.
    if (process.stdout.writableLength === 0) process.exit(0);
    process.stdout.once('drain', () => process.exit(0));
  };

  process.stdin.on('data', (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let start = 0;
    let nl;
    while ((nl = pending.indexOf(0x0a, start)) !== -1) {
      const line = DECODER.decode(pending.subarray(start, nl));
      if (line.trim() !== '') lines.push(line);
      start = nl + 1;
    }
    pending = start === 0 ? pending : Buffer.from(pending.subarray(start));
    pump();
  });
  process.stdin.on('end', () => {
    if (pending.length > 0) {
      const line = DECODER.decode(pending);
      if (line.trim() !== '') lines.push(line);
      pending = Buffer.alloc(0);
    }
    ended = true;
    if (!busy) {
      if (lines.length > 0) pump();
      else finish();
    }
  });
}

/**
 * The package directory named by `argv[2]` or the environment variable
 * `envName`. A directory holding `node_modules/<name>/package.json` (an
 * `npm install --prefix DIR` target) is accepted too.
 */
function packageDir(name, envName) {
  const fs = require('fs');
  const path = require('path');
  const given = process.argv[2] || process.env[envName];
  if (!given) {
    process.stderr.write(
      `usage: node ${path.basename(process.argv[1])} PACKAGE_DIR   (or ${envName}=PACKAGE_DIR)\n` +
        `  PACKAGE_DIR: the installed ${name} (holding its package.json), or an npm --prefix dir holding node_modules/${name}\n`,
    );
    process.exit(2);
  }
  const dir = path.resolve(given);
  const nested = path.join(dir, 'node_modules', ...name.split('/'));
  const chosen = fs.existsSync(path.join(nested, 'package.json')) ? nested : dir;
  let pkg;
  try {
    pkg = JSON.parse(fs.readFileSync(path.join(chosen, 'package.json'), 'utf8'));
  } catch (e) {
    process.stderr.write(`adapter: no readable package.json in ${chosen}: ${e.message}\n`);
    process.exit(2);
  }
  if (pkg.name !== name) {
    process.stderr.write(`adapter: ${chosen} holds ${pkg.name}, not ${name}\n`);
    process.exit(2);
  }
  return { dir: chosen, version: pkg.version, pkg };
}

/**
 * Each root URI as a path, by `url.fileURLToPath`, as a typical server
 * converts them; a root it throws on is left out (that conversion is the
 * adapter's, not the package's).
 */
function rootPaths(roots) {
  const url = require('url');
  const out = [];
  for (const uri of roots) {
    try {
      out.push(url.fileURLToPath(uri));
    } catch {
      // ignored, as `catch {}` around fileURLToPath does in a typical server
    }
  }
  return out;
}

/**
 * The package's module, ESM or CommonJS: its string `exports` entry, else
 * its `main`, else index.js, loaded with `import()`.
 */
async function importPackage(dir, pkg) {
  const path = require('path');
  const url = require('url');
  const entry = typeof pkg.exports === 'string' ? pkg.exports : pkg.main || 'index.js';
  return import(url.pathToFileURL(path.join(dir, entry)).href);
}

module.exports = { serve, packageDir, rootPaths, importPackage };
