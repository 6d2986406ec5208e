// `runback log prove DIR RUN_ID|RECORD [--out PROOF.json]`: the inclusion proof of one run
// against the log's latest checkpoint, as a document that verifies offline
// (`runback verify RECORD --proof PROOF.json --log-key PEM`).
import { existsSync } from 'node:fs';
import { atomicWrite } from '@runback/sdk/fs';
import {
  checkpointOfNote,
  indexOfRun,
  inclusionProofDocument,
  proveInclusion,
  recordLeafHash,
  recordHeadOf,
  verifyInclusion,
} from '@runback/tlog';
import { readJsonStrict } from '@runback/verify';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import type { CommandIO } from './io.js';
import { printResult, safe } from './output.js';
import { openStore } from './store.js';

export async function logProve(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { out: { type: 'string', short: 'o' }, json: { type: 'boolean', default: false } },
  });
  const [dir, target] = positionals;
  if (dir === undefined || target === undefined || positionals.length > 2) {
    throw usageError(
      'USAGE_INPUT',
      `expected DIR and a RUN_ID or RECORD file, got ${positionals.length} arguments`,
    );
  }
  const store = await openStore(dir);
  if (store.checkpoint === null)
    throw new CliError('LOG_NO_CHECKPOINT', `${dir} has no checkpoint yet`, {
      hint: 'Run runback log checkpoint first.',
    });
  const runId = existsSync(target) ? await runIdOf(target, io) : target;
  const index = indexOfRun(store.heads, runId);
  if (index === -1)
    throw new CliError(
      'LOG_RUN_NOT_FOUND',
      `expected run ${runId} in the log ${dir}, got no entry for it`,
      { hint: 'Append the record first: runback log append DIR RECORD' },
    );
  const stated = checkpointOfNote(store.checkpoint);
  if (!stated.ok || stated.checkpoint.size > store.heads.length) {
    throw new CliError(
      'LOG_CORRUPT',
      `${dir}/checkpoint: expected a checkpoint of at most ${store.heads.length} entries${stated.ok ? '' : `, got: ${stated.message}`}`,
    );
  }
  const { size, root } = stated.checkpoint;
  if (index >= size) {
    throw new CliError(
      'LOG_NOT_CHECKPOINTED',
      `run ${runId} (entry ${index}) was appended after the latest checkpoint (size ${size})`,
      { hint: 'Run runback log checkpoint, then prove again.' },
    );
  }
  const head = store.heads[index] as (typeof store.heads)[number];
  const proof = proveInclusion(store.heads, index, size);
  // The proof must lead to the checkpoint's own root before it leaves: entries.jsonl may have
  // been edited since the checkpoint was signed.
  if (
    !verifyInclusion({
      leafIndex: index,
      treeSize: size,
      leafHash: recordLeafHash(head),
      proof,
      root,
    }).ok
  ) {
    throw new CliError(
      'LOG_NOT_APPEND_ONLY',
      `${dir}: the entries no longer match the checkpoint (size ${size}); refusing to write a proof that would not verify`,
    );
  }
  const doc = inclusionProofDocument({
    head,
    leafIndex: index,
    treeSize: size,
    proof,
    checkpoint: store.checkpoint,
  });
  const text = JSON.stringify(doc, null, 2) + '\n';
  if (values.out === undefined || values.out === '-') {
    io.stdout(text);
    return EXIT.ok;
  }
  await atomicWrite(values.out, text);
  printResult(
    io,
    values.json,
    { out: values.out, run_id: runId, leaf_index: index, tree_size: size },
    [
      `Wrote the inclusion proof of ${safe(runId)} (entry ${index} of ${size}) to ${safe(values.out)}`,
    ],
  );
  return EXIT.ok;
}

async function runIdOf(file: string, io: CommandIO): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await io.readInput(file);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${file}: ${messageOf(err)}`);
  }
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok)
    throw new CliError('LOG_RECORD_INVALID', `${file} is not JSON: ${parsed.error.message}`);
  try {
    return recordHeadOf(parsed.value).run_id;
  } catch (err) {
    throw new CliError('LOG_RECORD_INVALID', `${file}: ${messageOf(err)}`);
  }
}
