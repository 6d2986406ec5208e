// `runback log checkpoint DIR --key LOG_KEY`: sign the current tree head as a checkpoint
// and keep it as DIR/checkpoint. The log key must be the one that signed earlier
// checkpoints of this log, and the new tree must extend the last checkpoint's tree.
import { publicKeyFromPrivateKey } from '@runback/sign';
import {
  proveConsistency,
  readCheckpoint,
  signCheckpoint,
  treeHeadOf,
  verifyConsistency,
} from '@runback/tlog';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { onePositional } from './init.js';
import type { CommandIO } from './io.js';
import { readPrivateKey } from './keys.js';
import { hex, printResult, safe } from './output.js';
import { openStore, withLock, writeCheckpoint } from './store.js';

export async function logCheckpoint(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { key: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const dir = onePositional(positionals, 'DIR');
  if (values.key === undefined)
    throw usageError(
      'USAGE_MISSING_KEY',
      "expected --key LOG_KEY_PEM (the log's private key), got none",
    );
  const privateKey = await readPrivateKey('--key', values.key, io);
  const logKey = publicKeyFromPrivateKey(privateKey);

  return withLock(dir, async () => {
    const store = await openStore(dir);
    const head = treeHeadOf(store.heads);
    if (store.checkpoint !== null) {
      const last = readCheckpoint(store.checkpoint, { logKey });
      if (!last.ok) {
        throw new CliError('LOG_CHECKPOINT_KEY', `${dir}/checkpoint: ${last.message}`, {
          hint: "Sign with the key that signed this log's earlier checkpoints.",
        });
      }
      const previous = last.checkpoint;
      const grew =
        previous.size === 0 ||
        (previous.size <= head.size &&
          verifyConsistency({
            size1: previous.size,
            size2: head.size,
            root1: previous.root,
            root2: head.root,
            proof: proveConsistency(store.heads, previous.size),
          }).ok);
      if (!grew) {
        throw new CliError(
          'LOG_NOT_APPEND_ONLY',
          `${dir}: expected the entries to extend the last checkpoint (size ${previous.size}), got a tree that does not`,
          {
            hint: 'entries.jsonl was edited after the last checkpoint; restore it from a backup.',
          },
        );
      }
    }
    const note = signCheckpoint(
      { origin: store.origin, size: head.size, root: head.root, extensions: [] },
      privateKey,
    );
    await writeCheckpoint(dir, note);
    printResult(
      io,
      values.json,
      { dir, origin: store.origin, size: head.size, root: hex(head.root), checkpoint: note },
      [
        `Signed checkpoint of ${safe(store.origin)}: size ${head.size}, root ${hex(head.root)}`,
        '',
        note.trimEnd(),
      ],
    );
    return EXIT.ok;
  });
}
