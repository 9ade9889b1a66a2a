#!/usr/bin/env node
// FLAWED on purpose. Class: NTFS alternate data streams.
//
// The bug: to judge "the file a stream belongs to", the checker cuts the
// path at its first `:` past the drive, and only then normalizes it and
// checks it as windows_sound.js does. A stream belongs to the name just
// before its colon, and Win32 removes `..` first: `C:\proj::$INDEX_ALLOCATION\..\secret.txt`
// is `C:\secret.txt`, but the checker judges `C:\proj`, inside the root.
//
// Imitates: `p.split(':')` stream stripping in servers that want
// `notes.txt:hidden` to count as `notes.txt`, done on the raw argument.
//
// Escapes with: roots ["file:///C:/proj"], path "C:\proj::$INDEX_ALLOCATION\..\secret.txt",
// op read (flavor windows).
'use strict';

const sound = require('./windows_sound.js');

function locate(p) {
  const drive = /^(?:[\\/]{2}[.?][\\/]|\\\?\?\\)?[A-Za-z]:/.exec(p);
  const colon = p.indexOf(':', drive ? drive[0].length : 0);
  // BUG: the stream suffix is cut off the raw text, with whatever follows it.
  return sound.location(colon >= 0 ? p.slice(0, colon) : p);
}

const check = sound.checkWith(locate);

if (require.main === module) sound.serve(check);
