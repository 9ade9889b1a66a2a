#!/usr/bin/env node
// A sound path-boundary checker speaking rootguard's checker protocol v1.
//
//     node examples/checkers/node/sound.js
//
// The same logic as ../python/sound.py, for Node 20 without any npm package:
// strict root URIs (semantics.md section 1), a component-by-component walk
// with lstat/readlink (section 2), containment by whole components
// (section 3). Whatever cannot happen is denied, with a reason. The protocol
// itself (reading requests, denying malformed ones, writing answers) is the
// adapter library's serve (adapters/node, the package rootguard-protocol).
//
// Paths are bytes on Linux. Inside this file a path is a "binary string":
// one char per byte (latin1), turned into a Buffer for every fs call, so
// non-UTF-8 names survive readlink and %HH roots. A request string's bytes
// are the adapter's pathBuffer: its UTF-8, except that lone surrogates
// U+DC80..U+DCFF (raw invalid bytes in the request line) stand for the
// bytes 0x80..0xFF.
//
// The other Node example checkers require() the pieces they keep sound, and
// serve, from here.
'use strict';

const fs = require('fs');
// The protocol loop: adapters/node, the package rootguard-protocol.
const { serve, pathBuffer } = require('../../../adapters/node');

const MAX_LINKS = 40; // Linux's MAXSYMLINKS: the 41st expansion is ELOOP
const PATH_MAX = 4096; // the kernel refuses a path argument this long
const UTF8 = new TextDecoder('utf-8', { fatal: true });

class InvalidRoot extends Error {}
class Unresolvable extends Error {}

const bytes = (bin) => Buffer.from(bin, 'latin1');
/** A binary string as readable text for reasons (always valid Unicode). */
const show = (bin) => bytes(bin).toString('utf8');
/** A binary string as a request-style string, or null when it is not UTF-8. */
function utf8Text(bin) {
  try {
    return UTF8.decode(bytes(bin));
  } catch {
    return null;
  }
}
/** The absolute path of a list of components (the empty list is "/"). */
const join = (components) => '/' + components.join('/');

// --- Section 1: roots --------------------------------------------------------

const HEX = /^[0-9A-Fa-f]{2}$/;
// RFC 3986 pchar plus "/": unreserved, sub-delims, ":" and "@" ("%" apart).
const PATH_CHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;

/** The absolute, lexically normal path (binary string) a valid root URI names. */
function parseRootUri(uri) {
  if (typeof uri !== 'string') throw new InvalidRoot('root is not a string');
  if (!/^[Ff][Ii][Ll][Ee]:/.test(uri)) throw new InvalidRoot('scheme is not file');
  const rest = uri.slice(5);
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i];
    if (ch === '%') {
      if (!HEX.test(rest.slice(i + 1, i + 3))) throw new InvalidRoot("'%' not followed by two hex digits");
    } else if (ch === '?' || ch === '#') {
      throw new InvalidRoot('query or fragment');
    } else if (!PATH_CHAR.test(ch)) {
      throw new InvalidRoot(`character ${JSON.stringify(ch)} is not allowed in a URI path`);
    }
  }
  let path;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    if (authority !== '' && authority.toLowerCase() !== 'localhost') {
      throw new InvalidRoot(`authority ${JSON.stringify(authority)} is neither empty nor localhost`);
    }
    if (slash < 0) throw new InvalidRoot('no path after the authority');
    path = rest.slice(slash);
  } else if (rest.startsWith('/')) {
    path = rest; // the RFC 8089 file:/path form
  } else {
    throw new InvalidRoot('path is not absolute');
  }
  // Split before decoding: a decoded "/" is refused anyway, so this is the same.
  // RFC 3986 5.2.4 counts empty segments, so "/a//../b" is "/a/b"; only
  // then do empty segments collapse.
  const kept = [];
  for (const encoded of path.split('/').slice(1)) {
    const segment = percentDecode(encoded);
    if (segment === '.') continue;
    if (segment === '..') {
      kept.pop();
      continue;
    }
    kept.push(segment);
  }
  return join(kept.filter((segment) => segment !== ''));
}

function percentDecode(segment) {
  return segment.replace(/%([0-9A-Fa-f]{2})/g, (_, hh) => {
    const byte = parseInt(hh, 16);
    if (byte === 0x2f) throw new InvalidRoot("%2F would smuggle a '/' into a segment");
    if (byte === 0) throw new InvalidRoot('%00 would smuggle a NUL into a segment');
    return String.fromCharCode(byte);
  });
}

