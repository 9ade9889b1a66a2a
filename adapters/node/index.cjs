// rootguard's checker protocol v1 for a path check written for Node
// (docs/checker-protocol.md in rootguard). Three lines make a checker that
// `rootguard vet` can judge:
//
//     const { serve } = require('rootguard-protocol');
//     const { isAllowed } = require('./my-server/paths.js'); // (roots, path, op) => boolean
//     serve(isAllowed);
//
// The check is called as check(roots, path, op): roots is an array of root
// URI strings exactly as an MCP client sent them, path a string, op 'read' or
// 'write'. It returns, or resolves to, a boolean; [allowed, usePath] (usePath:
// the path the server really operates on when it rewrites it, a string or a
// Buffer); or {allowed, reason?, use?}, the protocol's own fields. Requests
// are answered one at a time, in order.
//
// Paths are bytes on Linux, and a request line may hold invalid UTF-8: such
// a byte inside a JSON string reaches the check as a lone surrogate
// U+DC80..U+DCFF (Python's surrogateescape), and pathBuffer(path) gives the
// bytes back.
//
// Whatever goes wrong is answered `"allowed": false` with a reason, never a
// crash: a line that is not a request, a check that throws or rejects (its
// stack goes to stderr), a check that returns anything else.
'use strict';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const FIELDS = new Set(['allowed', 'reason', 'use']);
const SHAPES = 'return true/false, [allowed, usePath] or {allowed, reason?, use?}';
// In a /u regular expression this matches only a surrogate that is not half of a pair.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** The check returned something the protocol cannot carry. */
class BadVerdict extends Error {}

/**
 * The bytes a request's path stands for: its UTF-8, except that a lone
 * surrogate U+DC80..U+DCFF stands for the byte 0x80..0xFF.
 *
 * @param {string} path
 * @returns {Buffer}
 * @throws {TypeError} for a lone surrogate that stands for no byte
 */
function pathBuffer(path) {
  if (!/[\ud800-\udfff]/.test(path)) return Buffer.from(path, 'utf8');
  const parts = [];
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < path.length) {
      const d = path.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        parts.push(Buffer.from(path.slice(i, i + 2), 'utf8'));
        i++;
        continue;
      }
    }
    if (c >= 0xdc80 && c <= 0xdcff) parts.push(Buffer.of(c & 0xff));
    else if (c >= 0xd800 && c <= 0xdfff) {
      throw new TypeError(`the path holds a lone surrogate U+${c.toString(16).toUpperCase()}, which stands for no byte`);
    } else parts.push(Buffer.from(path[i], 'utf8'));
  }
  return Buffer.concat(parts);
}

/** `text` as valid Unicode: a lone surrogate becomes the text \udcXX. */
const wellFormed = (text) =>
  text.replace(/[\ud800-\udfff]/gu, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));

/** The `use` field for a path the check returned, exactly. */
function usePath(use) {
  if (typeof use === 'string') {
    if (LONE_SURROGATE.test(use)) throw new BadVerdict(`usePath ${JSON.stringify(wellFormed(use))} holds a lone surrogate`);
    return use;
  }
  if (use instanceof Uint8Array) {
    try {
      return UTF8.decode(use);
    } catch {
      // The protocol carries JSON text: a rewritten path it cannot spell would be judged wrongly.
      throw new BadVerdict(`usePath ${Buffer.from(use).toString('hex')} (hex) is not UTF-8, which the protocol cannot carry`);
    }
  }
  throw new BadVerdict(`usePath is ${typeof use}, not a string or a Buffer`);
}

/** The response fields for what the check returned. */
function verdict(result) {
  if (typeof result === 'boolean') return { allowed: result };
  if (Array.isArray(result) && result.length === 2 && typeof result[0] === 'boolean') {
    const [allowed, use] = result;
    return allowed && use != null ? { allowed, use: usePath(use) } : { allowed };
  }
  if (result !== null && typeof result === 'object' && !Array.isArray(result) && typeof result.allowed === 'boolean') {
    const unknown = Object.keys(result).filter((k) => !FIELDS.has(k));
    if (unknown.length) throw new BadVerdict(`the object holds ${unknown.join(', ')}; its keys are allowed, reason and use`);
    const fields = { allowed: result.allowed };
    if (result.reason != null) {
      if (typeof result.reason !== 'string') throw new BadVerdict(`reason is ${typeof result.reason}, not a string`);
      fields.reason = wellFormed(result.reason);
    }
    if (fields.allowed && result.use != null) fields.use = usePath(result.use);
    return fields;
  }
  let shown;
  try {
    shown = JSON.stringify(result) ?? String(result);
  } catch {
    shown = String(result);
  }
  throw new BadVerdict(`the check returned ${wellFormed(shown).slice(0, 200)}; ${SHAPES}`);
}

