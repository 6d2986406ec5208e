// docs/spec.md §9: every value of the worked example is recomputed here, from the record in
// the document, so the spec cannot drift from the code. The signature is also checked with
// node:crypto, an implementation independent of ours.
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonical, canonicalWithout, sha256Hex } from '@runback/canonical';
import { describe, expect, it } from 'vitest';
import { verifyJson } from './verify.js';

const specPath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'spec.md');
const spec = readFileSync(specPath, 'utf8');
const section = spec.slice(spec.indexOf('## 9. Worked example'));

/** The fenced block after `<!-- spec-example:NAME -->`. */
function block(name: string): string {
  const marker = `<!-- spec-example:${name} -->`;
  const start = section.indexOf(marker);
  if (start < 0) throw new Error(`expected ${marker} in docs/spec.md, got none`);
  const open = section.indexOf('\n', section.indexOf('```', start)) + 1;
  return section.slice(open, section.indexOf('\n```', open));
}

/** Whether the section has a table row `| label | \`value\` |` (cell padding ignored). */
function hasRow(label: string, value: string): boolean {
  return section.split('\n').some((line) => {
    const cells = line.split('|').map((c) => c.trim());
    return cells[1] === label && cells[2] === '`' + value + '`';
  });
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const recordText = block('record');
const record = JSON.parse(recordText) as Json;

describe('docs/spec.md worked example', () => {
  it('verifies as valid with its inline key pinned', () => {
    const result = verifyJson(recordText, {
      pinned: [record['manifest']['signature']['pubkey'] as string],
    });
    expect(result.verdict).toBe('valid');
  });

  it('shows the canonical text of event 0', () => {
    expect(canonicalWithout(record['events'][0], '_hash')).toBe(block('canonical-event-0'));
  });

  it('lists the chain hashes and the content digest the record carries', () => {
    let h = '';
    const events = record['events'] as Json[];
    events.forEach((event, i) => {
      h = sha256Hex(h + canonicalWithout(event, '_hash'));
      expect(hasRow(String(i + 1), h)).toBe(true);
      expect(event['_hash']).toBe(h);
    });
    expect(section).toContain(`content_digest = h_4 = ${h}`);
    expect(record['manifest']['content_digest']).toBe(h);
  });

  it('lists the oracle entries and the cassette digest', () => {
    const tool = record['events'][1] as Json;
    const key = sha256Hex('tool:get_order:' + canonical({ order: tool['input']['order'] }));
    const entry1 = canonical({ kind: 'tool', key, output: tool['output'] });
    const entry2 = canonical({ kind: 'now', key: 'now', output: record['events'][2]['output'] });
    expect(hasRow('1', entry1)).toBe(true);
    expect(hasRow('2', entry2)).toBe(true);
    const c2 = sha256Hex(sha256Hex(entry1) + entry2);
    expect(section).toContain(`cassette_digest = c_2 = ${c2}`);
    expect(record['manifest']['replay']).toMatchObject({ cassette_digest: c2, entry_count: 2 });
  });

  it('carries a signature that node:crypto accepts over content_digest:cassette_digest', () => {
    const { manifest } = record;
    const payload = Buffer.from(
      `${manifest['content_digest']}:${manifest['replay']['cassette_digest']}`,
      'utf8',
    );
    const key = createPublicKey(manifest['signature']['pubkey'] as string);
    expect(
      nodeVerify(null, payload, key, Buffer.from(manifest['signature']['value'] as string, 'hex')),
    ).toBe(true);
    const der = key.export({ type: 'spki', format: 'der' });
    expect(sha256Hex(new Uint8Array(der))).toBe(manifest['signature']['key_id']);
  });
});
