import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { NO_CAPTURE } from '../session/capture-settings.js';
import { CHILD_ENV } from './child-env.js';
import { Redactor } from '../redact/index.js';
import {
  ED25519_SIGNER,
  expectRunbackError,
  readValidRecord,
  type Ev,
} from '../../test/support/record.js';
import { ActiveRun } from '../session/active-run.js';
import { runInScope } from '../session/context.js';
import { reasoning } from '../hooks/spans/reasoning.js';
import { beginJournalRun } from './begin.js';
import { sealJournal } from './seal.js';
import { JournalWriter } from './writer.js';

const SDK_ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('beginJournalRun', () => {
  it('writes the header and the run-start event, and hands a child the chain to continue', async () => {
    const dir = tempDir();
    const journal = join(dir, 'run.journal');
    const run = beginJournalRun({
      journal,
      name: 'cmd',
      input: { argv: ['node', 'x.js'], api_key: 'k-1' },
      metadata: { recorder: 'test' },
      runId: 'run_begin001',
      sync: false,
    });
    expect(run).toMatchObject({ runId: 'run_begin001', journal });
    const [header, startLine, rest] = readFileSync(journal, 'utf8').split('\n');
    expect(rest).toBe('');
    expect(JSON.parse(header as string)).toMatchObject({
      runback_journal: 1,
      run_id: 'run_begin001',
      writer: '@runback/sdk',
    });
    const start = JSON.parse(startLine as string) as Ev & { _hash: string };
    expect(start).toMatchObject({
      type: 'run',
      phase: 'start',
      seq: 0,
      name: 'cmd',
      status: 'running',
      input: { argv: ['node', 'x.js'], api_key: '[REDACTED]' },
      metadata: { recorder: 'test', redacted: ['/input/api_key'] },
    });

    const env = run.childEnv({ clock: true });
    expect(env).toEqual({
      [CHILD_ENV.journal]: journal,
      [CHILD_ENV.runId]: 'run_begin001',
      [CHILD_ENV.chainHead]: start._hash,
      [CHILD_ENV.chainCount]: '1',
      [CHILD_ENV.firstSeq]: '1',
      [CHILD_ENV.parentSpan]: 'run',
      [CHILD_ENV.sync]: '0',
      [CHILD_ENV.capture]: '{"clock":true}',
    });
    expect(run.childEnv()[CHILD_ENV.capture]).toBe('true');

    // A child continuing from those values appends events that seal into a valid record.
    const writer = JournalWriter.openForAppend(journal, { sync: false });
    const child = new ActiveRun({
      runId: env[CHILD_ENV.runId] as string,
      rootSpanId: 'run',
      sink: { write: (text) => writer.append(text) },
      redactor: new Redactor(),
      capture: NO_CAPTURE,
      firstSeq: Number(env[CHILD_ENV.firstSeq]),
      chainHead: env[CHILD_ENV.chainHead] as string,
      chainCount: Number(env[CHILD_ENV.chainCount]),
    });
    runInScope({ run: child, spanId: 'run', kind: 'run' }, () => reasoning('from the child'));
    writer.close();
    const out = join(dir, 'run.json');
    await sealJournal(journal, {
      out,
      signer: ED25519_SIGNER,
      // Begun without a signer: no line MACs.
      allowUnauthenticated: true,
      end: { status: 'success', output: 0 },
    });
    const { record } = readValidRecord(out);
    expect(record.events.map((e) => [e.type, e.seq, e.parent_span_id])).toEqual([
      ['run', 0, null],
      ['reasoning', 1, 'run'],
      ['run', 2, null],
    ]);
    expect(record.events.at(-1)?.metadata).toEqual({ redactions: ['/events/0/input/api_key'] });
  });

  it('refuses an existing journal with OUTPUT_EXISTS', async () => {
    const journal = join(tempDir(), 'run.journal');
    beginJournalRun({ journal, name: 'first' });
    await expectRunbackError(() => beginJournalRun({ journal, name: 'second' }), 'OUTPUT_EXISTS');
  });

  it('refuses input with no JSON form before it creates the journal', async () => {
    const journal = join(tempDir(), 'run.journal');
    await expectRunbackError(
      () => beginJournalRun({ journal, name: 'x', input: { n: NaN } }),
      'VALUE_NOT_JSON',
      /run input/,
    );
    expect(existsSync(journal)).toBe(false);
    expect(() => beginJournalRun({ journal, name: 'x', redact: { keys: 'ssn' as never } })).toThrow(
      TypeError,
    );
    expect(existsSync(journal)).toBe(false);
  });
});

describe('preloadSpecifier', () => {
  // import.meta.resolve does not exist under vitest's module runner, so the built SDK is asked
  // in a plain Node process.
  it('resolves to the built preload module', async () => {
    const index = join(SDK_ROOT, 'dist', 'journal.js');
    expect(existsSync(index), 'build the SDK first: pnpm --filter @runback/sdk build').toBe(true);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { preloadSpecifier } from ${JSON.stringify(index)}; process.stdout.write(preloadSpecifier());`,
      ],
      { cwd: SDK_ROOT },
    );
    expect(stdout.startsWith('file://')).toBe(true);
    expect(fileURLToPath(stdout)).toBe(join(SDK_ROOT, 'dist', 'preload.js'));
  });
});
