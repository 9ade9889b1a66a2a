#!/usr/bin/env node
// FLAWED on purpose. Class: trimming the path.
//
// The bug: whitespace around the path is trimmed before the (otherwise
// sound) resolution and check, but the server opens the path it was given.
// A name may end in a space (or a no-break space, which trim() removes
// too): `/b/project/notes.txt ` is a link to ../outside/notes.txt that a
// write follows, while the trimmed `/b/project/notes.txt` is a new file in
// the root.
//
// Imitates: argument "sanitizing" (`p.trim()`, Python's `p.strip()`), the
// path-side twin of the MCP reference filesystem server's trimming of
// quotes and spaces from allowed directories.
//
// Escapes with: roots ["file:///b/project"], path "/b/project/notes.txt " (a
// trailing space), op write (with "project/notes.txt " -> ../outside/notes.txt).
'use strict';

const sound = require('./sound.js');

function check(roots, p, op) {
  return sound.check(roots, p.trim(), op); // BUG: the trimmed path is not the one opened
}

if (require.main === module) sound.serve(check);
