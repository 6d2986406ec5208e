// @runback/sign: the signing layer of runback's trust core. Pure functions: no I/O, no clock,
// no global state (key generation without a seed is the one use of randomness).

/** Coded errors for malformed arguments. */
export { SignError, type SignErrorCode } from './errors.js';

/** Ed25519 (RFC 8032), strict verification. */
export {
  generateEd25519KeyPair,
  isTorsionFreePublicKey,
  publicKeyFromPrivateKey,
  signEd25519,
  verifyEd25519,
  type Ed25519KeyPair,
} from './ed25519.js';

/** HMAC-SHA256 (RFC 2104) and constant-time comparison. */
export { constantTimeEqual, hmacSha256, hmacSha256Hex, verifyHmacSha256 } from './hmac.js';

/** Ed25519 keys as raw bytes, SPKI / PKCS#8 DER and PEM, and key ids. */
export {
  normalizeKey,
  privateKeyFromPem,
  privateKeyToPem,
  publicKeyFromPem,
  publicKeyFromSpki,
  publicKeyToPem,
  publicKeyToSpki,
  type KeyInput,
} from './keys.js';
export { keyId } from './key-id.js';

/** The signed payload. */
export { signaturePayload } from './payload.js';

/** Sealing and signing records. */
export {
  buildManifest,
  sealRecord,
  signRecord,
  type Ed25519Signature,
  type ManifestFacts,
  type HmacSignature,
  type RecordSignature,
  type SealInput,
  type SealOptions,
  type SealedEvent,
  type SealedManifest,
  type SealedRecord,
  type Signer,
} from './seal/index.js';
