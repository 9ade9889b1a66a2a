// Your server's path check, vetted by rootguard (checker protocol v1).
//
//     npm install --install-links ROOTGUARD/adapters/node    # ROOTGUARD: a clone of rootguard
//     rootguard vet --budget 20 -- node rootguard-checker.mjs
//
// rootguard starts this once and sends it thousands of hostile requests:
// roots as an MCP client sends them, a path a tool call carries, an
// operation. Make isAllowed() call the check your server runs before it
// touches a file.
import { serve } from 'rootguard-protocol';

/**
 * Whether your server lets `op` ('read' or 'write') on `path` go ahead.
 *
 * `roots` is an array of root URIs ('file:///home/u/proj') exactly as the
 * client sent them. Return (or resolve to) true or false, or
 * [true, realPath] when your server operates on a path it rewrote.
 */
// eslint-disable-next-line no-unused-vars
function isAllowed(roots, path, op) {
  return true; // PLACEHOLDER: allows everything, so vet finds escapes; call your check instead
}

serve(isAllowed);
