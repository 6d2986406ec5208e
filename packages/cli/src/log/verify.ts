// `runback log verify`: prove the log only grew (RFC 9162 consistency), under the pinned log
// key and any required witnesses.
//
//   runback log verify DIR --from OLD_CHECKPOINT --log-key PEM [--witness PEM]... [--out F]
//       builds the consistency proof from DIR's entries between OLD_CHECKPOINT and DIR's
//       latest checkpoint, checks it as any outsider would, and can write it to F;
//   runback log verify --proof CONSISTENCY.json --log-key PEM [--witness PEM]...
//       checks such a proof document offline, without the log.
import { atomicWrite } from '@runback/sdk/fs';
import {
  consistencyProofDocument,
  proveConsistency,
  readCheckpoint,
  treeHeadOf,
  verifyConsistencyProof,
  type LogProofResult,
} from '@runback/tlog';
import { readJsonStrict } from '@runback/verify';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { readNote } from './cosign.js';
import type { CommandIO } from './io.js';
import { readPublicKey } from './keys.js';
import { printResult, safe } from './output.js';
import { openStore } from './store.js';

export async function logVerify(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      from: { type: 'string' },
      proof: { type: 'string' },
      'log-key': { type: 'string' },
      witness: { type: 'string', multiple: true },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (values['log-key'] === undefined)
    throw usageError('USAGE_MISSING_KEY', 'expected --log-key LOG_PUBLIC_KEY, got none');
  const logKey = await readPublicKey('--log-key', values['log-key'], io);
  const witnessKeys: Uint8Array[] = [];
  for (const path of values.witness ?? [])
    witnessKeys.push(await readPublicKey('--witness', path, io));
  const trust = { logKey, witnessKeys };

  let doc: unknown;
  let source: string;
  if (values.proof !== undefined) {
    if (positionals.length > 0 || values.from !== undefined) {
      throw usageError(
        'USAGE_INPUT',
        'expected either --proof CONSISTENCY.json, or DIR with --from OLD_CHECKPOINT, not both',
      );
    }
    const parsed = readJsonStrict(
      new TextEncoder().encode(await readNote('--proof', values.proof, io)),
    );
    if (!parsed.ok)
      throw new CliError('LOG_PROOF_NOT_JSON', `--proof ${values.proof}: ${parsed.error.message}`);
    doc = parsed.value;
    source = values.proof;
  } else {
    const [dir] = positionals;
    if (dir === undefined || positionals.length > 1 || values.from === undefined) {
      throw usageError(
        'USAGE_INPUT',
        'expected DIR and --from OLD_CHECKPOINT (or --proof CONSISTENCY.json)',
      );
    }
    doc = await proofFromLog(dir, await readNote('--from', values.from, io), logKey);
    source = dir;
    if (values.out !== undefined)
      await atomicWrite(values.out, JSON.stringify(doc, null, 2) + '\n');
  }
  const result = verifyConsistencyProof(doc, trust);
  report(io, values.json, source, result, witnessKeys.length);
  return result.ok ? EXIT.ok : EXIT.invalid;
}

/** The consistency proof document between `old` and the log's latest checkpoint. */
async function proofFromLog(dir: string, old: string, logKey: Uint8Array): Promise<unknown> {
  const store = await openStore(dir);
  if (store.checkpoint === null)
    throw new CliError('LOG_NO_CHECKPOINT', `${dir} has no checkpoint yet`);
  const current = readCheckpoint(store.checkpoint, { logKey });
  const previous = readCheckpoint(old, { logKey });
  // Unreadable or foreign checkpoints are reported by the proof check below, with its codes.
  if (!current.ok || !previous.ok)
    return consistencyProofDocument({
      oldCheckpoint: old,
      newCheckpoint: store.checkpoint,
      proof: [],
    });
  const { size } = current.checkpoint;
  const head = size <= store.heads.length ? treeHeadOf(store.heads, size) : null;
  if (head === null || !sameBytes(head.root, current.checkpoint.root)) {
    throw new CliError(
      'LOG_CORRUPT',
      `${dir}: expected the entries to rebuild the latest checkpoint (size ${size}), got another tree`,
    );
  }
  const oldSize = previous.checkpoint.size;
  const proof = oldSize >= 1 && oldSize <= size ? proveConsistency(store.heads, oldSize, size) : [];
  return consistencyProofDocument({ oldCheckpoint: old, newCheckpoint: store.checkpoint, proof });
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function report(
  io: CommandIO,
  json: boolean,
  source: string,
  result: LogProofResult,
  witnesses: number,
): void {
  const cp = result.checkpoint;
  const lines = result.ok
    ? [
        `✓ consistent: ${safe(source)} only grew (now size ${cp?.size ?? '?'}, root ${cp?.root ?? '?'})`,
        ...(witnesses > 0
          ? result.witnesses.map((w) => `  cosigned by ${safe(w.name)} at ${w.timestamp}`)
          : []),
      ]
    : [
        `✗ not consistent: ${safe(source)}`,
        ...result.errors.map((e) => `  ${e.code}: ${safe(e.message)}`),
      ];
  printResult(
    io,
    json,
    {
      source,
      ok: result.ok,
      errors: result.errors,
      checkpoint: cp ?? null,
      witnesses: result.witnesses,
    },
    lines,
  );
}
