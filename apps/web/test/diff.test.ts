// The diff view in Chromium shows exactly the changes of @runback/diff's diffRecords, the
// function `runback diff` prints, for two records of the same agent.
import { afterAll, describe, expect, it } from 'vitest';
import { diffRecords } from '@runback/diff';
import type { Page } from 'playwright-core';
import { seriousViolations, pageSuite } from './browser.js';
import { refundEvents, sealed, validRecordText } from './records.js';
import { SCREENSHOTS } from './screenshots.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const suite = pageSuite();
const dir = mkdtempSync(join(tmpdir(), 'runback-web-diff-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function compare(page: Page, a: string, b: string) {
  writeFileSync(join(dir, 'a.json'), a);
  writeFileSync(join(dir, 'b.json'), b);
  await page.goto(suite.site.url);
  await page.click('[data-tab="diff"]');
  await page.setInputFiles('#diff-file-a', join(dir, 'a.json'));
  await page.setInputFiles('#diff-file-b', join(dir, 'b.json'));
  await page.waitForSelector('[data-diff-equal]');
}

async function shown(page: Page) {
  return page.$$eval('[data-step-change]', (cards) =>
    cards.map((card) => ({
      change: card.getAttribute('data-step-change'),
      name: card.getAttribute('data-step-name'),
      ops: [...card.querySelectorAll('[data-op]')].map(
        (r) => `${r.getAttribute('data-op')} ${r.getAttribute('data-path')}`,
      ),
    })),
  );
}

describe('diff view', () => {
  it('shows the same step changes as runback diff', async () => {
    const a = validRecordText();
    const b = validRecordText({
      amount: 15,
      answer: 'Refund approved: the order total is 15.00 EUR.',
      filler: 1,
    });
    const expected = diffRecords(JSON.parse(a), JSON.parse(b));
    expect(expected.equal).toBe(false);
    expect(expected.counts.changed).toBeGreaterThan(0);
    expect(expected.counts.added).toBe(1);
    const { page } = await suite.chrome.newPage();
    await compare(page, a, b);
    expect(await page.getAttribute('[data-diff-equal]', 'data-diff-equal')).toBe('false');
    const c = expected.counts;
    expect(await page.getAttribute('[data-diff-counts]', 'data-diff-counts')).toBe(
      `${c.same} ${c.changed} ${c.added} ${c.removed}`,
    );
    expect(await shown(page)).toEqual(
      expected.steps.map((s) => ({
        change: s.change,
        name: s.name,
        ops: [...s.input, ...s.output].map((o) => `${o.op} ${o.path}`),
      })),
    );
    // The run's own output changed too (amount 12.5 → 15).
    const runOps = await page.$$eval('#diff-result-title ~ table [data-op]', (rows) =>
      rows.map((r) => `${r.getAttribute('data-op')} ${r.getAttribute('data-path')}`),
    );
    expect(runOps).toEqual(
      [...expected.run.input, ...expected.run.output, ...expected.run.error].map(
        (o) => `${o.op} ${o.path}`,
      ),
    );
    expect(
      await page.$$eval('[data-side-verdict]', (els) =>
        els.map((e) => e.getAttribute('data-side-verdict')),
      ),
    ).toEqual(['unverified', 'unverified']);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/diff.png`, fullPage: true });
  });

  it('shows a long answer changed 250 characters in as its changed words, on both sides', async () => {
    const head =
      'The order was delivered on time and the customer asked within the window. '.repeat(3);
    const answer = (word: string) =>
      `${head}Refund ${word}: the order total is 12.50 EUR. ${'No further checks apply. '.repeat(30)}`;
    expect(answer('approved').indexOf('approved')).toBeGreaterThan(200);
    const { page } = await suite.chrome.newPage();
    await compare(
      page,
      validRecordText({ answer: answer('approved') }),
      validRecordText({ answer: answer('refused') }),
    );
    const cells = await page.$$eval('[data-path="/text"] [data-text-diff]', (tds) =>
      tds.map((td) => ({
        side: td.getAttribute('data-text-diff'),
        del: [...td.querySelectorAll('del')].map((e) => e.textContent),
        ins: [...td.querySelectorAll('ins')].map((e) => e.textContent),
        text: td.textContent ?? '',
      })),
    );
    expect(cells.map(({ side, del, ins }) => ({ side, del, ins }))).toEqual([
      { side: 'a', del: ['approved'], ins: [] },
      { side: 'b', del: [], ins: ['refused'] },
    ]);
    // The words around the change are shown; the long unchanged stretches are not.
    for (const cell of cells) {
      expect(cell.text).toContain('the window. Refund ');
      expect(cell.text.length).toBeLessThan(200);
    }
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('says there is no semantic difference between two recordings of the same run', async () => {
    const a = validRecordText();
    // The same run a day later, slower: timestamps and latency are not what the run was asked
    // or answered, so they are no semantic difference.
    const later = refundEvents().map((event) => {
      const e = { ...event } as Record<string, unknown>;
      for (const m of ['ts_start', 'ts_end']) {
        e[m] = new Date(Date.parse(e[m] as string) + 86_400_000).toISOString();
      }
      if (typeof e['latency_ms'] === 'number') e['latency_ms'] = e['latency_ms'] * 3;
      return e;
    });
    const b = JSON.stringify(sealed(later), null, 4);
    expect(diffRecords(JSON.parse(a), JSON.parse(b)).equal).toBe(true);
    const { page } = await suite.chrome.newPage();
    await compare(page, a, b);
    expect(await page.getAttribute('[data-diff-equal]', 'data-diff-equal')).toBe('true');
    expect(await page.$$('[data-step-change]')).toHaveLength(0);
  });

  it('says which file is not a record', async () => {
    const { page } = await suite.chrome.newPage();
    writeFileSync(join(dir, 'a.json'), validRecordText());
    writeFileSync(join(dir, 'bad.json'), '{"events": 3}');
    await page.goto(suite.site.url);
    await page.click('[data-tab="diff"]');
    await page.setInputFiles('#diff-file-a', join(dir, 'a.json'));
    await page.setInputFiles('#diff-file-b', join(dir, 'bad.json'));
    await page.waitForSelector('[data-failure]');
    expect(await page.textContent('[data-failure]')).toContain(
      'expected bad.json to be a record with an events array',
    );
  });
});
