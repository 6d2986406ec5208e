// The run viewer in Chromium: span tree and timeline, readable events, per-model totals, each
// event's _hash with its chain status, the cassette with its keys, and a 100k-event record
// that scrolls smoothly (virtualised lists).
import { describe, expect, it } from 'vitest';
import { oracleEntryOf, seqOrder } from '@runback/replay-digest';
import type { Page } from 'playwright-core';
import { chooseRecord, seriousViolations, verdictOf, pageSuite } from './browser.js';
import { manySmallEventsRecordText, SIGNER_PEM, validRecordText } from './records.js';
import { SCREENSHOTS } from './screenshots.js';

const suite = pageSuite();

async function openRun(text: string): Promise<Page> {
  const { page } = await suite.chrome.newPage();
  await page.goto(suite.site.url);
  await page.fill('#pem-text', SIGNER_PEM);
  await page.click('text=Add key');
  await chooseRecord(page, 'run.json', text);
  expect(await verdictOf(page)).toBe('valid');
  await page.click('[data-tab="run"]');
  await page.waitForSelector('#spans [data-span]');
  return page;
}

async function selectEvent(page: Page, index: number) {
  await page.click(`#run-events [data-event-index="${index}"]`);
  await page.waitForSelector(`[data-event-detail="${index}"]`);
  return page.locator(`[data-event-detail="${index}"]`);
}

describe('run viewer', () => {
  const text = validRecordText();
  const record = JSON.parse(text) as { events: { _hash: string }[] };

  it('shows the span tree with parallel tool spans side by side in time', async () => {
    const page = await openRun(text);
    const spans = await page.$$eval('#spans [data-span]', (rows) =>
      rows.map((r) => ({
        span: r.getAttribute('data-span'),
        depth: Number(r.getAttribute('data-depth')),
      })),
    );
    expect(spans[0]).toEqual({ span: 'r', depth: 0 });
    expect(spans.slice(1).map((s) => s.span)).toEqual(['l1', 't1', 't2', 'e1', 't3', 'l2']);
    expect(spans.slice(1).every((s) => s.depth === 1)).toBe(true);
    const bar = async (span: string) =>
      page.$eval(`#spans [data-span="${span}"] .bar`, (el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right };
      });
    const t1 = await bar('t1');
    const t2 = await bar('t2');
    // get_order (46–80 ms) and get_policy (47–60 ms) ran at once: their bars overlap.
    expect(t2.left).toBeLessThan(t1.right);
    expect(t1.left).toBeLessThan(t2.right);
    expect(await page.textContent('#spans [data-span="t3"]')).toContain('Error');
  });

  it('shows model calls as a conversation, tool arguments, errors and env reads, each with its _hash', async () => {
    const page = await openRun(text);
    const llm = await selectEvent(page, 1);
    expect(await llm.locator('.message').allTextContents()).toEqual([
      'systemYou decide refunds. Use the tools.',
      'userCan order O-7 be refunded?',
      expect.stringContaining('Let me look up the order and the policy.'),
    ]);
    expect(await llm.locator('.tool-call').allTextContents()).toEqual([
      expect.stringMatching(/calls get_order c1\s*\{\s*"order": "O-7"\s*\}/),
      expect.stringMatching(/calls get_policy c2\s*\{\s*"region": "EU"\s*\}/),
    ]);
    expect(await llm.locator('.hash').textContent()).toBe(record.events[1]!._hash);
    expect(await llm.locator('[data-chain]').getAttribute('data-chain')).toBe('intact');
    const tool = await selectEvent(page, 3);
    expect(await tool.locator('figure').first().textContent()).toMatch(
      /Arguments\s*\{\s*"order": "O-7"/,
    );
    const failed = await selectEvent(page, 5);
    expect(await failed.locator('.error-box').textContent()).toBe(
      '⚠ Error TimeoutError: mail gateway did not answer in 5 s',
    );
    const env = await selectEvent(page, 4);
    expect(await env.textContent()).toContain('Environment read now, key now');
    expect(await seriousViolations(page)).toEqual([]);
    await selectEvent(page, 1);
    await page.screenshot({ path: `${SCREENSHOTS}/viewer.png`, fullPage: true });
  });

  it('sums tokens and latency per model and lists the cassette entries with their keys', async () => {
    const page = await openRun(text);
    const models = await page.$$eval('[data-model]', (rows) =>
      rows.map((r) => [
        r.getAttribute('data-model'),
        ...[...r.querySelectorAll('td')].map((td) => td.textContent),
      ]),
    );
    // Two gpt-4o-mini calls: 120 + 200 input, 30 + 20 output tokens, 40 + 30 ms.
    expect(models).toEqual([['openai/gpt-4o-mini', '2', '320', '50', '370', '70 ms', '0']]);
    const events = (JSON.parse(text) as { events: unknown[] }).events;
    const keys = seqOrder(events)
      .map((i) => oracleEntryOf(events[i]))
      .filter((e) => e !== null)
      .map((e) => e.key);
    expect(keys).toHaveLength(6);
    expect(
      await page.$$eval('[data-cassette-key]', (rows) =>
        rows.map((r) => r.getAttribute('data-cassette-key')),
      ),
    ).toEqual(keys);
  });

  it('scrolls a 100k-event record smoothly: few rows in the DOM, frames keep coming', async () => {
    const page = await openRun(manySmallEventsRecordText(100_000));
    const list = page.locator('#run-events');
    expect(await list.getAttribute('data-count')).toBe('100000');
    const { gaps, rows } = await page.evaluate(async () => {
      const el = document.getElementById('run-events')!;
      const times: number[] = [];
      let most = 0;
      for (let step = 0; step <= 120; step++) {
        el.scrollTop = (el.scrollHeight * step) / 120;
        await new Promise((r) => requestAnimationFrame(r));
        times.push(performance.now());
        most = Math.max(most, el.querySelectorAll('[role="option"]').length);
      }
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      return { gaps: gaps.sort((a, b) => a - b), rows: most };
    });
    expect(rows).toBeLessThan(80);
    // The median frame during the scroll stays near the display's 16 ms; none freezes.
    expect(gaps[Math.floor(gaps.length / 2)]!).toBeLessThan(50);
    expect(gaps[gaps.length - 1]!).toBeLessThan(500);
    await page.waitForSelector('#run-events [data-event-index="99999"]');
    expect(await page.textContent('#run-events [data-event-index="99999"]')).toContain(
      'run end: success',
    );
    // Keyboard: End, then Home, move the selection and the view.
    await list.focus();
    await page.keyboard.press('Home');
    await page.waitForSelector('[data-event-detail="0"]');
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('[data-event-detail="1"]');
  });
});
