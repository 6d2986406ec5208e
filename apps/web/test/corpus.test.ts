// The page's verdicts equal what the built `runback verify --json` prints, on every case of the
// verify corpus and on the records of the published implementation: the expected side is the
// CLI's output line per file, not a library call inside the test.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CORPUS_DIR, loadCorpus, type CorpusTrust } from '../../../test-support/corpus.js';
import { sharedVectorsDir } from '../../../test-support/vectors.js';
import { checksOf, chooseRecord, verdictOf, pageSuite } from './browser.js';

const suite = pageSuite();
let page: Page;

beforeAll(async () => {
  page = (await suite.chrome.newPage()).page;
});

/** Sets the page's trust to exactly these keys (clears storage and reloads when they change). */
let lastTrust = '';
async function trust(pinned: string[], revoked: string[], hmacKey: string | undefined) {
  const wanted = JSON.stringify([pinned, revoked, hmacKey]);
  if (wanted === lastTrust) return;
  lastTrust = wanted;
  // The page stores its keys from an effect that runs after it renders, which can come after
  // a clear() made right after load and write the previous keys back: clear once the page has
  // settled, reload, and repeat until the reloaded page starts with no stored keys.
  await page.goto(suite.site.url);
  for (let attempt = 0; ; attempt++) {
    await settled();
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await settled();
    const stored = await page.evaluate(() => Object.values(localStorage) as string[]);
    if (stored.every((value) => value === '[]')) break;
    if (attempt === 4) throw new Error('expected the page to start with no stored keys, got some');
  }
  for (const [pems, role] of [
    [pinned, 'pinned'],
    [revoked, 'revoked'],
  ] as const) {
    for (const pem of pems) {
      await page.fill('#pem-text', pem);
      await page.selectOption('#pem-role', role);
      await page.click('text=Add key');
    }
  }
  if (hmacKey !== undefined) {
    await page.click('text=HMAC-SHA256 records: shared key');
    await page.fill('#hmac-key', hmacKey);
    await page.click('text=Use key');
  }
}

/** Waits until the page has rendered and its effects have run (two frames and a task). */
async function settled(): Promise<void> {
  await page.waitForSelector('#record-file', { state: 'attached' });
  await page.evaluate(
    () =>
      new Promise<void>((done) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))),
      ),
  );
}

async function pageResult(name: string, bytes: Buffer) {
  await chooseRecord(page, name, bytes);
  const verdict = await verdictOf(page);
  const codes = await page.$$eval('[data-error-code]', (els) =>
    els.map((e) => e.getAttribute('data-error-code')),
  );
  return { verdict, checks: await checksOf(page), codes };
}

/** The fields of one `runback verify --json` line that the page shows. */
interface CliLine {
  readonly file: string;
  readonly verdict: string;
  readonly checks: Record<string, unknown>;
  readonly errors: readonly { readonly code: string }[];
}

function asPage(line: CliLine) {
  return {
    verdict: line.verdict,
    checks: Object.fromEntries(Object.entries(line.checks).map(([k, v]) => [k, String(v)])),
    codes: line.errors.map((e) => e.code),
  };
}

interface Case {
  readonly label: string;
  readonly file: string;
  readonly trust: CorpusTrust;
  readonly dir: string;
}

const corpusCases: Case[] = loadCorpus().map((c) => ({
  label: `${c.file} [${Object.keys(c.trust).join(',') || 'no keys'}]`,
  file: c.file,
  trust: c.trust,
  dir: CORPUS_DIR,
}));
const shared = sharedVectorsDir();
const publishedCases: Case[] =
  shared === null
    ? []
    : [
        { file: 'sample-cassette.ed25519.json', trust: { pinned: ['signer.pub.pem'] } },
        { file: 'sample-cassette.ed25519.json', trust: {} },
        { file: 'sample-cassette.hmac.json', trust: { hmac_key: 'community-shared-secret-ü' } },
        { file: 'sample-cassette.hmac.json', trust: {} },
        { file: 'sample-cassette.unsigned.json', trust: {} },
      ].map((c) => ({
        ...c,
        label: `runback-published/${c.file} [${Object.keys(c.trust).join(',') || 'no keys'}]`,
        dir: join(shared, 'runback-published'),
      }));

const CLI_BIN = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));

/** The same keys as the page is given, as `runback verify` flags (PEM paths relative to dir). */
function cliFlags(c: Case): string[] {
  const flags: string[] = [];
  for (const f of c.trust.pinned ?? []) flags.push('--pubkey', join(c.dir, f));
  for (const f of c.trust.revoked ?? []) flags.push('--revoked', join(c.dir, f));
  if (c.trust.hmac_key !== undefined) flags.push('--key', c.trust.hmac_key);
  return flags;
}

/**
 * Runs the CLI once per distinct key set, all of that set's files as arguments, and returns
 * each case's line (the CLI prints one line per FILE, in argument order, naming it in `file`).
 */
function cliLines(cases: readonly Case[]): Map<Case, CliLine> {
  const groups = new Map<string, Case[]>();
  for (const c of cases) {
    const key = JSON.stringify(cliFlags(c));
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const lines = new Map<Case, CliLine>();
  for (const group of groups.values()) {
    const files = group.map((c) => join(c.dir, c.file));
    const run = spawnSync(
      process.execPath,
      [CLI_BIN, 'verify', '--json', ...files, ...cliFlags(group[0]!)],
      { encoding: 'utf8' },
    );
    if (run.error !== undefined) throw run.error;
    if (run.stderr !== '')
      throw new Error(`expected no stderr from runback verify, got ${run.stderr}`);
    const out = run.stdout.trim().split('\n');
    if (out.length !== group.length) {
      throw new Error(`expected ${group.length} JSON lines from runback verify, got ${out.length}`);
    }
    group.forEach((c, i) => {
      const line = JSON.parse(out[i]!) as CliLine;
      if (line.file !== files[i]) {
        throw new Error(`expected the line for ${files[i]}, got one for ${line.file}`);
      }
      lines.set(c, line);
    });
  }
  return lines;
}

const allCases = [...corpusCases, ...publishedCases];
let cli: Map<Case, CliLine>;
beforeAll(() => {
  cli = cliLines(allCases);
});

describe('the page and runback verify --json give the same verdict', () => {
  it('has the whole corpus to compare', () => {
    expect(corpusCases.length).toBeGreaterThanOrEqual(45);
    if (process.env['CI'] === 'true') expect(publishedCases.length).toBe(5);
  });

  // One browser page, trust set once per distinct key set: 50 cases stay a few seconds.
  it.each(allCases)('$label', async (c) => {
    const pem = (f: string) => readFileSync(join(c.dir, f), 'utf8');
    const pinned = (c.trust.pinned ?? []).map(pem);
    const revoked = (c.trust.revoked ?? []).map(pem);
    await trust(pinned, revoked, c.trust.hmac_key);
    const bytes = readFileSync(join(c.dir, c.file));
    const expected = cli.get(c);
    expect(expected, `runback verify --json printed a line for ${c.file}`).toBeDefined();
    expect(await pageResult(c.file.split('/').pop()!, bytes)).toEqual(asPage(expected!));
  });
});
