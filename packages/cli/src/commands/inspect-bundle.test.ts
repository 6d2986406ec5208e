// runback inspect reads a bundle through the record inside it, and refuses an unsafe archive.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sealRecord } from '@runback/sign';
import { describe, expect, it } from 'vitest';
import { fakeIO, realisticRun, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

describe('runback inspect on a bundle', () => {
  it('summarizes the bundled record and lists the bundle files', async () => {
    const dir = tempDir();
    const { run, events } = realisticRun();
    const record = sealRecord({ run, events }, { generatedAt: '2026-06-14T02:47:14.000Z' });
    writeFileSync(join(dir, 'r.json'), JSON.stringify(record));
    const bundle = join(dir, 'r.tar.gz');
    expect(await runCli(['bundle', join(dir, 'r.json'), '-o', bundle], fakeIO())).toBe(0);
    const io = fakeIO();
    expect(await runCli(['inspect', bundle, '--json'], io)).toBe(0);
    const out = JSON.parse(io.out()) as {
      run: { run_id: string };
      bundle: { root: string; files: string[] };
    };
    expect(out.run.run_id).toBe(record.manifest.run_id);
    expect(out.bundle.root).toBe(record.manifest.run_id);
    expect(out.bundle.files).toEqual([
      'README.txt',
      'SHA256SUMS',
      'record.json',
      'report.html',
      'report.md',
    ]);
    const human = fakeIO();
    expect(await runCli(['inspect', bundle], human)).toBe(0);
    expect(human.out().split('\n')[0]).toMatch(/^UNVERIFIED /); // the verdict first
    expect(human.out()).toMatch(/^bundle run_a3f1b90c\/: README\.txt, SHA256SUMS/m);
  });

  it('refuses a gzip file that is not a bundle', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'x.tar.gz'), gzipSync(Buffer.from('nothing here'.repeat(100))));
    const io = fakeIO();
    expect(await runCli(['inspect', join(dir, 'x.tar.gz'), '--json'], io)).toBe(1);
    expect(JSON.parse(io.out())).toMatchObject({ error: { code: 'INSPECT_NOT_RECORD' } });
  });
});
