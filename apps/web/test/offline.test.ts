// The built page is static and self-contained: every request it makes goes to its own origin,
// it carries a strict Content-Security-Policy, and once loaded it verifies with the network off.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseRecord, DIST, verdictOf, pageSuite } from './browser.js';
import { tamperedRecordText, validRecordText } from './records.js';

const suite = pageSuite();

describe('offline, static build', () => {
  it('loads only its own files and verifies with the network disabled', async () => {
    const { page, context, errors } = await suite.chrome.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(suite.site.url);
    await page.waitForSelector('#record-file', { state: 'attached' });
    await context.setOffline(true);
    await chooseRecord(page, 'refund.json', validRecordText());
    expect(await verdictOf(page)).toBe('unverified');
    await chooseRecord(page, 'tampered.json', tamperedRecordText());
    await page.waitForSelector('[data-verdict="invalid"]');
    await page.click('[data-tab="run"]');
    await page.waitForSelector('#spans [data-span]');
    expect(errors).toEqual([]);
    const foreign = requests.filter(
      (u) => !u.startsWith(suite.site.url) && !u.startsWith('data:') && !u.startsWith('blob:'),
    );
    expect(foreign).toEqual([]);
  });

  it('ships a strict CSP and no reference to another host', () => {
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    for (const name of readdirSync(join(DIST, 'assets'))) {
      const text = readFileSync(join(DIST, 'assets', name), 'utf8');
      expect(text, name).not.toMatch(/(?:src|href)\s*=\s*["']https?:\/\//);
      expect(text, name).not.toMatch(/@import\s+url\(\s*["']?https?:/);
      expect(text, name).not.toMatch(/["']node:[a-z]/);
    }
  });
});
