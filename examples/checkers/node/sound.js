#!/usr/bin/env node
// A sound path-boundary checker speaking rootguard's checker protocol v1.
//
//     node examples/checkers/node/sound.js
//
// The same logic as ../python/sound.py, for Node 20 without any npm package:
// strict root URIs (semantics.md section 1), a component-by-component walk
// with lstat/readlink (section 2), containment by whole components
// (section 3). Whatever cannot happen or cannot be understood is denied.
//
// Paths are bytes on Linux. Inside this file a path is a "binary string":
// one char per byte (latin1), turned into a Buffer for every fs call, so
// non-UTF-8 names survive readlink and %HH roots. Request strings are
// encoded as UTF-8, except that lone surrogates U+DC80..U+DCFF stand for the
// raw bytes 0x80..0xFF (Python's surrogateescape), and raw invalid UTF-8
// bytes inside a JSON string are read the same way.
//
// The other Node example checkers require() the pieces they keep sound.
'use strict';

const fs = require('fs');

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
  if (!/[\ud800-\udfff]/.test(s)) return Buffer.from(s, 'utf8').toString('latin1');
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += Buffer.from(s.slice(i, i + 2), 'utf8').toString('latin1');
        i++;
        continue;
      }
    }
    if (c >= 0xdc80 && c <= 0xdcff) out += String.fromCharCode(c & 0xff);
    else if (c >= 0xd800 && c <= 0xdfff) throw new Unresolvable('path holds a lone surrogate');
    else out += Buffer.from(s[i], 'utf8').toString('latin1');
  }
  return out;
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

// --- The protocol ------------------------------------------------------------

/** Decode one line; raw invalid UTF-8 bytes inside JSON strings become \udcXX. */
function decodeLine(buf) {
  try {
    return UTF8.decode(buf);
  } catch {
    // fall through to the lenient, byte-by-byte reading
  }
  let out = '';
  let inString = false;
  let escaped = false;
  let i = 0;
  while (i < buf.length) {
    const n = utf8Length(buf, i);
    if (n === 0) {
      if (!inString || escaped) return null; // not inside a string: cannot be JSON
      out += '\\udc' + buf[i].toString(16).padStart(2, '0');
      i++;
      continue;
    }
    const ch = buf.toString('utf8', i, i + n);
    if (escaped) escaped = false;
    else if (inString && ch === '\\') escaped = true;
    else if (ch === '"') inString = !inString;
    out += ch;
    i += n;
  }
  return out;
}

/** The length of the valid UTF-8 sequence at buf[i], or 0 if it is not one. */
function utf8Length(buf, i) {
  const b = buf[i];
  const cont = (k, lo = 0x80, hi = 0xbf) => i + k < buf.length && buf[i + k] >= lo && buf[i + k] <= hi;
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return cont(1) ? 2 : 0;
  if (b === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/**
 * The raw text of the top-level "id" member of a JSON object, so that an id
 * beyond 2^53 is echoed exactly (JSON.parse would round it).
 */
function rawId(text) {
  let depth = 0;
  let found = null;
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const token = text.slice(i, j + 1);
      i = j + 1;
      if (depth !== 1) continue;
      const after = /^\s*:\s*(-?\d+)/.exec(text.slice(i, i + 64));
      if (after && JSON.parse(token) === 'id') found = after[1]; // the last one wins, as in JSON.parse
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
  }
  return found;
}

/** The response line (without "\n") to one request line; never throws. */
function answer(buf, checkFn) {
  const reply = (id, verdict) => {
    if (typeof id === 'number' && !Number.isSafeInteger(id) && Number.isInteger(id) && text !== null) {
      const raw = rawId(text);
      if (raw !== null) return `{"id":${raw},` + JSON.stringify(verdict).slice(1);
    }
    return JSON.stringify({ id: id === undefined ? null : id, ...verdict });
  };
  const text = decodeLine(buf);
  let request;
  try {
    if (text === null) throw new Error('line is not UTF-8');
    request = JSON.parse(text);
  } catch (e) {
    return JSON.stringify({ id: null, allowed: false, reason: `not a JSON request: ${e.message}` });
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return JSON.stringify({ id: null, allowed: false, reason: 'request is not a JSON object' });
  }
  const { id, roots, path, op } = request;
  let problem = null;
  if (!Number.isInteger(id)) problem = 'id is not an integer';
  else if (!Array.isArray(roots)) problem = 'roots is not an array';
  else if (typeof path !== 'string') problem = 'path is not a string';
  else if (op !== 'read' && op !== 'write') problem = 'op is neither read nor write';
  if (problem) return reply(id, { allowed: false, reason: `bad request: ${problem}` });
  let verdict;
  try {
    verdict = checkFn(roots, path, op);
  } catch (e) {
    // a checker must answer, never crash
    verdict = { allowed: false, reason: `internal error: ${e && e.message}` };
  }
  return reply(id, verdict);
}

/** Answer requests from stdin until it closes. */
function serve(checkFn = check) {
  let parts = []; // the pieces of a line not yet ended
  const write = (line) => {
    try {
      fs.writeSync(1, line + '\n');
    } catch (e) {
      if (e.code === 'EAGAIN') return write(line); // a non-blocking pipe that is full
      process.exit(0); // the reader is gone
    }
  };
  const handle = (buf) => {
    if (buf.toString('latin1').trim() === '') return;
    write(answer(buf, checkFn));
  };
  process.stdin.on('data', (chunk) => {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(10, start)) >= 0) {
      const piece = chunk.subarray(start, nl);
      handle(parts.length ? Buffer.concat([...parts, piece]) : piece);
      parts = [];
      start = nl + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  process.stdin.on('end', () => {
    if (parts.length) handle(Buffer.concat(parts));
    process.exit(0);
  });
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

if (require.main === module) serve();