/** What makes `request` malformed, or null. */
function problem({ id, roots, path, op }) {
  if (!Number.isInteger(id)) return 'id is not an integer';
  if (!Array.isArray(roots)) return 'roots is not an array';
  const bad = roots.findIndex((r) => typeof r !== 'string');
  if (bad >= 0) return `roots[${bad}] is not a string`;
  if (typeof path !== 'string') return 'path is not a string';
  if (op !== 'read' && op !== 'write') return 'op is neither read nor write';
  return null;
}

/** Decodes one line; a raw invalid UTF-8 byte inside a JSON string becomes \udcXX. */
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

/** Tells stderr why a check failed: the first stack whole, then a line each. */
function teller(stream) {
  let told = 0;
  return (line, stack) => {
    told++;
    try {
      stream.write(`rootguard-protocol: ${stack && told === 1 ? stack : line}\n`);
    } catch {
      // stderr is gone: the answer still says why
    }
  };
}

async function ask(check, { roots, path, op }, tell) {
  let result;
  try {
    result = await check(roots, path, op);
  } catch (e) {
    const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    const reason = wellFormed(`the check threw ${what}`);
    tell(reason, e instanceof Error && e.stack ? `the check threw: ${wellFormed(e.stack)}` : '');
    return { allowed: false, reason };
  }
  try {
    return verdict(result);
  } catch (e) {
    if (!(e instanceof BadVerdict)) throw e;
    tell(e.message);
    return { allowed: false, reason: e.message };
  }
}

/** answerWith(), and for a bug of this file a denial rather than a rejection. */
async function answerSafely(line, check, tell) {
  try {
    return await answerWith(line, check, tell);
  } catch (e) {
    tell(`internal error: ${e && e.message}`, e && e.stack);
    return JSON.stringify({ id: null, allowed: false, reason: wellFormed(`rootguard-protocol failed: ${e && e.message}`) });
  }
}

async function answerWith(line, check, tell) {
  const buf = typeof line === 'string' ? Buffer.from(line, 'utf8') : line;
  const text = decodeLine(buf);
  let request;
  try {
    if (text === null) throw new Error('the line is not UTF-8');
    request = JSON.parse(text);
  } catch (e) {
    return JSON.stringify({ id: null, allowed: false, reason: `not a JSON request: ${e.message}` });
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return JSON.stringify({ id: null, allowed: false, reason: 'request is not a JSON object' });
  }
  const id = Number.isInteger(request.id) ? request.id : null;
  const wrong = problem(request);
  const fields = wrong ? { allowed: false, reason: `bad request: ${wrong}` } : await ask(check, request, tell);
  if (id !== null && !Number.isSafeInteger(id)) {
    const raw = rawId(text);
    if (raw !== null) return `{"id":${raw},` + JSON.stringify(fields).slice(1);
  }
  return JSON.stringify({ id, ...fields });
}

/**
 * The response line (JSON, without its "\n") to one request line; never rejects.
 *
 * @param {Buffer|string} line
 * @param {(roots: string[], path: string, op: 'read'|'write') => any} check
 * @param {{stderr?: {write(text: string): any}}} [options] where a failing check is described
 * @returns {Promise<string>}
 */
function answer(line, check, { stderr = process.stderr } = {}) {
  return answerSafely(line, check, teller(stderr));
}

/**
 * Answers requests from stdin with `check` until stdin closes, then exits 0
 * (as the protocol asks, whatever else the check left running).
 *
 * @param {(roots: string[], path: string, op: 'read'|'write') => any} check
 */
function serve(check) {
  if (typeof check !== 'function') throw new TypeError(`serve(check): check is ${typeof check}, not a function`);
  const tell = teller(process.stderr);
  const lines = [];
  let parts = []; // the pieces of a line not yet ended
  let busy = false;
  let ended = false;
  process.stdout.on('error', () => process.exit(0)); // the reader is gone (EPIPE)

  const finish = () => {
    if (process.stdout.writableLength === 0) process.exit(0);
    process.stdout.once('drain', () => process.exit(0));
  };
  const pump = async () => {
    if (busy) return;
    busy = true;
    while (lines.length) {
      const line = lines.shift();
      if (line.toString('latin1').trim() === '') continue;
      process.stdout.write((await answerSafely(line, check, tell)) + '\n');
    }
    busy = false;
    if (ended) finish();
  };
  process.stdin.on('data', (chunk) => {
    let start = 0;
    let nl;
    while ((nl = chunk.indexOf(10, start)) >= 0) {
      const piece = chunk.subarray(start, nl);
      lines.push(parts.length ? Buffer.concat([...parts, piece]) : piece);
      parts = [];
      start = nl + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
    pump();
  });
  process.stdin.on('end', () => {
    if (parts.length) lines.push(Buffer.concat(parts));
    parts = [];
    ended = true;
    pump();
  });
}

module.exports = { serve, answer, pathBuffer };
