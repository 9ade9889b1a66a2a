#!/usr/bin/env node
// A sound Windows path-boundary checker speaking rootguard's checker protocol v1.
//
//     rootguard vet --flavor windows -- node examples/checkers/node/windows_sound.js
//
// The same logic as ../python/windows_sound.py, with Node's path.win32
// (which runs on any platform), following docs/semantics.md section 5:
// a root is a file URI naming a drive or a share; the path must be
// absolute; it is normalized in Win32's order (separators, `.` and `..`,
// then the last component's trailing dots and spaces), a verbatim `\\?\`
// path is not, and one holding `.` or `..` is denied; a DOS device name as
// the last component is denied; an NTFS stream belongs to the name before
// its colon; names are compared whole, ignoring case as NTFS does (each
// UTF-16 code unit through its upcase table, ../ntfs-upcase.json, which is
// not toUpperCase: the Kelvin sign, `ß`, `ı`, `ſ` stay as they are). Whatever it cannot be
// sure of (a short name, a name before the last ending in a dot or a space)
// it denies with a reason.
//
// The flawed Windows checkers beside it require() the pieces they keep sound.
'use strict';

const fs = require('fs');
const pathModule = require('path');
const win32 = pathModule.win32;
const { serve } = require('../../../adapters/node');

class Denied extends Error {}

const DEVICES = new Set(['CON', 'PRN', 'AUX', 'NUL', 'CONIN$', 'CONOUT$']);
for (const kind of ['COM', 'LPT']) for (const n of '123456789\u00b9\u00b2\u00b3') DEVICES.add(kind + n);
const REFUSED = /[<>"|?*\x00-\x1f]/;
const SHORT = /^[^~.]{1,6}~[0-9]{1,6}(\.[^.]{0,3})?$/;

/** NTFS's upcase table (../ntfs-upcase.json), as the units it changes. */
const UPCASE = (() => {
  const data = JSON.parse(fs.readFileSync(pathModule.join(__dirname, '../ntfs-upcase.json'), 'utf8'));
  const table = new Map();
  for (const [first, past, amount] of data.runs) for (let u = first; u < past; u++) table.set(u, u + amount);
  for (const [upper, last] of data.pairs) {
    for (let u = upper; u < last; u += 2) table.set(u + 1, (table.get(u + 1) ?? u + 1) - 1);
  }
  for (const [unit, up] of data.singles) table.set(unit, up);
  return table;
})();

/** NTFS's comparison key: each UTF-16 code unit through NTFS's upcase table. */
const upcase = (name) => {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const unit = name.charCodeAt(i);
    out += String.fromCharCode(UPCASE.get(unit) ?? unit);
  }
  return out;
};

/** Whether Win32 reads the component as a DOS device name. */
const isDevice = (name) => DEVICES.has(name.split(/[.:]/, 1)[0].replace(/ +$/, '').toUpperCase());

/** A non-verbatim path, normalized as Win32 does; throws Denied. */
function absolute(p) {
  const unc = /^[\\/]{2}[^\\/]/.test(p);
  if (unc) {
    const parts = p.slice(2).split(/[\\/]/).filter(Boolean);
    if (parts.length < 2) throw new Denied('a UNC path without a server and a share');
  } else if (!/^[A-Za-z]:[\\/]/.test(p)) {
    throw new Denied('not absolute: it depends on a current directory');
  }
  let normal = win32.normalize(p);
  if (!/[\\/]$/.test(p)) {
    const root = win32.parse(normal).root;
    const last = normal.slice(root.length).split('\\').pop();
    if (last) {
      const head = normal.slice(0, normal.length - last.length);
      const stripped = last.replace(/[. ]+$/, '');
      normal = stripped ? head + stripped : head.length > root.length ? head.slice(0, -1) : head;
    }
  }
  return normal;
}

