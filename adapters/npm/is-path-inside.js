#!/usr/bin/env node
// Checker protocol v1 adapter for the npm package `is-path-inside`
// (sindresorhus), as a typical MCP server author would use it:
//
//     node adapters/npm/is-path-inside.js PACKAGE_DIR   (or IS_PATH_INSIDE_DIR=PACKAGE_DIR)
//
// PACKAGE_DIR is the installed package (node_modules/is-path-inside) or an
// `npm install --prefix DIR is-path-inside@VERSION` directory.
//
// The checker this adapter stands for:
//   - each root URI becomes a path with `url.fileURLToPath(uri)`; a root it
//     throws on (not a file: URL, a host, an encoded '/') is ignored;
//   - the request's path is `path.resolve`d (is-path-inside resolves both
//     arguments itself anyway, through path.relative);
//   - allowed when `isPathInside(resolved, root)` holds for some root.
// No `use`: the caller operates on the path it was given. Nothing is
// resolved on disk, by design of the package (its README: it "does not
// check if the paths exist nor does it resolve symlinks. You should not use
// this as a security mechanism").
//
// isPathInside(x, x) is false (a path is not inside itself), so the root
// itself is denied: rootguard counts that as an overblock. Set
// ADAPTER_ALLOW_ROOT_ITSELF=1 to also allow `resolved === root`, as an author
// who noticed would add.
'use strict';

const path = require('path');
const { serve, packageDir, rootPaths, importPackage } = require('./protocol.js');

const { dir, version, pkg } = packageDir('is-path-inside', 'IS_PATH_INSIDE_DIR');
const allowRootItself = process.env.ADAPTER_ALLOW_ROOT_ITSELF === '1';

(async () => {
  // v4 is ESM ("exports": "./index.js"); v3 and older are CommonJS ("main").
  const mod = await importPackage(dir, pkg);
  const isPathInside = mod.default || mod;
  process.stderr.write(`is-path-inside ${version} from ${dir}\n`);
  serve(async ({ roots, path: requested }) => {
    const resolved = path.resolve(requested);
    for (const root of rootPaths(roots)) {
      if (isPathInside(resolved, root) || (allowRootItself && path.resolve(root) === resolved)) {
        return { allowed: true, reason: `is-path-inside(${resolved}, ${root})` };
      }
    }
    return { allowed: false, reason: `${resolved} is inside no root` };
  });
})().catch((e) => {
  process.stderr.write(`is-path-inside adapter: cannot load the package: ${e && e.stack}\n`);
  process.exit(2);
});
