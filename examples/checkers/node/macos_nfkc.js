#!/usr/bin/env node
// FLAWED on purpose. Class: names folded more widely than APFS folds them.
//
// The bug: everything is as in macos_sound.js, except that the path is
// first normalized with `normalize('NFKC')`. APFS folds canonical
// equivalents and case, never compatibility forms: `ｐroj` (fullwidth),
// `proj²` and `proj2`, `‥` and `..` are other names. So
// `/Users/me/other/‥/proj/secret.txt`, inside a directory named `‥`, is
// judged as `/Users/me/proj/secret.txt`.
//
// Imitates: `p.normalize('NFKC')` before a check, in code that wants
// look-alike names to compare equal.
//
// Escapes with: roots ["file:///Users/me/pro2j"], path "/Users/me/pro\u00b2j/secret.txt",
// op read (flavor macos).
'use strict';

const sound = require('./macos_sound.js');

// BUG: compatibility normalization, which APFS does not do.
const check = sound.checkWith((path) => path.normalize('NFKC'));

if (require.main === module) sound.serve(check);
