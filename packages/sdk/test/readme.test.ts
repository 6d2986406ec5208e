// The README's example runs as written against the built package, in a temporary folder: it
// records a run to loan.record.json and verifies the file it wrote.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runReadmeExample } from '../../../test-support/readme-example.js';

it('records, seals and verifies the run the README shows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runback-sdk-readme-'));
  try {
    const run = await runReadmeExample(new URL('../README.md', import.meta.url), import.meta.url, {
      cwd: dir,
    });
    expect(run.actual).toEqual(run.expected);
    expect(existsSync(join(dir, 'loan.record.json'))).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
