// The README's example runs as written (each line through a shell, `runback-verify` being this
// package's bin) and exits as its comment says, on records from the verify corpus.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { CORPUS_DIR, loadCorpus } from '../../../test-support/corpus.js';

const BIN = fileURLToPath(new URL('../bin/runback-verify.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'verify-cli-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('runs the README example lines with the exit statuses they state', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = /## Example\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('expected a sh block under "## Example"');

  const cases = loadCorpus();
  const signed = cases.find((c) => c.file === 'valid/ed25519-signed.json' && c.trust.pinned)!;
  const hmac = cases.find((c) => c.file === 'valid/hmac-signed.json' && c.trust.hmac_key)!;
  for (const name of ['record.json', 'a.json', 'b.json'])
    copyFileSync(join(CORPUS_DIR, signed.file), join(dir, name));
  copyFileSync(join(CORPUS_DIR, signed.trust.pinned![0]!), join(dir, 'signer.pub.pem'));
  copyFileSync(join(CORPUS_DIR, hmac.file), join(dir, 'hmac-record.json'));
  writeFileSync(join(dir, 'hmac.key'), `${hmac.trust.hmac_key}\n`);

  const lines = block.split('\n').filter((l) => l.startsWith('runback-verify '));
  expect(lines).toHaveLength(4);
  for (const line of lines) {
    const [command, comment = ''] = line.split(/\s+# /);
    const exit = Number(/exit (\d+)$/.exec(comment)?.[1]);
    const run = spawnSync(
      'bash',
      ['-c', `runback-verify() { "${process.execPath}" "${BIN}" "$@"; }\n${command}`],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect({ line, status: run.status, stderr: run.stderr }).toEqual({
      line,
      status: exit,
      stderr: '',
    });
    const verdict = /^(VALID|UNVERIFIED|INVALID)\b/.exec(comment)?.[1];
    if (verdict !== undefined) expect(run.stdout.startsWith(`${verdict}  `)).toBe(true);
    if (comment.startsWith('one result object per line'))
      expect(
        run.stdout
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l).verdict),
      ).toEqual(['valid', 'valid']);
  }
});
