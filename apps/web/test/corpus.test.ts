// The page's verdicts equal the library's (the function `runback verify --json` prints) on
// every case of the verify corpus and on the records of the published implementation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyJson, type VerifyResult } from '@runback/verify';
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
  await page.goto(suite.site.url);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector('#record-file', { state: 'attached' });
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

async function pageResult(name: string, bytes: Buffer) {
  await chooseRecord(page, name, bytes);
  const verdict = await verdictOf(page);
  const codes = await page.$$eval('[data-error-code]', (els) =>
    els.map((e) => e.getAttribute('data-error-code')),
  );
  return { verdict, checks: await checksOf(page), codes };
}

function asPage(result: VerifyResult) {
  return {
    verdict: result.verdict,
    checks: Object.fromEntries(Object.entries(result.checks).map(([k, v]) => [k, String(v)])),
    codes: result.errors.map((e) => e.code),
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

describe('the page and the library give the same verdict', () => {
  it('has the whole corpus to compare', () => {
    expect(corpusCases.length).toBeGreaterThanOrEqual(45);
    if (process.env['CI'] === 'true') expect(publishedCases.length).toBe(5);
  });

  // One browser page, trust set once per distinct key set: 50 cases stay a few seconds.
  it.each([...corpusCases, ...publishedCases])('$label', async (c) => {
    const pem = (f: string) => readFileSync(join(c.dir, f), 'utf8');
    const pinned = (c.trust.pinned ?? []).map(pem);
    const revoked = (c.trust.revoked ?? []).map(pem);
    await trust(pinned, revoked, c.trust.hmac_key);
    const bytes = readFileSync(join(c.dir, c.file));
    const options =
      c.trust.hmac_key === undefined
        ? { pinned, revoked }
        : { pinned, revoked, hmacKey: c.trust.hmac_key };
    expect(await pageResult(c.file.split('/').pop()!, bytes)).toEqual(
      asPage(verifyJson(bytes, options)),
    );
  });
});
