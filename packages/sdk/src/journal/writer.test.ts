import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { expectRunbackError } from '../../test/support/record.js';
import type { JournalHeader } from './format.js';
import { JournalWriter } from './writer.js';

const HEADER: JournalHeader = {
  runback_journal: 1,
  run_id: 'run_w',
  created_at: '2026-01-01T00:00:00.000Z',
  writer: 'test',
};

describe('JournalWriter', () => {
  it('creates a private file; the header arrives with the first line, then one line per call', () => {
    const path = join(tempDir(), 'j');
    const writer = JournalWriter.create(path, HEADER);
    expect(writer.path).toBe(path);
    // Never a header without an event: both reach the file in one write.
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writer.append('{"a":1}');
    writer.append('{"b":"é"}');
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(HEADER)}\n{"a":1}\n{"b":"é"}\n`);
    writer.close();
    writer.close();
  });

  it('refuses an existing file with OUTPUT_EXISTS and leaves it as it was', async () => {
    const path = join(tempDir(), 'j');
    writeFileSync(path, 'keep me');
    await expectRunbackError(
      () => JournalWriter.create(path, HEADER),
      'OUTPUT_EXISTS',
      /already exists/,
    );
    expect(readFileSync(path, 'utf8')).toBe('keep me');
  });

  it('passes on other failures as they are', () => {
    expect(() => JournalWriter.create(join(tempDir(), 'missing', 'j'), HEADER)).toThrow(/ENOENT/);
  });

  it('refuses to append once closed', async () => {
    const writer = JournalWriter.create(join(tempDir(), 'j'), HEADER, { sync: false });
    writer.close();
    await expectRunbackError(() => writer.append('{}'), 'RUN_ENDED', /closed/);
  });

  it('openForAppend adds to an existing journal, after lines another writer appended', () => {
    const path = join(tempDir(), 'j');
    const first = JournalWriter.create(path, HEADER);
    const second = JournalWriter.openForAppend(path, { sync: false });
    first.append('1');
    second.append('2');
    first.append('3');
    first.close();
    second.close();
    expect(readFileSync(path, 'utf8').split('\n')).toEqual([
      JSON.stringify(HEADER),
      '1',
      '2',
      '3',
      '',
    ]);
  });
});
