#!/usr/bin/env node
// FLAWED on purpose. Class: missing-file fallback.
//
// The bug: the normalized path is checked as text, then realpath'd and
// checked again; but when realpath fails with ENOENT ("a new file, it cannot
// be resolved yet") the checker falls back to the lexical verdict. The kernel
// does not: a write through a dangling link (project/dangling ->
// ../outside/new.txt) or into a missing file beneath a link to a directory
// (project/linkout/new.txt) creates the file outside.
//
// Imitates: the common "realpath it, or if it does not exist yet keep the
// normalized path" (`try { p = fs.realpathSync(p) } catch { /* new file */ }`
// before the containment test). It has the shape of validatePath in the MCP
// reference filesystem server (@modelcontextprotocol/server-filesystem): a
// lexical check of the normalized path first, then realpath, and a
// "new files that don't exist yet" branch through which a write via a
// dangling link lands outside. Like it, it answers with the path it will
// operate on (`use`). (The server's branch checks the parent's realpath:
// see ../rust/src/bin/dangling_write.rs; its older catch-all: see
// swallowed_denial.js.)
//
// Escapes with: roots ["file:///b/project"], path "/b/project/dangling", op write
// (dangling -> ../outside/new.txt).
'use strict';

const fs = require('fs');
const path = require('path').posix;
const { bytes, join, pathBytes, resolveRoots, serve, show, utf8Text } = require('./sound.js');

const isInside = (p, dir) => p === dir || p.startsWith(dir === '/' ? '/' : dir + '/');

function verdict(allowed, reason, use) {
  const text = use === undefined ? null : utf8Text(use);
  return text === null ? { allowed, reason } : { allowed, reason, use: text };
}

function check(roots, p, op) {
  const allowedDirectories = resolveRoots(roots).usable.map(join);
  const absolute = path.resolve(pathBytes(p));
  if (!allowedDirectories.some((d) => isInside(absolute, d))) {
    return verdict(false, `path outside allowed directories: ${show(absolute)}`);
  }
  let real;
  try {
    real = fs.realpathSync.native(bytes(absolute), { encoding: 'buffer' }).toString('latin1');
  } catch (e) {
    if (e.code === 'ENOENT') {
      // BUG: "new file, nothing to resolve yet": the lexical check above stands
      return verdict(true, `${show(absolute)} does not exist yet; lexical check passed`, absolute);
    }
    return verdict(false, `cannot resolve ${show(absolute)}: ${e.code}`);
  }
  if (!allowedDirectories.some((d) => isInside(real, d))) {
    return verdict(false, `symlink target outside allowed directories: ${show(real)}`);
  }
  return verdict(true, `${show(real)} is inside an allowed directory`, real);
}

if (require.main === module) serve(check);
