// The trust policy named on a command line: --pubkey and --revoked PEM files, an HMAC key
// given inline (--key) or in a file (--key-file). Used by `runback-verify`, `runback verify`
// and `runback replay`.
import type { VerifyOptions } from '@runback/verify';
import { UsageError, type CommandIO } from './io.js';

/** The trust flags as parseArgs returns them. */
export interface TrustFlags {
  readonly pubkey?: readonly string[] | undefined;
  readonly revoked?: readonly string[] | undefined;
  readonly key?: string | undefined;
  readonly 'key-file'?: string | undefined;
}

/** Reads every key file the flags name; an unreadable one is a UsageError. */
export async function loadTrust(flags: TrustFlags, io: CommandIO): Promise<VerifyOptions> {
  const pinned = await Promise.all((flags.pubkey ?? []).map((p) => readText('--pubkey', p, io)));
  const revoked = await Promise.all((flags.revoked ?? []).map((p) => readText('--revoked', p, io)));
  let hmacKey: string | Uint8Array | undefined = flags.key;
  const keyFile = flags['key-file'];
  if (keyFile !== undefined) hmacKey = stripOneNewline(await readBytes('--key-file', keyFile, io));
  const options: { pinned?: string[]; revoked?: string[]; hmacKey?: string | Uint8Array } = {};
  if (pinned.length > 0) options.pinned = pinned;
  if (revoked.length > 0) options.revoked = revoked;
  if (hmacKey !== undefined) options.hmacKey = hmacKey;
  return options;
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

async function readText(flag: string, path: string, io: CommandIO): Promise<string> {
  return new TextDecoder().decode(await readBytes(flag, path, io));
}