/** The Windows path a root URI names, normalized; throws Denied. */
function rootPath(uri) {
  if (typeof uri !== 'string' || uri.slice(0, 5).toLowerCase() !== 'file:') throw new Denied('not a file URI');
  const rest = uri.slice(5);
  if (/[?#]/.test(rest)) throw new Denied('a query or fragment');
  if (/%(2f|5c|00)/i.test(rest)) throw new Denied('an encoded separator or NUL');
  let p;
  if (rest.startsWith('////')) p = '//' + rest.slice(4);
  else if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const host = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    const tail = slash < 0 ? '' : rest.slice(slash);
    if (host === '' || host.toLowerCase() === 'localhost') p = tail;
    else if (host === '.') throw new Denied('a device server');
    else p = '//' + host + tail;
  } else p = rest;
  try {
    p = decodeURIComponent(p);
  } catch {
    throw new Denied('a bad percent escape');
  }
  if (/^\/[A-Za-z]:/.test(p)) p = p.slice(1);
  return absolute(p);
}

/**
 * The volume and component keys of the file the path names; throws Denied.
 * `refuseDevices` false skips the device-name rule (win32_device.js's bug);
 * `key` is how a name is compared (NTFS's upcase; win32_lowercase.js swaps it).
 */
function location(p, refuseDevices = true, key = upcase) {
  if (p.includes('\0')) throw new Denied('a NUL');
  const verbatim = p.startsWith('\\\\?\\') || p.startsWith('\\??\\');
  let mapsDevices = !verbatim;
  let normal;
  if (verbatim) {
    const rest = p.slice(4);
    const parts = rest.split('\\');
    if (parts.slice(1).some((x) => x === '' || x === '.' || x === '..' || x.includes('/'))) {
      throw new Denied('a verbatim path with `.`, `..`, `/` or an empty name');
    }
    normal = rest.slice(0, 4).toUpperCase() === 'UNC\\' ? '\\\\' + rest.slice(4) : rest;
  } else {
    let q = p;
    if (/^[\\/]{2}[.?][\\/]/.test(q)) {
      const rest = q.slice(4);
      if (/^UNC[\\/]/i.test(rest)) q = '\\\\' + rest.slice(4);
      else if (/^[A-Za-z]:[\\/]/.test(rest)) {
        q = rest;
        mapsDevices = false;
      } else throw new Denied('a device path');
    }
    normal = absolute(q);
  }
  const unc = normal.startsWith('\\\\');
  let drive;
  let tail;
  if (unc) {
    const parts = normal.slice(2).split('\\');
    drive = '\\\\' + parts.slice(0, 2).join('\\');
    tail = parts.slice(2).join('\\');
  } else {
    drive = normal.slice(0, 2);
    tail = normal.slice(2);
  }
  const names = tail.split('\\').filter(Boolean);
  names.forEach((name, i) => {
    if (REFUSED.test(name)) throw new Denied(`${JSON.stringify(name)} holds a character NTFS refuses`);
    if (i < names.length - 1 && /[. ]$/.test(name) && !verbatim) {
      throw new Denied(`${JSON.stringify(name)} ends in a dot or a space before the last name`);
    }
  });
  if (refuseDevices && names.length && mapsDevices && !unc && isDevice(names[names.length - 1])) {
    throw new Denied(`${JSON.stringify(names[names.length - 1])} is a DOS device`);
  }
  // A stream belongs to the name before its colon.
  return { volume: upcase(drive), keys: names.map((n) => key(n.split(':', 1)[0])) };
}

function inside(path, root, same = (a, b) => a === b) {
  if (path.volume !== root.volume || path.keys.length < root.keys.length) return false;
  for (let i = 0; i < root.keys.length; i++) {
    if (!same(path.keys[i], root.keys[i])) {
      if (SHORT.test(path.keys[i]) || SHORT.test(root.keys[i])) {
        throw new Denied(`${path.keys[i]} may be a short name of ${root.keys[i]}, or not`);
      }
      return false;
    }
  }
  return true;
}

/**
 * The check, with `locate` reading the path, `key` making a name's key and
 * `same` comparing two keys (the flawed checkers swap one of them).
 */
function checkWith(locate, key = upcase, same = undefined) {
  return (roots, p, op) => {
    try {
      const target = locate(p);
      for (const uri of roots) {
        let root;
        try {
          root = location(rootPath(uri), true, key);
        } catch (e) {
          if (e instanceof Denied) continue;
          throw e;
        }
        if (inside(target, root, same)) return { allowed: true, reason: `beneath ${uri}` };
      }
      return { allowed: false, reason: 'beneath no root' };
    } catch (e) {
      if (e instanceof Denied) return { allowed: false, reason: e.message };
      throw e;
    }
  };
}

const check = checkWith((p) => location(p));

module.exports = { Denied, upcase, isDevice, absolute, rootPath, location, inside, checkWith, check, serve };

if (require.main === module) serve(check);
