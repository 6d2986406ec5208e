// @runback/canonical (browser build): the same surface as index.ts, hashing with
// @noble/hashes instead of node:crypto.
export { canonical, canonicalOrder, canonicalWithout } from './canonical.js';
export { CanonicalError, type CanonicalErrorCode } from './errors.js';
export { EMPTY_SHA256 } from './constants.js';
export { escapePointerToken, toPointer } from './pointer.js';
export { sha256Hex } from './sha256-browser.js';
