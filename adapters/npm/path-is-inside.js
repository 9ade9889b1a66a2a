#!/usr/bin/env node
// Checker protocol v1 adapter for the npm package `path-is-inside`
// (domenic), as a typical MCP server author would use it:
//
//     node adapters/npm/path-is-inside.js PACKAGE_DIR   (or PATH_IS_INSIDE_DIR=PACKAGE_DIR)
//
// PACKAGE_DIR is the installed package (node_modules/path-is-inside) or an
// `npm install --prefix DIR path-is-inside@VERSION` directory.
//
// The checker this adapter stands for:
//   - each root URI becomes a path with `url.fileURLToPath(uri)`; a root it
//     throws on (not a file: URL, a host, an encoded '/') is ignored;
//   - the request's path is `path.resolve`d first (path-is-inside compares
//     strings only; without this, `/root/../elsewhere` would pass);
//   - allowed when `pathIsInside(resolved, root)` holds for some root.
// No `use`: the caller operates on the path it was given. Nothing is
// resolved on disk: the package is a string comparison by design.
//
// Set ADAPTER_RAW_PATH=1 to pass the request's path unresolved, the way the
// package is also found called in the wild (then `..` escapes too).
'use strict';

const path = require('path');
const { serve, packageDir, rootPaths, importPackage } = require('./protocol.js');

const { dir, version, pkg } = packageDir('path-is-inside', 'PATH_IS_INSIDE_DIR');
const raw = process.env.ADAPTER_RAW_PATH === '1';

(async () => {
  const mod = await importPackage(dir, pkg);
  const pathIsInside = mod.default || mod;
  process.stderr.write(`path-is-inside ${version} from ${dir}${raw ? ' (raw paths)' : ''}\n`);
  serve(async ({ roots, path: requested }) => {
    const candidate = raw ? requested : path.resolve(requested);
    for (const root of rootPaths(roots)) {
      if (pathIsInside(candidate, root)) {
        return { allowed: true, reason: `path-is-inside(${candidate}, ${root})` };
      }
    }
    return { allowed: false, reason: `${candidate} is inside no root` };
  });
})().catch((e) => {
  process.stderr.write(`path-is-inside adapter: cannot load the package: ${e && e.stack}\n`);
  process.exit(2);
});
