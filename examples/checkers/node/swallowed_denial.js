#!/usr/bin/env node
// FLAWED on purpose. Class: swallowed denial (error handling).
//
// The bug: the realpath check throws "access denied" inside a try whose catch
// is meant for "the file does not exist yet" and so checks only the parent
// directory. The catch catches the denial too: a link inside the root that
// points at an existing file outside (project/linkfile -> ../outside/secret.txt)
// is allowed because its parent is inside, and the caller opens the link.
//
// Imitates: validatePath in @modelcontextprotocol/server-filesystem's
// releases before mid-2025 (the symlink bypass reported as CVE-2025-53109),
// line for line except that the prefix test is made component-wise here and
// the paths are not lowercased, so that only this bug remains.
// It returns, like the server, the path it will operate on (`use`).
//
// Escapes with: roots ["file:///b/project"], path "/b/project/linkfile", op read.
'use strict';

const fs = require('fs');
const path = require('path').posix;
const { bytes, join, pathBytes, resolveRoots, serve, show, utf8Text } = require('./sound.js');

const isInside = (p, dir) => p === dir || p.startsWith(dir === '/' ? '/' : dir + '/');
const realpath = (bin) => fs.realpathSync.native(bytes(bin), { encoding: 'buffer' }).toString('latin1');

function validatePath(allowedDirectories, requestedPath) {
  const absolute = path.resolve(requestedPath);
  if (!allowedDirectories.some((dir) => isInside(absolute, dir))) {
    throw new Error(`Access denied - path outside allowed directories: ${show(absolute)}`);
  }
  // Handle symlinks by checking their real path
  try {
    const realPath = realpath(absolute);
    if (!allowedDirectories.some((dir) => isInside(realPath, dir))) {
      throw new Error('Access denied - symlink target outside allowed directories');
    }
    return realPath;
  } catch (error) {
    // BUG: meant for ENOENT, but also catches the denial just thrown above
    // For new files that don't exist yet, verify parent directory
    const parentDir = path.dirname(absolute);
    try {
      const realParentPath = realpath(parentDir);
      if (!allowedDirectories.some((dir) => isInside(realParentPath, dir))) {
        throw new Error('Access denied - parent directory outside allowed directories');
      }
      return absolute;
    } catch {
      throw new Error(`Parent directory does not exist: ${show(parentDir)}`);
    }
  }
}

function check(roots, p, op) {
  const allowedDirectories = resolveRoots(roots).usable.map(join);
  try {
    const valid = validatePath(allowedDirectories, pathBytes(p));
    const use = utf8Text(valid);
    const verdict = { allowed: true, reason: `validated as ${show(valid)}` };
    return use === null ? verdict : { ...verdict, use };
  } catch (e) {
    return { allowed: false, reason: e.message };
  }
}

if (require.main === module) serve(check);
