#!/usr/bin/env node
// FLAWED on purpose. Class: one-level link following.
//
// The bug: the parent directory is resolved correctly, and a final
// component that is a symlink is followed, but only once: if the link points
// at another link, the second one is taken at face value. A chain
// project/chain1 -> chain2 -> ../outside/secret.txt reads outside.
//
// Imitates: the frequent hand-rolled
//   if (fs.lstatSync(p).isSymbolicLink()) p = path.resolve(dir, fs.readlinkSync(p));
// written by someone who knew links matter but not that they chain. It
// answers yes or no; the caller then opens the path it was given.
//
// Escapes with: roots ["file:///b/project"], path "/b/project/chain1", op read
// (chain1 -> chain2, chain2 -> ../outside/secret.txt).
'use strict';

const fs = require('fs');
const path = require('path').posix;
const { Unresolvable, bytes, join, pathBytes, resolve, resolveRoots, serve, show, within } =
  require('./sound.js');

function check(roots, p, op) {
  const dirs = resolveRoots(roots).usable;
  const raw = pathBytes(p);
  const name = path.basename(raw);
  if (raw.endsWith('/') || name === '.' || name === '..' || name === '') {
    return { allowed: false, reason: 'not a file name' };
  }
  let full;
  try {
    full = [...resolve(path.dirname(raw), 'read'), name]; // the parent, resolved soundly
  } catch (e) {
    if (e instanceof Unresolvable) return { allowed: false, reason: `parent: ${e.message}` };
    throw e;
  }
  try {
    if (fs.lstatSync(bytes(join(full))).isSymbolicLink()) {
      // BUG: one readlink, as if a link could not point at a link
      const target = fs.readlinkSync(bytes(join(full)), { encoding: 'buffer' }).toString('latin1');
      full = path.resolve(join(full.slice(0, -1)), target).split('/').filter((c) => c);
    }
  } catch (e) {
    if (e.code !== 'ENOENT') return { allowed: false, reason: `${show(join(full))}: ${e.code}` };
  }
  const root = dirs.find((r) => within(full, r));
  if (root === undefined) return { allowed: false, reason: `${show(join(full))} is beneath no root` };
  return { allowed: true, reason: `${show(join(full))} is beneath ${show(join(root))}` };
}

if (require.main === module) serve(check);
