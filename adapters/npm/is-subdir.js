#!/usr/bin/env node
// Checker protocol v1 adapter for the npm package `is-subdir` (zkochan; used
// by pnpm), as a server author would use it for containment:
//
//     node adapters/npm/is-subdir.js PACKAGE_DIR   (or IS_SUBDIR_DIR=PACKAGE_DIR)
//
// PACKAGE_DIR is the installed package (node_modules/is-subdir) or an
// `npm install --prefix DIR is-subdir@VERSION` directory.
//
// The call and why: its README's use is `isSubdir(parentDir, subdir)`,
// "Return whether a directory is a subdirectory of another directory",
// true when they are the same (its `strict` variant excludes that). It
// `path.resolve`s both arguments itself and compares them as text with a
// trailing separator added, so the checker is:
//   - each root URI becomes a path with `url.fileURLToPath(uri)`; a root it
//     throws on is ignored (that conversion is the adapter's);
//   - allowed when `isSubdir(root, path)` for some root, the request's path
//     passed as it is (the package resolves it).
// No `use`: the caller operates on the path it was given. Nothing is looked
// up on disk: the package never says it resolves links.
'use strict';

const { serve, packageDir, rootPaths, importPackage } = require('./protocol.js');

const { dir, version, pkg } = packageDir('is-subdir', 'IS_SUBDIR_DIR');

(async () => {
  // 2.x is ESM with a named export; 1.x is CommonJS exporting the function.
  const mod = await importPackage(dir, pkg);
  const isSubdir = mod.isSubdir || mod.default || mod;
  process.stderr.write(`is-subdir ${version} from ${dir}\n`);
  serve(async ({ roots, path: requested }) => {
    for (const root of rootPaths(roots)) {
      if (isSubdir(root, requested)) {
        return { allowed: true, reason: `isSubdir(${root}, ${requested})` };
      }
    }
    return { allowed: false, reason: `${requested} is under no root` };
  });
})().catch((e) => {
  process.stderr.write(`is-subdir adapter: cannot load the package: ${e && e.stack}\n`);
  process.exit(2);
});
