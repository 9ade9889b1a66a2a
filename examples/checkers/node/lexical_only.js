#!/usr/bin/env node
// FLAWED on purpose. Class: lexical only.
//
// The bug: the path is normalized as text (path.resolve collapses "." and
// ".."), roots are parsed correctly but never resolved, and no symlink is
// ever followed, so a link inside the root that points outside
// (project/linkout -> ../outside) carries any read or write out of it.
//
// Imitates: the `path.resolve(root, p)` + `path.relative(root, p)` containment
// test of countless Node servers, and helpers such as is-path-inside and
// path-is-inside, which (as their READMEs say) only compare strings.
// Like those servers it hands back the normalized path (`use`) it checked.
//
// Escapes with: roots ["file:///b/project"], path "/b/project/linkout/secret.txt",
// op read (linkout -> ../outside).
'use strict';

const path = require('path').posix;
const { parseRootUri, pathBytes, serve, show, utf8Text } = require('./sound.js');

function isInside(child, dir) {
  const rel = path.relative(dir, child);
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !path.isAbsolute(rel));
}

function check(roots, p, op) {
  const dirs = [];
  for (const uri of roots) {
    try {
      dirs.push(parseRootUri(uri)); // BUG: never resolved either
    } catch {
      // an invalid root grants nothing
    }
  }
  const absolute = path.resolve(pathBytes(p)); // BUG: text only, no link followed
  const dir = dirs.find((d) => isInside(absolute, d));
  if (dir === undefined) return { allowed: false, reason: `${show(absolute)} is outside every root` };
  const verdict = { allowed: true, reason: `${show(absolute)} is inside ${show(dir)}` };
  const use = utf8Text(absolute);
  return use === null ? verdict : { ...verdict, use };
}

if (require.main === module) serve(check);
