// The ESM face of rootguard-protocol: the very same functions as index.cjs
// (one module instance, whichever way it is loaded).
import protocol from './index.cjs';

export const { serve, answer, pathBuffer } = protocol;
export default protocol;
