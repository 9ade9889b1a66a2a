#!/usr/bin/env node
// Checker protocol v1 adapter for the path validation of the MCP reference
// filesystem server, npm package @modelcontextprotocol/server-filesystem:
//
//     node adapters/npm/server-filesystem.js PACKAGE_DIR   (or MCP_FS_DIR=PACKAGE_DIR)
//
// PACKAGE_DIR is the installed package (node_modules/@modelcontextprotocol/
// server-filesystem) or an `npm install --prefix DIR
// @modelcontextprotocol/server-filesystem@VERSION` directory. Its
// dependencies must be installed next to it (npm does that).
//
// What a request means to the server:
//
//   roots -> allowed directories
//     * versions with dist/roots-utils.js (2025.8 and later): the MCP roots
//       path, as the server runs it on a roots/list result. First the SDK's
//       schema check, reproduced here (RootSchema: every uri a string that
//       starts with "file://", or the whole result is rejected and the
//       server keeps what it had), then getValidRootDirectories(roots.map(
//       uri => ({ uri }))), imported from the package. The server has no
//       command-line directories here, so a roots list with no valid root
//       leaves it with none (it then denies everything).
//     * versions without it (2025.7.x and older; those servers take
//       directories only on their command line): each root URI becomes a
//       command-line argument through Node's url.fileURLToPath (a URI it
//       throws on is dropped; that conversion is the adapter's, not the
//       server's), then the server's own startup code runs on those
//       arguments: the statements of dist/index.js from
//       "// Store allowed directories" up to "// Security utilities",
//       evaluated in a vm context with process.exit turned into an
//       exception. Where the server would refuse to start (no argument, an
//       argument that is not a directory) every request is denied.
//
//   path -> verdict
//     validatePath(path) of that version: from dist/lib.js where it lives
//     there (2025.8 and later; called with setAllowedDirectories(dirs) first
//     where the module keeps them as state, and with (path, dirs) where it
//     takes them as a parameter), otherwise the function text of
//     normalizePath, expandHome and validatePath cut out of dist/index.js and
//     evaluated in a vm context holding the same imports index.js has (path,
//     fs/promises, os, and isPathWithinAllowedDirectories from
//     dist/path-validation.js where that exists) and the allowed directories.
//     dist/index.js itself is never imported: it starts a server.
//
//     allowed = validatePath resolved; `use` = the path it returned (every
//     tool of the server operates on that path), as Node's fs will name it:
//     a byte of the request that is not UTF-8 arrives as a lone surrogate
//     (docs/checker-protocol.md), and fs encodes a lone surrogate as U+FFFD,
//     so the file the server touches is the U+FFFD name, not the byte's. A
//     throw is a denial, its
//     message the reason. `op` does not matter to validatePath; see
//     docs/findings.md for where the tools' own write code (an O_EXCL create,
//     then a rename) changes what a validation hole can do.
'use strict';

const fs = require('fs');
const fsp = require('fs/promises');
const os = require('os');
const path = require('path');
const url = require('url');
const vm = require('vm');
const { serve, packageDir } = require('./protocol.js');

const NAME = '@modelcontextprotocol/server-filesystem';
const { dir, version } = packageDir(NAME, 'MCP_FS_DIR');
const dist = path.join(dir, 'dist');

/** Thrown by the sandbox's process.exit: the server would have exited. */
class ServerExit extends Error {}

const sandboxConsole = {
  error: (...a) => process.stderr.write(a.map(String).join(' ') + '\n'),
  log: (...a) => process.stderr.write(a.map(String).join(' ') + '\n'),
  warn: (...a) => process.stderr.write(a.map(String).join(' ') + '\n'),
};
const sandboxProcess = {
  cwd: () => process.cwd(),
  platform: process.platform,
  env: process.env,
  argv: process.argv,
  exit: (code) => {
    throw new ServerExit(`the server would exit with status ${code}`);
  },
};

/** The source text of top-level `function NAME` (or `async function NAME`) in `source`. */
function functionText(source, name, file) {
  const m = new RegExp(`^(?:export )?(?:async )?function ${name}\\s*\\(`, 'm').exec(source);
  if (!m) throw new Error(`${file} has no top-level function ${name}`);
  const open = source.indexOf('{', m.index + m[0].length);
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) return source.slice(m.index, i + 1).replace(/^export /, '');
  }
  throw new Error(`${file}: function ${name} does not end`);
}

const exists = (file) => fs.existsSync(path.join(dist, file));
const load = (file) => import(url.pathToFileURL(path.join(dist, file)).href);

