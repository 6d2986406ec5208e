// The verifier page in Chromium: valid, tampered (broken event highlighted and scrolled to),
// unsigned, pinning a key, the service's published keys, ?url=, paste, the report download.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyJson } from '@runback/verify';
import type { Page } from 'playwright-core';
import { checksOf, chooseRecord, seriousViolations, verdictOf, pageSuite } from './browser.js';
import {
  OTHER_PEM,
  SIGNER_PEM,
  tamperedRecordText,
  unsignedRecordText,
  validRecordText,
} from './records.js';
import { SCREENSHOTS } from './screenshots.js';

const suite = pageSuite();

async function open(path = '') {
  const opened = await suite.chrome.newPage();
  await opened.page.goto(suite.site.url + path);
  await opened.page.waitForSelector('#record-file', { state: 'attached' });
  return opened;
}

async function pin(page: Page, pem: string, role: 'pinned' | 'revoked' = 'pinned') {
  await page.fill('#pem-text', pem);
  await page.selectOption('#pem-role', role);
  await page.click('text=Add key');
}

describe('verifier page', () => {
  it('shows valid for a signed record whose key is pinned, with the signer key id', async () => {
    const { page, errors } = await open();
    await pin(page, SIGNER_PEM);
    await chooseRecord(page, 'refund.json', validRecordText());
    expect(await verdictOf(page)).toBe('valid');
    expect(await checksOf(page)).toEqual({
      schema: 'true',
      consistent: 'true',
      chain: 'true',
      digest: 'true',
      cassette: 'true',
      signature: 'valid',
    });
    const expected = verifyJson(validRecordText(), { pinned: [SIGNER_PEM] });
    expect(await page.getAttribute('[data-signer-key-id]', 'data-signer-key-id')).toBe(
      expected.signer?.key_id,
    );
    expect(await page.getAttribute('[data-pinned]', 'data-pinned')).toBe('true');
    expect(await page.textContent('.verdict-means')).toContain('does not prove');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/verifier-valid.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it('shows unverified for an unsigned record, and for a signed one whose key is not pinned', async () => {
    const { page } = await open();
    await chooseRecord(page, 'unsigned.json', unsignedRecordText());
    expect(await verdictOf(page)).toBe('unverified');
    expect((await checksOf(page))['signature']).toBe('unsigned');
    expect(await page.textContent('[data-note-code]')).toContain('SIGNATURE_UNSIGNED');
    await chooseRecord(page, 'refund.json', validRecordText());
    await page.waitForSelector('[data-check="signature"][data-result="valid-unpinned"]');
    expect(await verdictOf(page)).toBe('unverified');
  });

  it('turns unverified into valid when the reader pins the signer, and remembers the key', async () => {
    const { page, context } = await open();
    await chooseRecord(page, 'refund.json', validRecordText());
    expect(await verdictOf(page)).toBe('unverified');
    await pin(page, OTHER_PEM);
    await page.waitForSelector('[data-key-id]');
    expect(await verdictOf(page)).toBe('unverified');
    await pin(page, SIGNER_PEM);
    await page.waitForSelector('[data-verdict="valid"]');
    // A new page of the same browser profile still pins both keys.
    const again = await context.newPage();
    await again.goto(suite.site.url);
    await again.waitForSelector('[data-key-id]');
    expect(await again.$$eval('[data-key-id]', (els) => els.length)).toBe(2);
    await chooseRecord(again, 'refund.json', validRecordText());
    expect(await verdictOf(again)).toBe('valid');
    // Revoking the signer's key makes the record invalid.
    await again.click(`[data-key-id] >> nth=1 >> text=Remove`);
    await pin(again, SIGNER_PEM, 'revoked');
    await again.waitForSelector('[data-verdict="invalid"]');
    expect((await checksOf(again))['signature']).toBe('revoked');
  });

  it('rejects a pasted key that is not an Ed25519 public key, with a message', async () => {
    const { page } = await open();
    await page.fill('#pem-text', 'not a key');
    await page.click('text=Add key');
    expect(await page.textContent('[role="alert"]')).toContain('expected a PEM public key');
    await page.fill('#pem-text', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----');
    await page.click('text=Add key');
    await page.waitForSelector('[role="alert"]');
    expect(await page.$$('[data-key-id]')).toHaveLength(0);
  });

  it('shows invalid for a tampered record, the broken event highlighted and scrolled to', async () => {
    const { page } = await open();
    await pin(page, SIGNER_PEM);
    await chooseRecord(page, 'tampered.json', tamperedRecordText());
    expect(await verdictOf(page)).toBe('invalid');
    const library = verifyJson(tamperedRecordText(), { pinned: [SIGNER_PEM] });
    const bad = library.errors.find((e) => e.event_index !== undefined)!;
    expect(bad.event_index).toBe(3);
    expect((await checksOf(page))['chain']).toBe('false');
    expect(await page.textContent(`[data-error-code="${bad.code}"]`)).toContain(bad.message);
    const row = page.locator('[data-event-index="3"]');
    await expect.poll(() => row.getAttribute('data-bad')).toBe('true');
    expect(await row.isVisible()).toBe(true);
    const inView = await row.evaluate((el) => {
      const list = el.closest('.vlist')!.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return r.top >= list.top && r.bottom <= list.bottom;
    });
    expect(inView).toBe(true);
    // The bad event is opened in the detail pane, with its chain status.
    await page.waitForSelector('[data-event-detail="3"] [data-chain="broken"]');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/verifier-invalid.png`, fullPage: true });
  });

  it('reads pasted text and ?url=, and pins the keys the service publishes', async () => {
    suite.site.routes.set('/records/refund.json', {
      body: validRecordText(),
      type: 'application/json',
    });
    suite.site.routes.set('/.well-known/runback-audit-keys.json', {
      body: JSON.stringify({
        keys: [
          { key_id: 'x', status: 'current', pem: SIGNER_PEM },
          { status: 'revoked', pem: OTHER_PEM },
        ],
      }),
      type: 'application/json',
    });
    try {
      const { page } = await open('?url=/records/refund.json');
      expect(await verdictOf(page)).toBe('valid');
      expect(await page.textContent('[data-role="pinned"]')).toContain('service');
      expect(await page.$$('[data-role="revoked"]')).toHaveLength(1);
      await page.click('text=Paste the record’s JSON instead');
      await page.fill('#record-text', unsignedRecordText());
      await page.click('text=Verify pasted text');
      await page.waitForSelector('[data-check="signature"][data-result="unsigned"]');
      expect(await verdictOf(page)).toBe('unverified');
    } finally {
      suite.site.routes.clear();
    }
  });

  it('says why a ?url= that does not answer cannot be read', async () => {
    const { page } = await open('?url=/records/missing.json');
    await page.waitForSelector('[data-failure]');
    expect(await page.textContent('[data-failure]')).toContain('expected HTTP 200');
  });

  it('downloads a report with the result, the file SHA-256, the keys and the verifier version', async () => {
    const { page } = await open();
    await pin(page, SIGNER_PEM);
    const text = tamperedRecordText();
    await chooseRecord(page, 'tampered.json', text);
    await verdictOf(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-action="download-report"]'),
    ]);
    const report = JSON.parse(readFileSync(await download.path(), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(download.suggestedFilename()).toBe('tampered.verification.json');
    expect(report['file']).toEqual({
      name: 'tampered.json',
      bytes: Buffer.byteLength(text),
      sha256: createHash('sha256').update(text).digest('hex'),
    });
    expect(report['result']).toEqual(
      JSON.parse(JSON.stringify(verifyJson(text, { pinned: [SIGNER_PEM] }))),
    );
    expect((report['keys'] as { role: string }[]).map((k) => k.role)).toEqual(['pinned']);
    expect(report['verifier']).toMatchObject({
      name: '@runback/verify',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(Date.parse(report['verified_at'] as string)).not.toBeNaN();
  });

  it('is keyboard operable with a visible focus', async () => {
    const { page } = await open();
    const reached: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (el === null || el === document.body)
          return { id: 'body', outline: 'n/a', width: 'n/a' };
        const focusBox = el.id === 'record-file' ? el.closest('.dropzone')! : el;
        const style = getComputedStyle(focusBox);
        return {
          id: el.id || el.getAttribute('data-tab') || el.textContent?.trim() || el.tagName,
          outline: style.outlineStyle,
          width: style.outlineWidth,
        };
      });
      reached.push(at.id);
      if (at.id === 'body') continue;
      // Every focused control draws a visible outline (the file input's drop zone for it).
      expect(`${at.id}: ${at.outline} ${at.width}`).not.toMatch(/ none |0px$/);
    }
    expect(reached).toEqual(
      expect.arrayContaining(['verify', 'run', 'diff', 'record-file', 'pem-text']),
    );
    // The view tabs answer Enter.
    await page.focus('[data-tab="diff"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#diff-title');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
