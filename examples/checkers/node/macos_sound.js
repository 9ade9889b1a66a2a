#!/usr/bin/env node
// A sound macOS path-boundary checker speaking rootguard's checker protocol v1.
//
//     rootguard vet --flavor macos -- node examples/checkers/node/macos_sound.js
//
// The same logic as ../python/macos_sound.py, following docs/semantics.md
// section 5 ("macOS"): root URIs are parsed as on Linux (sound.js's
// parser); `/tmp`, `/var` and `/etc` are links to `/private/tmp`,
// `/private/var` and `/private/etc`, followed before any `..` after them;
// names are compared as APFS does by default, insensitive to case and to
// Unicode normalization (NFD, case folded, NFD again; JavaScript has no
// case folding, so upper then lower case, twice, stands for it), never to
// compatibility forms; containment is by whole components. The model it
// follows is lexical (there is no Mac here to ask); a real server would
// also resolve its links with realpath. A name that is not UTF-8 is denied.
//
// The flawed macOS checkers beside it require() the pieces they keep sound.
'use strict';

const sound = require('./sound.js');

const PRIVATE_LINKS = ['tmp', 'var', 'etc'];

class Denied extends Error {}

/** APFS's comparison key: NFD, case folded, NFD again. */
const key = (name) =>
  name.normalize('NFD').toUpperCase().toLowerCase().toUpperCase().toLowerCase().normalize('NFD');

const same = (a, b) => a === b || key(a) === key(b);

/** The names of the location a path names, `/private` links followed; throws Denied. */
function components(text) {
  if (text.includes('\0')) throw new Denied('a NUL');
  if (text.isWellFormed && !text.isWellFormed()) throw new Denied('not UTF-8: APFS names are UTF-8');
  if (!text.startsWith('/')) throw new Denied('not absolute');
  const out = [];
  for (const name of text.split('/')) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      out.pop();
      continue;
    }
    if (!out.length && PRIVATE_LINKS.some((l) => same(l, name))) out.push('private');
    out.push(name);
  }
  return out;
}

/** The names of the location a root URI names; throws Denied. */
function rootComponents(uri) {
  let path;
  try {
    path = sound.parseRootUri(uri);
  } catch (e) {
    if (e instanceof sound.InvalidRoot) throw new Denied(`invalid root: ${e.message}`);
    throw e;
  }
  const text = sound.utf8Text(path);
  if (text === null) throw new Denied('a root that is not UTF-8');
  return components(text);
}

/** The check, with `read` turning the request's path into text first (the flawed checkers swap it). */
function checkWith(read) {
  return (roots, path, op) => {
    let target;
    try {
      target = components(read(path));
    } catch (e) {
      if (e instanceof Denied) return { allowed: false, reason: e.message };
      throw e;
    }
    for (const uri of roots) {
      let root;
      try {
        root = rootComponents(uri);
      } catch (e) {
        if (e instanceof Denied) continue;
        throw e;
      }
      if (root.length <= target.length && root.every((r, i) => same(r, target[i]))) {
        return { allowed: true, reason: `beneath ${uri}` };
      }
    }
    return { allowed: false, reason: 'beneath no root' };
  };
}

const check = checkWith((path) => path);

module.exports = { Denied, key, same, components, rootComponents, checkWith, check, serve: sound.serve };

if (require.main === module) sound.serve(check);
