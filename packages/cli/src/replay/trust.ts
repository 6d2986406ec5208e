// The trust policy of `runback replay`: the public keys a record must be signed by.
import type { VerifyOptions } from '@runback/verify';
import { loadTrust as loadTrustFlags, UsageError, type CommandIO } from '@runback/verify-cli';
import { usageError } from '../errors.js';

/** Reads each --pubkey file; an unreadable file is a usage error. */
export async function loadTrust(paths: readonly string[], io: CommandIO): Promise<VerifyOptions> {
  try {
    return await loadTrustFlags({ pubkey: paths }, io);
  } catch (err) {
    // The same words as runback verify, as a CliError so --json reports it too.
    if (err instanceof UsageError) throw usageError(err.code, err.message);
    throw err;
  }
}
