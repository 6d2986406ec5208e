// Anchors and release manifests: the genuine files accept their records, and any edited line,
// order, digest or pin is refused.
import { describe, expect, it } from 'vitest';
import { recordText } from '../test/fixtures.js';
import {
  anchorLineOf,
  checkAnchor,
  formatAnchors,
  parseAnchors,
  type AnchorLine,
} from './anchors.js';
import { checkRelease, formatManifest, parseManifest } from './manifest.js';

const enc = new TextEncoder();
const head = anchorLineOf(JSON.parse(recordText())) as AnchorLine;
const other: AnchorLine = {
  run_id: 'run_aaa',
  content_digest: '1'.repeat(64),
  cassette_digest: '2'.repeat(64),
  event_count: 4,
};
const report = '3'.repeat(64);

describe('anchors (heads.jsonl)', () => {
  it('writes sorted canonical lines and their digest, and reads them back', () => {
    const { text, sha256 } = formatAnchors([{ ...head, report_sha256: report }, other]);
    expect(text.split('\n')[0]).toBe(
      `{"cassette_digest":"${'2'.repeat(64)}","content_digest":"${'1'.repeat(64)}","event_count":4,"run_id":"run_aaa"}`,
    );
    const parsed = parseAnchors(enc.encode(text));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.sha256).toBe(sha256);
    expect(checkAnchor(parsed.lines.get(head.run_id), head, report)).toEqual([]);
  });

  it('refuses an edited digest, a missing or different report, and a missing line', () => {
    const { text } = formatAnchors([{ ...head, report_sha256: report }]);
    const parsed = parseAnchors(enc.encode(text));
    if (!parsed.ok) throw new Error(parsed.message);
    const line = parsed.lines.get(head.run_id);
    expect(checkAnchor(line, { ...head, content_digest: 'f'.repeat(64) }, report)).toHaveLength(1);
    expect(checkAnchor(line, head, undefined)).toHaveLength(1);
    expect(checkAnchor(line, head, '4'.repeat(64))).toHaveLength(1);
    expect(checkAnchor(undefined, head, report)).toHaveLength(1);
  });

  it.each([
    ['unsorted lines', (t: string) => t.split('\n').reverse().filter(Boolean).join('\n') + '\n'],
    ['spaces (not canonical)', (t: string) => t.replace('":"', '": "')],
    ['a missing final newline', (t: string) => t.slice(0, -1)],
    ['an extra member', (t: string) => t.replace('{"cassette', '{"author":"x","cassette')],
    ['a duplicate line', (t: string) => t + t.split('\n')[1] + '\n'],
  ])('refuses heads.jsonl with %s', (_label, edit) => {
    const { text } = formatAnchors([head, other]);
    expect(parseAnchors(enc.encode(edit(text))).ok).toBe(false);
  });
});

describe('release manifests', () => {
  const row = {
    ...head,
    files: { 'report.md': { sha256: report } },
    bundle: { sha256: '5'.repeat(64) },
  };

  it('accepts the released record, reports and bundle', () => {
    const parsed = parseManifest(enc.encode(formatManifest([row]).text));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(
      checkRelease(
        parsed.runs.get(head.run_id),
        head,
        new Map([['report.md', report]]),
        '5'.repeat(64),
      ),
    ).toEqual([]);
  });

  it('refuses another head, an edited report, another bundle, and a manifest without required members', () => {
    const parsed = parseManifest(enc.encode(formatManifest([row]).text));
    if (!parsed.ok) throw new Error(parsed.message);
    const r = parsed.runs.get(head.run_id);
    expect(
      checkRelease(r, { ...head, event_count: 99 }, new Map([['report.md', report]]), undefined),
    ).toHaveLength(1);
    expect(checkRelease(r, head, new Map([['report.md', '6'.repeat(64)]]), undefined)).toHaveLength(
      1,
    );
    expect(checkRelease(r, head, new Map(), undefined)).toHaveLength(1);
    expect(checkRelease(r, head, new Map([['report.md', report]]), '7'.repeat(64))).toHaveLength(1);
    expect(
      parseManifest(enc.encode('{"schema":"runback.release/v1","runs":[{"run_id":"x"}]}')).ok,
    ).toBe(false);
    expect(parseManifest(enc.encode('{"runs":[]}')).ok).toBe(false);
  });
});
