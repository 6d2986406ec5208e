// Anchors: `heads.jsonl` holds one canonical JSON line (docs/spec.md §2) per record, sorted by
// run id — {cassette_digest, content_digest, event_count, run_id} and, when a report is
// pinned, report_sha256 — and `heads.sha256` the SHA-256 of that file. Publishing the one
// digest somewhere outside the operator's control (a public commit, a timestamping service,
// a transparency log) fixes every listed record in time: a record that still matches its line
// cannot have been rewritten after the digest was published.
import { canonical } from '@runback/canonical';
import { readJsonStrict } from '@runback/verify';
import { sha256Hex } from './sums.js';

/** One anchored record. */
export interface AnchorLine {
  readonly run_id: string;
  readonly content_digest: string;
  readonly cassette_digest: string;
  readonly event_count: number;
  readonly report_sha256?: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const enc = new TextEncoder();

/** The anchor line of a sealed record (its manifest's values), with an optional report digest. */
export function anchorLineOf(record: unknown, reportSha256?: string): AnchorLine | null {
  const m = (record as { manifest?: Record<string, unknown> } | null)?.manifest;
  const replay = m?.['replay'] as Record<string, unknown> | undefined;
  const line = {
    run_id: m?.['run_id'],
    content_digest: m?.['content_digest'],
    cassette_digest: replay?.['cassette_digest'],
    event_count: m?.['event_count'],
    ...(reportSha256 === undefined ? {} : { report_sha256: reportSha256 }),
  };
  return lineProblem(line) === null ? (line as AnchorLine) : null;
}

function lineProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected an object';
  const o = v as Record<string, unknown>;
  const allowed = new Set([
    'run_id',
    'content_digest',
    'cassette_digest',
    'event_count',
    'report_sha256',
  ]);
  const extra = Object.keys(o).find((k) => !allowed.has(k));
  if (extra !== undefined)
    return `expected only run_id, content_digest, cassette_digest, event_count and report_sha256, got ${JSON.stringify(extra)}`;
  if (typeof o['run_id'] !== 'string' || o['run_id'] === '')
    return 'expected run_id to be a non-empty string';
  for (const k of ['content_digest', 'cassette_digest'] as const) {
    if (typeof o[k] !== 'string' || !SHA256_HEX.test(o[k]))
      return `expected ${k} to be 64 lowercase hex digits`;
  }
  if (
    typeof o['event_count'] !== 'number' ||
    !Number.isSafeInteger(o['event_count']) ||
    o['event_count'] < 0
  )
    return 'expected event_count to be an integer >= 0';
  if (
    o['report_sha256'] !== undefined &&
    (typeof o['report_sha256'] !== 'string' || !SHA256_HEX.test(o['report_sha256']))
  ) {
    return 'expected report_sha256 to be 64 lowercase hex digits';
  }
  return null;
}

/** The heads.jsonl text of lines (sorted by run id; one run id once) and its SHA-256. */
export function formatAnchors(lines: readonly AnchorLine[]): { text: string; sha256: string } {
  const sorted = [...lines].sort((a, b) =>
    a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0,
  );
  sorted.forEach((l, i) => {
    if (i > 0 && sorted[i - 1]?.run_id === l.run_id)
      throw new TypeError(`expected each run id once, got ${l.run_id} twice`);
  });
  const text = sorted.map((l) => canonical(l) + '\n').join('');
  return { text, sha256: sha256Hex(enc.encode(text)) };
}

/** Reads heads.jsonl strictly: canonical lines, sorted by run id, no repeats. */
export function parseAnchors(
  bytes: Uint8Array,
): { ok: true; lines: Map<string, AnchorLine>; sha256: string } | { ok: false; message: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: 'expected UTF-8 text' };
  }
  if (text !== '' && !text.endsWith('\n'))
    return { ok: false, message: 'expected every line to end with a newline' };
  const lines = new Map<string, AnchorLine>();
  let previous: string | null = null;
  for (const [i, line] of text.split('\n').slice(0, -1).entries()) {
    const parsed = readJsonStrict(enc.encode(line));
    if (!parsed.ok) return { ok: false, message: `line ${i + 1}: ${parsed.error.message}` };
    const problem = lineProblem(parsed.value);
    if (problem !== null) return { ok: false, message: `line ${i + 1}: ${problem}` };
    if (canonical(parsed.value) !== line)
      return {
        ok: false,
        message: `line ${i + 1}: expected canonical JSON (sorted members, no spaces)`,
      };
    const value = parsed.value as AnchorLine;
    if (previous !== null && !(previous < value.run_id))
      return {
        ok: false,
        message: `line ${i + 1}: expected lines sorted by run_id, each once (${value.run_id} after ${previous})`,
      };
    previous = value.run_id;
    lines.set(value.run_id, value);
  }
  return { ok: true, lines, sha256: sha256Hex(bytes) };
}

/** Problems of a record against its anchor line (empty when it matches). */
export function checkAnchor(
  line: AnchorLine | undefined,
  record: AnchorLine,
  reportSha256: string | undefined,
): string[] {
  if (line === undefined) return [`expected an anchor line for ${record.run_id}, got none`];
  const out: string[] = [];
  for (const k of ['content_digest', 'cassette_digest', 'event_count'] as const) {
    if (line[k] !== record[k])
      out.push(`expected ${k} ${String(line[k])} as anchored, got ${String(record[k])}`);
  }
  if (line.report_sha256 !== undefined) {
    if (reportSha256 === undefined)
      out.push('expected the anchored report (report_sha256), got no report to check');
    else if (reportSha256 !== line.report_sha256)
      out.push(
        `expected the report's sha256 ${line.report_sha256} as anchored, got ${reportSha256}`,
      );
  }
  return out;
}
