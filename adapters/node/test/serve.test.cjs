// serve(): the long-lived process the harness talks to, as a real child process.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');

const ADAPTER = path.join(__dirname, '..', 'index.cjs');

/** A child running `body` after `const { serve } = require(the adapter)`. */
function checker(body) {
  const child = spawn(process.execPath, ['-e', `const { serve } = require(${JSON.stringify(ADAPTER)});\n${body}`]);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (out.stdout += d));
  child.stderr.on('data', (d) => (out.stderr += d));
  out.exit = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out };
}

const line = (id, op = 'read') => JSON.stringify({ id, roots: ['file:///srv'], path: '/srv/a', op }) + '\n';

test('answers every line in order, the async ones too, and exits 0 when stdin closes', async () => {
  const { child, out } = checker(
    "serve(async (roots, p, op) => { await new Promise((r) => setTimeout(r, Math.random() * 3)); return op === 'read'; });" +
      'setInterval(() => {}, 1000);', // left running: serve must exit all the same
  );
  let input = '';
  for (let i = 1; i <= 200; i++) input += line(i, i % 2 ? 'read' : 'write');
  child.stdin.end(input + '\n  \n');
  assert.equal(await out.exit, 0, out.stderr);
  const answers = out.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(answers.map((a) => a.id), Array.from({ length: 200 }, (_, i) => i + 1));
  assert.deepEqual(answers.map((a) => a.allowed), answers.map((a) => a.id % 2 === 1));
  assert.equal(out.stderr, '');
});

test('answers a line before the next one comes, and a last line without "\\n"', async () => {
  const { child, out } = checker('serve(() => true);');
  child.stdin.write(line(1));
  await new Promise((resolve) => child.stdout.once('data', resolve));
  assert.deepEqual(JSON.parse(out.stdout), { id: 1, allowed: true });
  child.stdin.end(line(2).trimEnd());
  assert.equal(await out.exit, 0);
  assert.deepEqual(JSON.parse(out.stdout.trim().split('\n')[1]), { id: 2, allowed: true });
});

test('a closed stdout ends it quietly', async () => {
  const { child, out } = checker('serve(() => true);');
  child.stdout.destroy();
  child.stdin.on('error', () => {}); // it may be gone already, which is what is asked
  child.stdin.end(line(1).repeat(10000));
  assert.equal(await out.exit, 0);
  assert.equal(out.stderr, '');
});

test('a throwing check is answered, its stack told once', async () => {
  const { child, out } = checker("serve((roots, p) => { throw new Error('no ' + p); });");
  child.stdin.end(line(1) + line(2));
  assert.equal(await out.exit, 0);
  const answers = out.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(answers, [
    { id: 1, allowed: false, reason: 'the check threw Error: no /srv/a' },
    { id: 2, allowed: false, reason: 'the check threw Error: no /srv/a' },
  ]);
  assert.equal(out.stderr.match(/\n\s+at /g).length > 0, true, out.stderr);
  assert.equal(out.stderr.split('\n').filter((l) => l.startsWith('rootguard-protocol:')).length, 2);
});

test('serve refuses what is not a function, at once', () => {
  assert.throws(() => require(ADAPTER).serve({}), /check is object, not a function/);
});
