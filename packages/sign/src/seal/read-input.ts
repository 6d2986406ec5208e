// Step 1 of sealing: check what the caller passed and take a JSON copy of the run summary.
// Everything the caller got wrong is a coded SignError (or a located CanonicalError) before any
// hashing starts.
import { SignError, describeValue } from '../errors.js';
import { isPlainObject, jsonCopy, recordInvalid } from './json-data.js';
import { checkSigner, type CheckedSigner } from './sign.js';
import type { SealInput, SealOptions } from './types.js';

/** The checked input of sealRecord. */
export interface SealParts {
  /** A JSON copy of the run summary. */
  readonly run: Record<string, unknown>;
  readonly runId: string;
  /** The input's events array, its items not yet checked (chainEvents does that). */
  readonly events: readonly unknown[];
  readonly generatedAt: string;
  readonly signer: CheckedSigner | undefined;
}

/** Checks sealRecord's arguments, in the order their errors are reported. */
export function readSealInput(input: SealInput, options: SealOptions): SealParts {
  if (!isPlainObject(input)) {
    throw recordInvalid(
      `expected the input to be an object { run, events }, got ${describeValue(input)}`,
    );
  }
  if (
    !isPlainObject(options) ||
    typeof options.generatedAt !== 'string' ||
    options.generatedAt === ''
  ) {
    throw new SignError(
      'ARG_INVALID_TYPE',
      `expected options.generatedAt to be a non-empty string, got ${describeValue(
        isPlainObject(options) ? options.generatedAt : options,
      )}`,
    );
  }
  const signer = options.signer === undefined ? undefined : checkSigner(options.signer);

  const run = jsonCopy(input.run, '/run');
  if (!isPlainObject(run))
    throw recordInvalid(`expected run to be an object, got ${describeValue(run)}`);
  const runId = run['run_id'];
  if (typeof runId !== 'string' || runId === '') {
    throw recordInvalid(
      `expected run.run_id to be a non-empty string, got ${describeValue(runId)}`,
    );
  }

  const events: unknown = input.events;
  if (!Array.isArray(events)) {
    throw recordInvalid(`expected events to be an array, got ${describeValue(events)}`);
  }
  return { run, runId, events, generatedAt: options.generatedAt, signer };
}
