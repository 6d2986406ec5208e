// runback report on the example record and on hostile input: the sections it promises, the
// EU AI Act mapping with what the record cannot show, escaping, and determinism.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sealRecord } from '@runback/sign';
import { describe, expect, it } from 'vitest';
import { fakeIO, realisticRun, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

const EXAMPLE = new URL('../../../../examples/records/loan-approval.json', import.meta.url)
  .pathname;
const DEMO_KEY = new URL('../../../../examples/keys/demo.pub.pem', import.meta.url).pathname;

async function report(args: string[]) {
  const io = fakeIO();
  const status = await runCli(['report', ...args], io);
  return { status, out: io.out(), err: io.err() };
}

describe('runback report', () => {
  it('summarizes the example record: run, models, tools, decisions, cost, verification', async () => {
    const r = await report([EXAMPLE, '--pubkey', DEMO_KEY]);
    expect(r.status).toBe(0);
    for (const heading of [
      '## Run',
      '## Verification',
      '## Models',
      '## Tools',
      '## Decisions',
      '## Cost',
      '## Errors',
      '## Artifacts',
    ]) {
      expect(r.out).toContain(heading);
    }
    expect(r.out).toContain('- **verdict:** valid');
    expect(r.out).toContain('loan-approval-agent');
    expect(r.out).toMatch(/\| openai\/[^|]+ \| \d+ \|/);
    expect(r.out).not.toContain('EU AI Act');
    const unpinned = await report([EXAMPLE]);
    expect(unpinned.out).toContain('- **verdict:** unverified');
  });

  it('maps the record to Articles 12, 19 and 26 and lists what it cannot show', async () => {
    const r = await report([EXAMPLE, '--framework', 'eu-ai-act', '--pubkey', DEMO_KEY]);
    expect(r.status).toBe(0);
    expect(r.out).toContain('## EU AI Act: logging duties (Articles 12, 19, 26)');
    for (const article of [
      'Art. 12(1)',
      'Art. 12(3)(a)',
      'Art. 12(3)(d)',
      'Art. 19(1)',
      'Art. 26(6)',
      'Art. 26(2)',
    ]) {
      expect(r.out).toContain(`| ${article} |`);
    }
    expect(r.out).toMatch(
      /\| Art\. 12\(3\)\(a\) \| [^|]+ \| shown \| 2026-06-14T02:47:11\.000Z to 2026-06-14T02:47:13\.950Z/,
    );
    expect(r.out).toMatch(/\| Art\. 19\(1\) \| [^|]+ \| not shown \|/);
    expect(r.out).toContain('## What the record cannot show');
    expect(r.out).toContain('Whether the AI system is high-risk');
    expect(r.out).toContain('Not legal advice');
  });

  it('writes identical bytes twice, as Markdown and as HTML', async () => {
    const dir = tempDir();
    for (const format of ['md', 'html']) {
      const a = join(dir, `a.${format}`);
      const b = join(dir, `b.${format}`);
      expect((await report([EXAMPLE, '--format', format, '--out', a])).status).toBe(0);
      expect((await report([EXAMPLE, '--format', format, '--out', b, '--json'])).status).toBe(0);
      expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
    }
    expect(readFileSync(join(dir, 'a.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('escapes record-derived text in HTML and Markdown', async () => {
    const dir = tempDir();
    const { run, events } = realisticRun();
    const name = '<script>alert(1)</script> | **x**';
    const hostile = sealRecord(
      { run: { ...run, name }, events: events.map((e) => (e.type === 'run' ? { ...e, name } : e)) },
      { generatedAt: '2026-06-14T02:47:14.000Z' },
    );
    const path = join(dir, 'hostile.json');
    writeFileSync(path, JSON.stringify(hostile));
    const page = await report([path, '--format', 'html']);
    expect(page.out).not.toContain('<script>');
    expect(page.out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const md = await report([path]);
    expect(md.out).toContain('\\<script\\>alert(1)\\</script\\> \\| \\*\\*x\\*\\*');
  });

  it('refuses input that is not JSON and bad flags', async () => {
    const dir = tempDir();
    const path = join(dir, 'x.json');
    writeFileSync(path, '{not json');
    expect((await report([path])).status).toBe(1);
    expect((await report([EXAMPLE, '--format', 'pdf'])).status).toBe(64);
    expect((await report([EXAMPLE, '--framework', 'gdpr'])).status).toBe(64);
  });
});
