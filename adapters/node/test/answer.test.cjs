// answer(): one request line in, one response line out, whatever the line or the check does.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { answer, pathBuffer } = require('..');

const request = (fields = {}) =>
  JSON.stringify({ id: 7, roots: ['file:///srv'], path: '/srv/a.txt', op: 'read', ...fields });

/** A stderr that keeps what it is told. */
function sink() {
  const told = [];
  return { told, write: (text) => told.push(text) };
}

async function ask(line, check, stderr = sink()) {
  return JSON.parse(await answer(line, check, { stderr }));
}

test('the check gets roots, path and op', async () => {
  const seen = [];
  const got = await ask(request({ roots: ['file:///a', 'file:///b'], path: '/a/x', op: 'write' }), (...args) => {
    seen.push(args);
    return true;
  });
  assert.deepEqual(seen, [[['file:///a', 'file:///b'], '/a/x', 'write']]);
  assert.deepEqual(got, { id: 7, allowed: true });
});

test('invalid UTF-8 reaches the check as lone surrogates, and pathBuffer gives the bytes back', async () => {
  const line = Buffer.concat([Buffer.from('{"id": 1, "roots": [], "path": "/srv/'), Buffer.of(0xff), Buffer.from('", "op": "read"}')]);
  let path;
  await ask(line, (roots, p) => {
    path = p;
    return false;
  });
  assert.equal(path, '/srv/\udcff');
  assert.deepEqual(pathBuffer(path), Buffer.concat([Buffer.from('/srv/'), Buffer.of(0xff)]));
  assert.deepEqual(pathBuffer('/é/😀'), Buffer.from('/é/😀', 'utf8'));
  assert.throws(() => pathBuffer('/\ud800'), TypeError);
});

test('an id beyond 2^53 is echoed exactly', async () => {
  const line = '{"id": 123456789012345678901234567890, "roots": [], "path": "/", "op": "read"}';
  assert.equal(await answer(line, () => false), '{"id":123456789012345678901234567890,"allowed":false}');
});

test('a boolean, a pair with a use path, an object of the protocol fields, a promise of any', async () => {
  assert.deepEqual(await ask(request(), () => false), { id: 7, allowed: false });
  assert.deepEqual(await ask(request(), () => [true, '/srv/real']), { id: 7, allowed: true, use: '/srv/real' });
  assert.deepEqual(await ask(request(), () => [true, Buffer.from('/srv/b')]), { id: 7, allowed: true, use: '/srv/b' });
  assert.deepEqual(await ask(request(), () => [true, null]), { id: 7, allowed: true });
  assert.deepEqual(await ask(request(), () => [false, '/srv/real']), { id: 7, allowed: false });
  assert.deepEqual(await ask(request(), () => ({ allowed: true, reason: 'fine', use: '/srv/c' })), {
    id: 7,
    allowed: true,
    reason: 'fine',
    use: '/srv/c',
  });
  assert.deepEqual(await ask(request(), async () => [true, '/srv/d']), { id: 7, allowed: true, use: '/srv/d' });
});

test('a reason holding lone surrogates stays valid Unicode', async () => {
  const text = await answer(request({ path: '/\udcff' }), (roots, path) => ({ allowed: false, reason: `${path} is out` }));
  assert.equal(JSON.parse(text).reason, '/\\udcff is out');
  assert.doesNotMatch(JSON.parse(text).reason, /[\ud800-\udfff]/u); // nothing a strict reader refuses
});

test('anything else is a denial that says why, here and on stderr', async () => {
  for (const [result, said] of [
    [undefined, 'returned undefined'],
    [null, 'returned null'],
    [1, 'returned 1'],
    ['/srv/a.txt', 'returned "/srv/a.txt"'],
    [[true], 'returned [true]'],
    [{ allowed: 'yes' }, 'returned {"allowed":"yes"}'],
    [{ allowed: true, used: '/x' }, 'holds used'],
    [{ allowed: false, reason: 3 }, 'reason is number'],
    [[true, 3], 'usePath is number'],
    [[true, Buffer.of(0x2f, 0xff)], 'not UTF-8'],
    [[true, '/srv/\ud800'], 'lone surrogate'],
  ]) {
    const stderr = sink();
    const got = await ask(request(), () => result, stderr);
    assert.equal(got.allowed, false, String(result));
    assert.match(got.reason, new RegExp(said.replace(/[[\]{}()]/g, '\\$&')));
    assert.match(stderr.told.join(''), new RegExp(said.replace(/[[\]{}()]/g, '\\$&')));
  }
});

test('a check that throws or rejects is a denial, its stack on stderr', async () => {
  const stderr = sink();
  const got = await ask(request(), () => {
    throw new RangeError('boom');
  }, stderr);
  assert.deepEqual(got, { id: 7, allowed: false, reason: 'the check threw RangeError: boom' });
  assert.match(stderr.told[0], /RangeError: boom\n\s+at /);
  assert.deepEqual(await ask(request(), async () => Promise.reject('plain')), {
    id: 7,
    allowed: false,
    reason: 'the check threw plain',
  });
});

test('malformed requests are denied with what is wrong, and the check is never called', async () => {
  const never = () => assert.fail('the check was called');
  for (const [line, id, said] of [
    ['not json', null, 'not a JSON request'],
    ['[1, 2]', null, 'not a JSON object'],
    ['null', null, 'not a JSON object'],
    ['{"id": 1', null, 'not a JSON request'],
    ['['.repeat(20000), null, 'not a JSON request'],
    ['{"id": "five", "roots": [], "path": "/", "op": "read"}', null, 'id is not an integer'],
    ['{"id": 1.5, "roots": [], "path": "/", "op": "read"}', null, 'id is not an integer'],
    ['{"id": 1}', 1, 'roots is not an array'],
    ['{"id": 2, "roots": "file:///", "path": "/", "op": "read"}', 2, 'roots is not an array'],
    ['{"id": 3, "roots": ["file:///", null], "path": "/", "op": "read"}', 3, 'roots\\[1\\] is not a string'],
    ['{"id": 4, "roots": [], "path": 7, "op": "read"}', 4, 'path is not a string'],
    ['{"id": 5, "roots": [], "path": "/", "op": "delete"}', 5, 'op is neither read nor write'],
    [Buffer.concat([Buffer.from('{"id": 6, "op": '), Buffer.of(0xff), Buffer.from('}')]), null, 'not UTF-8'],
  ]) {
    const got = await ask(line, never);
    assert.equal(got.id, id, String(line).slice(0, 60));
    assert.equal(got.allowed, false);
    assert.match(got.reason, new RegExp(said));
  }
});
