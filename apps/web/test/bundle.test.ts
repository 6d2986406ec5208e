// Evidence bundles in the verifier page (Chromium): a bundle written by the built
// `runback bundle`, the same bundle with one artifact changed, and hostile archives from GNU
// tar. The page gunzips with DecompressionStream and reads the tar with @runback/bundle's
// reader in its worker; each verdict, error code, artifact result and record check equals
// the line the built `runback verify BUNDLE --json` prints for the same file and keys.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checksOf, chooseRecord, seriousViolations, verdictOf, pageSuite } from './browser.js';
import { CLI_BIN, makeBundles, SIGNER_PEM, type BundleFiles } from './bundles.js';
import { SCREENSHOTS } from './screenshots.js';

const suite = pageSuite();
let bundles: BundleFiles;
let pemFile: string;

/** The members of a `runback verify --json` line the page shows. */
interface CliLine {
  readonly verdict: string;
  readonly kind: string;
  readonly errors: readonly { readonly check: string; readonly code: string }[];
  readonly record: {
    readonly checks: Record<string, unknown>;
    readonly errors: readonly { readonly code: string }[];
  } | null;
  readonly artifacts: readonly { readonly name: string; readonly ok: boolean }[] | null;
}

function cliLine(file: string, pinned: boolean): CliLine {
  const run = spawnSync(
    process.execPath,
    [CLI_BIN, 'verify', '--json', file, ...(pinned ? ['--pubkey', pemFile] : [])],
    { encoding: 'utf8' },
  );
  if (run.error !== undefined) throw run.error;
  if (run.stdout.trim() === '')
    throw new Error(`expected a JSON line from runback verify, got none (stderr: ${run.stderr})`);
  return JSON.parse(run.stdout.trim()) as CliLine;
}

async function open(pinned: boolean): Promise<{ page: Page; errors: string[] }> {
  const opened = await suite.chrome.newPage();
  await opened.page.goto(suite.site.url);
  await opened.page.waitForSelector('#record-file', { state: 'attached' });
  if (pinned) {
    await opened.page.fill('#pem-text', SIGNER_PEM);
    await opened.page.selectOption('#pem-role', 'pinned');
    await opened.page.click('text=Add key');
  }
  return opened;
}

/** What the page shows for the bundle in hand, in the CLI line's terms. */
async function shown(page: Page) {
  const verdict = await verdictOf(page);
  const codes = await page.$$eval('[data-bundle-error-code]', (els) =>
    els.map((e) => e.getAttribute('data-bundle-error-code')),
  );
  const artifacts = await page.$$eval('[data-artifact]', (rows) =>
    rows.map((r) => ({
      name: r.getAttribute('data-artifact'),
      ok: r.getAttribute('data-result') === 'true',
    })),
  );
  const recordCodes = await page.$$eval('[data-error-code]', (els) =>
    els.map((e) => e.getAttribute('data-error-code')),
  );
  return { verdict, codes, artifacts, checks: await checksOf(page), recordCodes };
}

function expectedFrom(line: CliLine) {
  return {
    verdict: line.verdict,
    codes: line.errors.map((e) => e.code),
    artifacts: (line.artifacts ?? []).map((a) => ({ name: a.name, ok: a.ok })),
    checks: Object.fromEntries(
      Object.entries(line.record?.checks ?? {}).map(([k, v]) => [k, String(v)]),
    ),
    recordCodes: (line.record?.errors ?? []).map((e) => e.code),
  };
}

beforeAll(() => {
  bundles = makeBundles();
  pemFile = `${bundles.dir}/signer.pub.pem`;
  writeFileSync(pemFile, SIGNER_PEM);
});

