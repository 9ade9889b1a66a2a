#!/usr/bin/env node
// Checker protocol v1 adapter for the npm package `contains-path`
// (jonschlinkert), as it is used to ask whether a path lies in a directory:
//
//     node adapters/npm/contains-path.js PACKAGE_DIR   (or CONTAINS_PATH_DIR=PACKAGE_DIR)
//
// PACKAGE_DIR is the installed package (node_modules/contains-path) or an
// `npm install --prefix DIR contains-path@VERSION` directory.
//
// The call and why: its README: `containsPath(filepath, substr)`, "Return
// true if a file path contains the given path", whole segments only
// (`containsPath('foobar', 'foo')` is false), `./` to anchor at the start.
// With the root as `substr` and an absolute path, that is the containment
// question. The checker is:
//   - each root URI becomes a path with `url.fileURLToPath(uri)`; a root it
//     throws on is ignored (that conversion is the adapter's);
//   - the request's path is `path.resolve`d (the package does not remove
//     `..`);
//   - allowed when `containsPath(resolved, root)` for some root.
// No `use`. The package compares text only (after turning every `\` into
// `/`), and matches a segment anywhere in the path, not only at its start.
'use strict';

const path = require('path');
const { serve, packageDir, rootPaths } = require('./protocol.js');

const { dir, version, pkg } = packageDir('contains-path', 'CONTAINS_PATH_DIR');

const containsPath = require(path.join(dir, pkg.main || 'index.js'));
process.stderr.write(`contains-path ${version} from ${dir}\n`);
serve(async ({ roots, path: requested }) => {
  const resolved = path.resolve(requested);
  for (const root of rootPaths(roots)) {
    if (containsPath(resolved, root)) {
      return { allowed: true, reason: `containsPath(${resolved}, ${root})` };
    }
  }
  return { allowed: false, reason: `${resolved} contains no root` };
});
