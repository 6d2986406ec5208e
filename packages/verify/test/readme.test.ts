// The README's example runs as written against the built package, in a folder holding
// record.json and signer.pub.pem: once with a record the published implementation wrote (the
// shared vectors), once with one our sealer wrote, stored pretty-printed.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runReadmeExample } from '../../../test-support/readme-example.js';
import { sharedVectorsDir } from '../../../test-support/vectors.js';
import { PEM, sealedLoanRecord } from './support/fixtures.js';

const readme = new URL('../README.md', import.meta.url);
const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'runback-verify-readme-'));
  folders.push(dir);
  return dir;
}

it('verifies a record our sealer wrote, as the README states', async () => {
  const dir = folder();
  writeFileSync(join(dir, 'record.json'), JSON.stringify(sealedLoanRecord(), null, 2));
  writeFileSync(join(dir, 'signer.pub.pem'), PEM.current);
  const run = await runReadmeExample(readme, import.meta.url, { cwd: dir });
  expect(run.actual).toEqual(run.expected);
});

const vectors = sharedVectorsDir();
it.runIf(vectors !== null)(
  "verifies the published implementation's signed sample, as the README states",
  async () => {
    const published = join(vectors as string, 'runback-published');
    const dir = folder();
    copyFileSync(join(published, 'sample-cassette.ed25519.json'), join(dir, 'record.json'));
    copyFileSync(join(published, 'signer.pub.pem'), join(dir, 'signer.pub.pem'));
    const run = await runReadmeExample(readme, import.meta.url, { cwd: dir });
    expect(run.actual).toEqual(run.expected);
  },
);
