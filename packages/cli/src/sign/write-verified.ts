// The last step of every command that seals a record (sign, import): serialize it, verify the
// bytes that will be written with the signing key pinned, and write them only if they verify —
// atomically to --out, or to standard output.
import type { SealedRecord } from '@runback/sign';
import { atomicWrite } from '@runback/sdk/fs';
import { verifyJson, type VerifyResult } from '@runback/verify';
import type { CommandIO } from '@runback/verify-cli';
import { CliError, messageOf, type CliErrorCode } from '../errors.js';
import { verifiesAsSigned, type LoadedSigner } from './signer.js';

export interface WriteVerifiedOptions {
  /** The file to write; undefined: standard output. */
  readonly out: string | undefined;
  /** The error to throw when the record would not verify. */
  readonly refuse: (result: VerifyResult) => CliError;
  /** The code of the error thrown when `out` cannot be written. */
  readonly writeFailed: CliErrorCode;
}

/** Writes `record` if it verifies as `loaded` signed it; returns that verification. */
export async function writeVerified(
  record: SealedRecord,
  loaded: LoadedSigner,
  io: Pick<CommandIO, 'stdout'>,
  options: WriteVerifiedOptions,
): Promise<VerifyResult> {
  const text = JSON.stringify(record, null, 2) + '\n';
  const result = verifyJson(text, loaded.trust);
  if (!verifiesAsSigned(result, loaded)) throw options.refuse(result);
  if (options.out === undefined) {
    io.stdout(text);
    return result;
  }
  try {
    await atomicWrite(options.out, text);
  } catch (err) {
    throw new CliError(options.writeFailed, `cannot write ${options.out}: ${messageOf(err)}`, {
      hint: 'Check that the directory exists and is writable.',
    });
  }
  return result;
}

/** A sealed record's signature as the commands report it (`--json`: `signature`). */
export type SignatureSummary = { readonly alg: string; readonly key_id?: string } | null;

export function signatureSummary(record: SealedRecord): SignatureSummary {
  const sig = record.manifest.signature;
  if (sig === undefined) return null;
  return sig.alg === 'Ed25519' ? { alg: sig.alg, key_id: sig.key_id } : { alg: sig.alg };
}
