// The trust policy named on a command line: --pubkey and --revoked PEM files, an HMAC key
// given inline (--key) or in a file (--hmac-key-file, or its older name --key-file). Used by `runback-verify`, `runback verify`
// and `runback replay`.
import { assertTrustPolicy, type VerifyOptions } from '@runback/verify';
import { UsageError, type CommandIO } from './io.js';

/** The trust flags as parseArgs returns them. */
export interface TrustFlags {
  readonly pubkey?: readonly string[] | undefined;
  readonly revoked?: readonly string[] | undefined;
  readonly key?: string | undefined;
  readonly 'key-file'?: string | undefined;
  readonly 'hmac-key-file'?: string | undefined;
}

/**
 * The parseArgs options of the trust flags most commands that verify take (spread into their
 * option table): --pubkey and --revoked files, the HMAC secret as --key or in a --key-file.
 */
export const TRUST_FLAG_OPTIONS = {
  pubkey: { type: 'string' as const, multiple: true as const, default: [] as string[] },
  revoked: { type: 'string' as const, multiple: true as const, default: [] as string[] },
  key: { type: 'string' as const },
  'key-file': { type: 'string' as const },
};

// A PEM block's first line (RFC 7468 §2): what a public or private key file starts with.
const PEM_HEADER = /-----BEGIN [A-Z0-9 ]+-----/;
// Enough to see a PEM header; a key file is far smaller.
const PEM_PROBE_BYTES = 64 * 1024;

/** Reads every key file the flags name; an unreadable one is a UsageError. */
export async function loadTrust(flags: TrustFlags, io: CommandIO): Promise<VerifyOptions> {
  const pinned = await Promise.all((flags.pubkey ?? []).map((p) => readKey('--pubkey', p, io)));
  const revoked = await Promise.all((flags.revoked ?? []).map((p) => readKey('--revoked', p, io)));
  if (flags['key-file'] !== undefined && flags['hmac-key-file'] !== undefined) {
    throw new UsageError(
      'USAGE_CONFLICTING_FLAGS',
      'expected one of --hmac-key-file or --key-file (the same flag), got both',
    );
  }
  if (flags.key !== undefined) await refusePemKey(flags.key, io);
  let hmacKey: string | Uint8Array | undefined = flags.key;
  const keyFile = flags['hmac-key-file'] ?? flags['key-file'];
  if (keyFile !== undefined) {
    const flag = flags['hmac-key-file'] === undefined ? '--key-file' : '--hmac-key-file';
    hmacKey = stripOneNewline(await readBytes(flag, keyFile, io));
  }
  const options: { pinned?: string[]; revoked?: string[]; hmacKey?: string | Uint8Array } = {};
  if (pinned.length > 0) options.pinned = pinned;
  if (revoked.length > 0) options.revoked = revoked;
  if (hmacKey !== undefined) options.hmacKey = hmacKey;
  return options;
}

/**
 * `--key` is the HMAC secret itself. Given a PEM key (the text, or the name of a PEM file, as
 * with cosign's `--key signer.pub.pem`), verify would silently report UNVERIFIED: refuse it
 * and name the flag meant.
 */
export async function refusePemKey(value: string, io: CommandIO): Promise<void> {
  const text = pemKeyTextRefusal(value);
  if (text !== undefined) throw text;
  if (value === '-' || value === '') return;
  let head: Uint8Array;
  try {
    head = await io.readInput(value, { maxBytes: PEM_PROBE_BYTES });
  } catch {
    return; // not a readable small file: the value is the secret
  }
  if (PEM_HEADER.test(new TextDecoder().decode(head))) {
    throw new UsageError(
      'USAGE_KEY_IS_PEM',
      `expected --key to be an HMAC secret, got ${JSON.stringify(value)}, the name of a PEM key file: ${PEM_KEY_ADVICE}`,
    );
  }
}

const PEM_KEY_ADVICE =
  'an Ed25519 public key is pinned with --pubkey PEM_FILE; --key takes the HMAC secret itself (or use --hmac-key-file FILE)';

/**
 * The refusal of a `--key` value that is PEM key text (`--key "$(cat signer.pub.pem)"`), or
 * undefined. Every command taking `--key` gives it, before or instead of the general "value
 * starts with -" usage message the PEM text would otherwise get.
 */
export function pemKeyTextRefusal(value: string): UsageError | undefined {
  return PEM_HEADER.test(value)
    ? new UsageError(
        'USAGE_KEY_IS_PEM',
        `expected --key to be an HMAC secret, got PEM key text: ${PEM_KEY_ADVICE}`,
      )
    : undefined;
}

/**
 * Drops one trailing line ending ("\n", "\r\n" or "\r") from a key file's bytes: editors
 * and `echo` add one that is not part of the secret. Anything else stays.
 */
export function stripOneNewline(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0a) end--;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  return bytes.subarray(0, end);
}

async function readBytes(flag: string, path: string, io: CommandIO): Promise<Uint8Array> {
  try {
    return await io.readInput(path);
  } catch (err) {
    throw new UsageError(
      'USAGE_UNREADABLE_KEY',
      `cannot read ${flag} ${path}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * Reads one public key file and checks it here, so that a bad key is reported under the flag
 * and file the user typed (`--pubkey signer.pem: expected …`), not the option path the
 * library sees (`trust.pinned[0]`).
 */
async function readKey(flag: string, path: string, io: CommandIO): Promise<string> {
  const text = new TextDecoder().decode(await readBytes(flag, path, io));
  try {
    assertTrustPolicy({ pinned: [text] });
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).replace(
      /^trust\.pinned\[0\]:\s*/,
      '',
    );
    throw new UsageError('USAGE_BAD_PUBLIC_KEY', `${flag} ${path}: ${message}`);
  }
  return text;
}
