// @runback/canonical (Node build): canonical JSON and SHA-256. See browser.ts for the
// browser build, which exports the same surface.
export { canonical, canonicalOrder, canonicalWithout } from './canonical.js';
export { CanonicalError, type CanonicalErrorCode } from './errors.js';
export { EMPTY_SHA256 } from './constants.js';
export { escapePointerToken, toPointer } from './pointer.js';
export { sha256Hex } from './sha256-node.js';
