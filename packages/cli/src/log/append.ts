// `runback log append DIR RECORD...`: add each record's head to the log. A record is added
// only if it is intact (@runback/verify: not invalid); a record already in the log is skipped;
// another record under a logged run id is refused (the log would then prove two histories
// of one run).
import { recordHeadOf, recordHeadText, type RecordHead } from '@runback/tlog';
import { verifyJson } from '@runback/verify';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import type { CommandIO } from './io.js';
import { printResult, safe } from './output.js';
import { openStore, withLock, writeEntries } from './store.js';

export async function logAppend(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const [dir, ...records] = positionals;
  if (dir === undefined || records.length === 0) {
    throw usageError(
      'USAGE_INPUT',
      `expected DIR and at least one RECORD, got ${positionals.length} arguments`,
    );
  }
  const heads: { file: string; head: RecordHead }[] = [];
  for (const file of records) heads.push({ file, head: await intactHead(file, io) });

  return withLock(dir, async () => {
    const store = await openStore(dir);
    const all = [...store.heads];
    const results: { file: string; run_id: string; index: number; added: boolean }[] = [];
    for (const { file, head } of heads) {
      const at = all.findIndex((h) => h.run_id === head.run_id);
      if (at !== -1) {
        if (recordHeadText(all[at] as RecordHead) !== recordHeadText(head)) {
          throw new CliError(
            'LOG_RUN_ID_TAKEN',
            `${file}: expected run ${head.run_id} to be new or identical to entry ${at}, got different digests`,
            {
              hint: 'A log holds one history per run: this record is not the one logged under that run id.',
            },
          );
        }
        results.push({ file, run_id: head.run_id, index: at, added: false });
        continue;
      }
      all.push(head);
      results.push({ file, run_id: head.run_id, index: all.length - 1, added: true });
    }
    await writeEntries(dir, all);
    printResult(
      io,
      values.json,
      { dir, size: all.length, entries: results },
      results.map(
        (r) =>
          `${r.added ? 'Appended' : 'Already logged'} ${safe(r.run_id)} as entry ${r.index} (log size ${all.length})`,
      ),
    );
    return EXIT.ok;
  });
}

async function intactHead(file: string, io: CommandIO): Promise<RecordHead> {
  let bytes: Uint8Array;
  try {
    bytes = await io.readInput(file);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${file}: ${messageOf(err)}`);
  }
  const result = verifyJson(bytes);
  if (!result.integrity || result.verdict === 'invalid') {
    const first = result.errors[0];
    throw new CliError(
      'LOG_RECORD_INVALID',
      `${file}: refusing to log a record that does not verify (${first === undefined ? result.verdict : `${first.code}: ${first.message}`})`,
      {
        details: { verification: result },
      },
    );
  }
  return recordHeadOf(JSON.parse(new TextDecoder().decode(bytes)) as unknown);
}
