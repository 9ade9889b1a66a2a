#!/usr/bin/env node
// Checker protocol v1 adapter for the npm package `resolve-path` (jshttp;
// the check of `koa-send` and so of `koa-static`):
//
//     node adapters/npm/resolve-path.js PACKAGE_DIR   (or RESOLVE_PATH_DIR=PACKAGE_DIR)
//
// PACKAGE_DIR is the installed package (node_modules/resolve-path) or an
// `npm install --prefix DIR resolve-path@VERSION` directory.
//
// The call and why: its README: `resolvePath(rootPath, relativePath)`
// "Resolve a relative path against the provided root path and return an
// absolute path. This will throw if the resulting resolution seems
// malicious" (absolute, NUL, outside the root, up and back down), "to
// protect against common attacks like GET /../file.js". So the checker:
//   - each root URI becomes a path with `url.fileURLToPath(uri)`; a root it
//     throws on is ignored (that conversion is the adapter's);
//   - the request's path, which is absolute, is split at the root's text:
//     what follows `ROOT/`, unchanged (`..` and all, for the package to
//     judge); the root itself is ``; a path that does not begin with
//     `ROOT/` is not under that root. Joining the two gives the path back,
//     so the split decides nothing the package could get wrong;
//   - allowed when `resolvePath(root, rest)` returns, and the caller
//     operates on what it returned (`use`); a throw is a denial.
// Reads and writes are judged alike (the helper knows neither). The package
// is lexical: it looks at no link.
'use strict';

const path = require('path');
const { serve, packageDir, rootPaths } = require('./protocol.js');

const { dir, version, pkg } = packageDir('resolve-path', 'RESOLVE_PATH_DIR');

function relativePart(requested, root) {
  const base = root.replace(/\/+$/, '');
  if (requested === root || requested === base) return '';
  if (requested.startsWith(base + '/')) return requested.slice(base.length + 1);
  return null;
}

const resolvePath = require(path.join(dir, pkg.main || 'index.js'));
process.stderr.write(`resolve-path ${version} from ${dir}\n`);
serve(async ({ roots, path: requested }) => {
  let why = 'no root begins the path';
  for (const root of rootPaths(roots)) {
    const rest = relativePart(requested, root);
    if (rest === null) continue;
    try {
      const resolved = resolvePath(root, rest);
      // What fs opens: lone surrogates become U+FFFD in its UTF-8.
      const use = Buffer.from(resolved, 'utf8').toString('utf8');
      return { allowed: true, use, reason: `resolvePath(${root}, ${rest}) = ${resolved}` };
    } catch (e) {
      why = `resolvePath threw: ${e && e.message}`;
    }
  }
  return { allowed: false, reason: why };
});
