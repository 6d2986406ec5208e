// The signer of `runback sign`, from its flags, and the trust policy that must call the
// signed output `valid`: the signer's own public key pinned, or the HMAC key itself.
import { keyId, privateKeyFromPem, publicKeyFromPrivateKey, type Signer } from '@runback/sign';
import type { VerifyOptions, VerifyResult } from '@runback/verify';
import { stripOneNewline, type CommandIO } from '@runback/verify-cli';
import { messageOf, usageError } from '../errors.js';

/** How the output is signed, and how its own verification is configured. */
export interface LoadedSigner {
  /** undefined: the record is sealed unsigned. */
  readonly signer: Signer | undefined;
  /** What `verifyJson` needs to call the output `valid` (empty when unsigned). */
  readonly trust: VerifyOptions;
  /** The Ed25519 key id, for the report. */
  readonly keyId: string | undefined;
}

/** The flags that choose a signer, for parseArgs: one of them at most. */
export const SIGNER_OPTIONS = {
  key: { type: 'string' },
  'hmac-key': { type: 'string' },
  'hmac-key-file': { type: 'string' },
} as const;

export interface SignerFlags {
  readonly key?: string | undefined;
  readonly 'hmac-key'?: string | undefined;
  readonly 'hmac-key-file'?: string | undefined;
}

/** Reads the key named by the flags; any problem with it is a usage error (exit 64). */
export async function loadSigner(flags: SignerFlags, io: CommandIO): Promise<LoadedSigner> {
  const given = (['key', 'hmac-key', 'hmac-key-file'] as const).filter(
    (f) => flags[f] !== undefined,
  );
  if (given.length > 1) {
    throw usageError(
      'USAGE_CONFLICTING_KEYS',
      `expected one of --key, --hmac-key or --hmac-key-file, got ${given.map((f) => `--${f}`).join(' and ')}`,
    );
  }
  if (flags.key !== undefined) return loadEd25519(flags.key, io);
  if (flags['hmac-key'] !== undefined) return hmac(flags['hmac-key'], '--hmac-key');
  if (flags['hmac-key-file'] !== undefined) {
    const bytes = await readKeyFile('--hmac-key-file', flags['hmac-key-file'], io);
    return hmac(stripOneNewline(bytes), '--hmac-key-file');
  }
  return { signer: undefined, trust: {}, keyId: undefined };
}

async function loadEd25519(path: string, io: CommandIO): Promise<LoadedSigner> {
  const text = new TextDecoder().decode(await readKeyFile('--key', path, io));
  if (text.includes('-----BEGIN PUBLIC KEY-----')) {
    throw usageError(
      'USAGE_PUBLIC_KEY_GIVEN',
      `--key ${path} is a public key; signing needs the private key`,
      'Pass the NAME.key.pem file from runback keygen, not NAME.pub.pem.',
    );
  }
  let seed: Uint8Array;
  try {
    seed = privateKeyFromPem(text);
  } catch (err) {
    throw usageError(
      'USAGE_BAD_PRIVATE_KEY',
      `--key ${path} is not an unencrypted Ed25519 private key in PKCS#8 PEM: ${messageOf(err)}`,
      'Create one with "runback keygen", or with: openssl genpkey -algorithm ed25519',
    );
  }
  const publicKey = publicKeyFromPrivateKey(seed);
  return {
    signer: { alg: 'Ed25519', privateKey: seed },
    trust: { pinned: [publicKey] },
    keyId: keyId(publicKey),
  };
}

function hmac(key: string | Uint8Array, flag: string): LoadedSigner {
  if (key.length === 0) {
    throw usageError(
      'USAGE_EMPTY_HMAC_KEY',
      `expected ${flag} to hold a non-empty secret, got an empty one`,
      'An empty secret proves nothing; check that the variable or file holding it is set.',
    );
  }
  return { signer: { alg: 'HMAC-SHA256', key }, trust: { hmacKey: key }, keyId: undefined };
}

async function readKeyFile(flag: string, path: string, io: CommandIO): Promise<Uint8Array> {
  try {
    return await io.readInput(path);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_KEY', `cannot read ${flag} ${path}: ${messageOf(err)}`);
  }
}

/**
 * Whether a record the CLI wrote verifies as it must: `valid` when signed (the signer's own key
 * is pinned in `trust`), intact and `unsigned` when no key was given.
 */
export function verifiesAsSigned(result: VerifyResult, loaded: LoadedSigner): boolean {
  if (loaded.signer !== undefined) return result.verdict === 'valid';
  return result.integrity && result.checks.signature === 'unsigned';
}
