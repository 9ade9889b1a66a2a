#!/usr/bin/env node
// FLAWED on purpose. Class: names folded more widely than NTFS folds them.
//
// The bug: everything is as in windows_sound.js (Win32's normalization,
// devices, streams, whole components), except that names are compared by
// `toLowerCase()`, as most case-insensitive code does. NTFS compares each
// UTF-16 code unit through its upcase table, which leaves the Kelvin sign
// `K` (U+212A), `İ`, the Ohm and Ångström signs, titlecase digraphs and
// every letter cased since Unicode 5.0 (Cherokee, Latin Extended-D) as
// they are: `toLowerCase()` turns `C:\proKj` (with the Kelvin sign, a
// directory of its own) into the root `C:\prokj`, and grants it.
//
// Imitates: `a.toLowerCase() === b.toLowerCase()` or a lower-cased
// `startsWith`, the usual "Windows is case-insensitive" fix.
//
// Escapes with: roots ["file:///C:/prokj"], path "C:\pro\u212aj\secret.txt",
// op read (flavor windows).
'use strict';

const sound = require('./windows_sound.js');

// BUG: JavaScript's lower case, not NTFS's upcase table.
const lower = (name) => name.toLowerCase();
const check = sound.checkWith((p) => sound.location(p, true, lower), lower);

if (require.main === module) sound.serve(check);
