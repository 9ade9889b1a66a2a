#!/usr/bin/env node
// FLAWED on purpose. Class: percent-decoding a path.
//
// The bug: the path is passed through decodeURIComponent before the
// (otherwise sound) resolution and check, as if it were part of a URI. A
// path is not a URI: `/b%2Fproject%2Fnew.txt` is one new file
// `b%2Fproject%2Fnew.txt` in `/`, not `/b/project/new.txt`, and
// `/b/outside/x%2F..%2F..%2Fproject` a file in /b/outside. The checker
// judges the decoded path; the server writes the one it was given.
//
// Imitates: servers that receive a path inside a `file://` or resource URI
// elsewhere and decode every string the same way, or that decode "just in
// case" a client sent an encoded path.
//
// Escapes with: roots ["file:///b/project"], path "/b%2Fproject%2Fnew.txt", op write.
'use strict';

const sound = require('./sound.js');

function check(roots, p, op) {
  let decoded;
  try {
    decoded = decodeURIComponent(p); // BUG: `%2F` is three bytes of a name, not a separator
  } catch {
    decoded = p; // malformed escapes: keep the text as it is
  }
  return sound.check(roots, decoded, op);
}

if (require.main === module) sound.serve(check);