/** The resolved components of every usable root, and a note per unusable one. */
function resolveRoots(uris) {
  const usable = [];
  const notes = [];
  for (const uri of uris) {
    try {
      usable.push(resolve(parseRootUri(uri), 'read'));
    } catch (e) {
      if (e instanceof InvalidRoot) notes.push(`root ${JSON.stringify(uri)} is invalid: ${e.message}`);
      else if (e instanceof Unresolvable) notes.push(`root ${JSON.stringify(uri)} does not resolve: ${e.message}`);
      else throw e;
    }
  }
  return { usable, notes };
}

// --- Section 2: the target ---------------------------------------------------

function components(path) {
  const parts = path.split('/').filter((c) => c !== '');
  if (path.endsWith('/') && parts.length) parts.push('.'); // demands a directory, as "/." does
  return parts;
}

function lstat(bin) {
  try {
    return fs.lstatSync(bytes(bin));
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw new Unresolvable(`${show(bin)}: ${e.code || e.message}`);
  }
}

function readlink(bin) {
  try {
    return fs.readlinkSync(bytes(bin), { encoding: 'buffer' }).toString('latin1');
  } catch (e) {
    throw new Unresolvable(`${show(bin)}: ${e.code || e.message}`);
  }
}

/**
 * The components of what `op` on `path` (a binary string) would touch, every
 * link followed. For "write" the result may name a file that does not exist
 * yet. Throws Unresolvable when the operation cannot happen.
 */
function resolve(path, op) {
  if (path.includes('\0')) throw new Unresolvable('NUL byte in path');
  if (!path.startsWith('/')) throw new Unresolvable('path is not absolute');
  if (path.length >= PATH_MAX) throw new Unresolvable('path too long (ENAMETOOLONG)');
  if (op === 'write' && path.endsWith('/')) throw new Unresolvable("a write path may not end in '/'");
  const todo = components(path).reverse(); // a stack: the next component is at the end
  let current = []; // always a real directory: no link in it
  let currentIsDir = true;
  let links = 0;
  while (todo.length) {
    const name = todo.pop();
    if (name === '.') continue;
    if (name === '..') {
      current.pop(); // physical: `current` holds no link
      currentIsDir = true;
      continue;
    }
    const candidate = join([...current, name]);
    const st = lstat(candidate);
    if (st === null) {
      if (!todo.length && op === 'write') return [...current, name]; // created in the resolved parent
      throw new Unresolvable(`${show(candidate)} does not exist`);
    }
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) throw new Unresolvable('too many levels of symbolic links (ELOOP)');
      const target = readlink(candidate);
      if (target.startsWith('/')) current = [];
      todo.push(...components(target).reverse());
      continue; // a final link is followed for write too, even dangling
    }
    if (todo.length && !st.isDirectory()) throw new Unresolvable(`${show(candidate)} is not a directory (ENOTDIR)`);
    current.push(name);
    currentIsDir = st.isDirectory();
  }
  if (op === 'write' && currentIsDir) throw new Unresolvable(`${show(join(current))} is a directory`);
  return current;
}

// --- Section 3: the verdict --------------------------------------------------

/** True when `target` is `root` or beneath it, by whole components. */
function within(target, root) {
  return root.length <= target.length && root.every((c, i) => target[i] === c);
}

/** A request string as a binary string of its bytes (see the header). */
function pathBytes(s) {
  try {
    return pathBuffer(s).toString('latin1');
  } catch (e) {
    throw new Unresolvable(e.message);
  }
}

function check(roots, path, op) {
  const { usable, notes } = resolveRoots(roots);
  if (!usable.length) return { allowed: false, reason: ['no usable root', ...notes].join('; ') };
  let target;
  try {
    target = resolve(pathBytes(path), op);
  } catch (e) {
    if (e instanceof Unresolvable) return { allowed: false, reason: `cannot ${op}: ${e.message}` };
    throw e;
  }
  for (const root of usable) {
    if (within(target, root)) return { allowed: true, reason: `${show(join(target))} is beneath ${show(join(root))}` };
  }
  return { allowed: false, reason: `${show(join(target))} is beneath no root` };
}

module.exports = {
  InvalidRoot,
  Unresolvable,
  bytes,
  show,
  utf8Text,
  join,
  parseRootUri,
  resolveRoots,
  resolve,
  within,
  pathBytes,
  check,
  serve,
};

if (require.main === module) serve(check);
