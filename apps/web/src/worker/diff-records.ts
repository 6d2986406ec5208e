// One side of a diff: the record read strictly (as `runback diff` reads it) and verified.
import { readJsonStrict, verifyJson, type VerifyOptions } from '@runback/verify';
import type { DiffSide, FileFacts } from './protocol.js';
import { objectOr, stringOr } from './read-members.js';

export class DiffInputError extends Error {
  readonly code = 'DIFF_NOT_A_RECORD';
}

export function diffSide(
  bytes: Uint8Array,
  file: FileFacts,
  options: VerifyOptions,
): { side: DiffSide; record: { run?: unknown; events?: unknown } } {
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok) {
    throw new DiffInputError(
      `expected ${file.name} to be a JSON record, got ${parsed.error.code}: ${parsed.error.message}`,
    );
  }
  const record = objectOr(parsed.value);
  if (record === null || !Array.isArray(record['events'])) {
    throw new DiffInputError(`expected ${file.name} to be a record with an events array, got none`);
  }
  const result = verifyJson(bytes, options);
  const run = objectOr(record['run']) ?? {};
  return {
    record,
    side: {
      file,
      verdict: result.verdict,
      intact: result.integrity,
      runId: stringOr(run['run_id']),
      name: stringOr(run['name']),
      status: stringOr(run['status']),
      events: (record['events'] as unknown[]).length,
    },
  };
}