describe('evidence bundles in the verifier page', () => {
  it('verifies a genuine bundle: valid with the key pinned, every artifact and SHA256SUMS', async () => {
    const { page, errors } = await open(true);
    const file = bundles.files['genuine']!;
    await chooseRecord(page, 'run_webbundle1.tar.gz', readFileSync(file));
    const line = cliLine(file, true);
    expect(line).toMatchObject({ kind: 'bundle', verdict: 'valid' });
    expect(await shown(page)).toEqual(expectedFrom(line));
    expect(await page.getAttribute('[data-bundle-verdict]', 'data-bundle-verdict')).toBe('valid');
    expect(await page.getAttribute('.bundle [data-sums]', 'data-sums')).toBe('ok');
    const listed = await page.$$eval('[data-bundle-file]', (rows) =>
      rows.map((r) => [r.getAttribute('data-bundle-file'), r.getAttribute('data-sums')]),
    );
    expect(listed).toEqual(
      expect.arrayContaining([
        ['record.json', 'ok'],
        ['artifacts/decision.json', 'ok'],
        ['artifacts/evidence/score.txt', 'ok'],
        ['SHA256SUMS', 'self'],
      ]),
    );
    // The bundled record opens in the run viewer like a record file.
    await page.click('text=Open in run viewer');
    await page.waitForSelector('[data-run-verdict="valid"]');
    await page.click('[data-tab="verify"]');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/verifier-bundle.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('reads a bundle dropped on the page: unverified without a pinned key, valid once pinned, like the CLI', async () => {
    const { page, errors } = await open(false);
    const file = bundles.files['genuine']!;
    const base64 = readFileSync(file).toString('base64');
    const transfer = await page.evaluateHandle((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'run_webbundle1.tar.gz', { type: 'application/gzip' }));
      return data;
    }, base64);
    await page.dispatchEvent('[data-dropzone="record"]', 'drop', { dataTransfer: transfer });
    const line = cliLine(file, false);
    expect(line.verdict).toBe('unverified');
    expect(await shown(page)).toEqual(expectedFrom(line));
    // Pinning the signer's key re-verifies the bundle in hand: now as the CLI with --pubkey.
    await page.fill('#pem-text', SIGNER_PEM);
    await page.selectOption('#pem-role', 'pinned');
    await page.click('text=Add key');
    await page.waitForSelector('[data-verdict="valid"]');
    expect(await shown(page)).toEqual(expectedFrom(cliLine(file, true)));
    expect(errors).toEqual([]);
  });

  it('refuses a bundle whose artifact was changed, naming the artifact and SHA256SUMS', async () => {
    const { page } = await open(true);
    const file = bundles.files['tampered']!;
    await chooseRecord(page, 'tampered.tar.gz', readFileSync(file));
    const line = cliLine(file, true);
    expect(line.verdict).toBe('invalid');
    expect(line.errors.map((e) => e.code)).toEqual(
      expect.arrayContaining(['BUNDLE_ARTIFACT_MISMATCH', 'BUNDLE_SUMS_MISMATCH']),
    );
    expect(await shown(page)).toEqual(expectedFrom(line));
    expect(await page.getAttribute('[data-artifact="decision.json"]', 'data-result')).toBe('false');
    expect(await page.getAttribute('.bundle [data-sums]', 'data-sums')).toBe('mismatch');
    expect(
      await page.getAttribute('[data-bundle-file="artifacts/decision.json"]', 'data-sums'),
    ).toBe('mismatch');
    expect(await page.textContent('.bundle')).toContain('expected artifacts/decision.json to be');
    // The record itself is intact: its checks pass, the bundle is what fails.
    expect((await checksOf(page))['chain']).toBe('true');
  });

  it.each([
    ['symlink', 'BUNDLE_ENTRY_TYPE', /symlink/],
    ['two-roots', 'BUNDLE_TOP_LEVEL', /one top-level directory, got 2/],
    ['dotdot', 'BUNDLE_UNSAFE_PATH', /\.\./],
    ['absolute', 'BUNDLE_UNSAFE_PATH', /\/tmp\//],
  ])('refuses the hostile archive %s with a clear reason', async (name, code, reason) => {
    const { page, errors } = await open(true);
    const file = bundles.files[name]!;
    await chooseRecord(page, `${name}.tar.gz`, readFileSync(file));
    const line = cliLine(file, true);
    expect(line.verdict).toBe('invalid');
    expect(line.errors.map((e) => e.code)).toContain(code);
    expect(await shown(page)).toEqual(expectedFrom(line));
    expect(await page.$('[data-bundle-refused]')).not.toBeNull();
    const said = await page.textContent(`[data-bundle-error-code="${code}"]`);
    expect(said).toMatch(reason);
    expect(errors).toEqual([]);
  });
});
