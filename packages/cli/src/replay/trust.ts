// The trust policy of `runback replay`: the public keys a record must be signed by.
import type { VerifyOptions } from '@runback/verify';
import type { CommandIO } from '@runback/verify/cli';
import { messageOf, usageError } from '../errors.js';

/** Reads each --pubkey file; an unreadable file is a usage error. */
export async function loadTrust(paths: readonly string[], io: CommandIO): Promise<VerifyOptions> {
  const pinned: string[] = [];
  for (const path of paths) {
    try {
      pinned.push(new TextDecoder().decode(await io.readInput(path)));
    } catch (err) {
      throw usageError('USAGE_UNREADABLE_KEY', `cannot read --pubkey ${path}: ${messageOf(err)}`);
    }
  }
  return pinned.length === 0 ? {} : { pinned };
}
