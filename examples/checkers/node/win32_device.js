#!/usr/bin/env node
// FLAWED on purpose. Class: DOS device names.
//
// The bug: everything is as in windows_sound.js (path.win32.normalize in
// Win32's order, streams, case, whole components), except that no component
// is checked against the DOS device names. Win32 opens `CON`, `NUL`,
// `COM1`, `nul.txt` or `aux ` as a device in any directory, so
// `C:\proj\CON` is granted as a file beneath the root while a read of it
// waits on the console and a write to `C:\proj\PRN` prints.
//
// Imitates: servers that validate paths with path.win32 alone (normalize,
// relative, isAbsolute), which knows nothing of devices.
//
// Escapes with: roots ["file:///C:/proj"], path "C:\proj\CON", op read (flavor windows).
'use strict';

const sound = require('./windows_sound.js');

// BUG: no device-name rule.
const check = sound.checkWith((p) => sound.location(p, false));

if (require.main === module) sound.serve(check);