/** The validation of this version: { mode, validate(path, dirs), rootsToDirs(roots) }. */
async function setUp() {
  const indexFile = path.join(dist, 'index.js');
  const indexSource = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : '';
  const lib = exists('lib.js') ? await load('lib.js') : null;
  const pathValidation = exists('path-validation.js') ? await load('path-validation.js') : null;
  const rootsUtils = exists('roots-utils.js') ? await load('roots-utils.js') : null;

  // The sandbox for code cut out of index.js: the module scope index.js has.
  const context = vm.createContext({
    path,
    fs: fsp,
    os,
    console: sandboxConsole,
    process: sandboxProcess,
    isPathWithinAllowedDirectories: pathValidation && pathValidation.isPathWithinAllowedDirectories,
    allowedDirectories: [],
  });
  let sandboxed = false;
  const runInSandbox = (code) => vm.runInContext(code, context, { filename: indexFile });
  const ensureHelpers = () => {
    if (sandboxed) return;
    for (const name of ['normalizePath', 'expandHome']) {
      runInSandbox(functionText(indexSource, name, indexFile));
    }
    sandboxed = true;
  };

  let validate;
  let validateFrom;
  if (lib && typeof lib.validatePath === 'function') {
    validateFrom = 'dist/lib.js validatePath';
    validate = async (requested, dirs) => {
      if (typeof lib.setAllowedDirectories === 'function') lib.setAllowedDirectories(dirs);
      return lib.validatePath(requested, dirs);
    };
  } else {
    ensureHelpers();
    runInSandbox(functionText(indexSource, 'validatePath', indexFile));
    validateFrom = 'validatePath cut out of dist/index.js (vm)';
    validate = async (requested, dirs) => {
      context.allowedDirectories = dirs;
      return context.validatePath(requested);
    };
  }

  let rootsToDirs;
  let rootsFrom;
  if (rootsUtils && typeof rootsUtils.getValidRootDirectories === 'function') {
    rootsFrom = "the SDK's roots/list schema, then dist/roots-utils.js getValidRootDirectories";
    rootsToDirs = async (roots) => {
      // The MCP SDK validates a roots/list result before the server sees it:
      // RootSchema is { uri: z.string().startsWith('file://') }, so one root
      // that fails rejects the whole result, listRoots() throws, and the
      // server keeps the directories it had: none here.
      const bad = roots.find((uri) => typeof uri !== 'string' || !uri.startsWith('file://'));
      if (bad !== undefined) {
        return { dirs: null, why: `the SDK rejects the roots/list result (root ${JSON.stringify(bad)} does not start with file://), so the server has no allowed directory` };
      }
      return { dirs: await rootsUtils.getValidRootDirectories(roots.map((uri) => ({ uri }))) };
    };
  } else {
    const start = indexSource.indexOf('// Store allowed directories');
    const end = indexSource.indexOf('// Security utilities');
    if (start < 0 || end < start) {
      throw new Error(`${indexFile}: no roots module and no startup block between "// Store allowed directories" and "// Security utilities"; this layout is not supported`);
    }
    ensureHelpers();
    const startup = runInSandbox(
      `(async function startup(args) {\n${indexSource.slice(start, end)}\nreturn allowedDirectories;\n})`,
    );
    rootsFrom = 'fileURLToPath, then the startup block of dist/index.js (vm)';
    rootsToDirs = async (roots) => {
      const args = [];
      for (const uri of roots) {
        try {
          args.push(url.fileURLToPath(uri));
        } catch {
          // not a file: URL Node accepts: no command-line argument
        }
      }
      if (args.length === 0) return { dirs: null, why: 'no usable root: the server would not start (no directory argument)' };
      try {
        return { dirs: Array.from(await startup(args)) };
      } catch (e) {
        if (e instanceof ServerExit || (e && e.constructor && e.constructor.name === 'ServerExit')) {
          return { dirs: null, why: `the server would not start with ${JSON.stringify(args)}: ${e.message}` };
        }
        throw e;
      }
    };
  }
  return { validate, rootsToDirs, describe: `${validateFrom}; roots by ${rootsFrom}` };
}

(async () => {
  const { validate, rootsToDirs, describe } = await setUp();
  process.stderr.write(`${NAME} ${version} from ${dir}: ${describe}\n`);
  serve(async ({ roots, path: requested }) => {
    const { dirs, why } = await rootsToDirs(roots);
    if (dirs === null) return { allowed: false, reason: why };
    try {
      const returned = await validate(requested, dirs);
      // What fs opens: lone surrogates become U+FFFD in its UTF-8.
      const use = Buffer.from(returned, 'utf8').toString('utf8');
      return { allowed: true, use, reason: `validatePath returned ${returned} (allowed: ${dirs.join(', ')})` };
    } catch (e) {
      return { allowed: false, reason: `validatePath threw: ${e && e.message ? e.message : String(e)}` };
    }
  });
})().catch((e) => {
  process.stderr.write(`server-filesystem adapter: cannot set up ${NAME} ${version}: ${e && e.stack}\n`);
  process.exit(2);
});
