// The ESM face is the CommonJS module itself, named exports and default alike.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

import protocol, { answer, pathBuffer, serve } from 'rootguard-protocol';

const require = createRequire(import.meta.url);

test('import and require give the same functions', () => {
  const cjs = require('rootguard-protocol');
  assert.equal(serve, cjs.serve);
  assert.equal(answer, cjs.answer);
  assert.equal(pathBuffer, cjs.pathBuffer);
  assert.equal(protocol, cjs);
});

test('answer works from ESM', async () => {
  const line = '{"id": 3, "roots": ["file:///srv"], "path": "/srv/x", "op": "write"}';
  assert.equal(await answer(line, async () => [true, '/srv/x']), '{"id":3,"allowed":true,"use":"/srv/x"}');
});
