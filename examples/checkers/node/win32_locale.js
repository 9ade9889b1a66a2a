#!/usr/bin/env node
// FLAWED on purpose. Class: names folded more widely than NTFS folds them.
//
// The bug: everything is as in windows_sound.js, except that two names
// are taken as one when `localeCompare` finds them equal at accent
// sensitivity, which ignores case and width and reads compatibility
// characters as the letters they stand for: `ｐroj` (fullwidth), `proj²`
// beside `proj2`, `pro\u212aj` (the Kelvin sign) beside `prokj`. NTFS keeps all of
// these apart, so the checker grants a sibling of the root.
//
// Imitates: `a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0`,
// the "locale-aware case-insensitive compare" of many JavaScript tools.
//
// Escapes with: roots ["file:///C:/pro2j"], path "C:\pro\u00b2j\secret.txt",
// op read (flavor windows).
'use strict';

const sound = require('./windows_sound.js');

// BUG: collation equality, not NTFS's upcase table.
const same = (a, b) => a === b || a.localeCompare(b, 'en', { sensitivity: 'accent' }) === 0;
const check = sound.checkWith((p) => sound.location(p), undefined, same);

if (require.main === module) sound.serve(check);
