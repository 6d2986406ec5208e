// Reading a record file's JSON for the commands that compare records (diff, replay): strictly,
// as the verifier reads it, with text that is not JSON an error of its own (exit 2).
import { readJsonStrict } from '@runback/verify';
import { CliError, type CliErrorCode } from './errors.js';

/** The strictly parsed JSON of `bytes`; `code` names the failure (e.g. `DIFF_NOT_JSON`). */
export function parseRecordJson(bytes: Uint8Array, path: string, code: CliErrorCode): unknown {
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok) {
    throw new CliError(code, `${path} is not JSON: ${parsed.error.message}`, { exitCode: 2 });
  }
  return parsed.value;
}
