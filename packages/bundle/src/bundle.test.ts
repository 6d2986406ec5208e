// Bundles end to end: reproducible bytes, the layout and tar headers as an independent reader
// (GNU tar) sees them, verification, and every kind of tampering refused with its reason.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { publicKeyFromPem } from '@runback/sign';
import tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, recordText, SIGNER_PEM } from '../test/fixtures.js';
import { writeBundle } from './node.js';
import { verifyBundle } from './verify-bundle.js';

const enc = new TextEncoder();
const pinned = { verify: { pinned: [SIGNER_PEM] } };
const work = mkdtempSync(join(tmpdir(), 'runback-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function bundle(
  overrides: { artifacts?: Map<string, Uint8Array>; record?: string; proof?: string } = {},
) {
  const written = await writeBundle({
    record: enc.encode(overrides.record ?? recordText()),
    artifacts: overrides.artifacts ?? ARTIFACTS,
    reportMd: '# Run run_bundle1\n',
    reportHtml: '<!doctype html><title>run_bundle1</title>\n',
    ...(overrides.proof === undefined ? {} : { proof: overrides.proof }),
  });
  if (!written.ok) throw new Error(JSON.stringify(written.issues));
  return written.bytes;
}

interface Entry {
  header: tar.Headers;
  body: Uint8Array;
}

/** The entries of a gzip tar (read with tar-stream, for rewriting). */
async function entriesOf(gz: Uint8Array): Promise<Entry[]> {
  const extract = tar.extract();
  const out: Entry[] = [];
  const done = (async () => {
    for await (const e of extract) {
      const chunks: Buffer[] = [];
      for await (const c of e) chunks.push(c);
      out.push({ header: { ...e.header }, body: Buffer.concat(chunks) });
    }
  })();
  extract.end(gunzipSync(gz));
  await done;
  return out;
}

/** A gzip tar of the given entries, in the given order. */
async function packOf(entries: readonly Entry[]): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const c of pack) chunks.push(c);
  })();
  for (const e of entries) {
    await new Promise<void>((resolve, reject) =>
      pack.entry(e.header, Buffer.from(e.body), (err) => (err ? reject(err) : resolve())),
    );
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

async function edit(gz: Uint8Array, fn: (entries: Entry[]) => Entry[]): Promise<Uint8Array> {
  return packOf(fn(await entriesOf(gz)));
}

const codes = (r: { errors: readonly { code: string }[] }) => [
  ...new Set(r.errors.map((e) => e.code)),
];

describe('writing bundles', () => {
  it('gives identical bytes for the same record and artifacts', async () => {
    const a = await bundle();
    const b = await bundle({ artifacts: new Map([...ARTIFACTS].reverse()) });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('writes the layout reproducibly: sorted entries, 0644, owner 0, the run end as mtime, gzip mtime 0', async () => {
    const gz = await bundle();
    expect([...gz.slice(4, 8)]).toEqual([0, 0, 0, 0]);
    const path = join(work, 'run_bundle1.tar.gz');
    writeFileSync(path, gz);
    const listing = execFileSync(
      'tar',
      ['-tvzf', path, '--numeric-owner', '--full-time', '--utc'],
      { encoding: 'utf8' },
    )
      .trim()
      .split('\n');
    const names = listing.map((l) => l.split(/\s+/).at(-1));
    expect(names).toEqual([
      'run_bundle1/README.txt',
      'run_bundle1/SHA256SUMS',
      'run_bundle1/artifacts/decision.json',
      'run_bundle1/artifacts/logs/score.txt',
      'run_bundle1/record.json',
      'run_bundle1/report.html',
      'run_bundle1/report.md',
    ]);
    for (const line of listing) {
      expect(line).toMatch(/^-rw-r--r-- 0\/0 +\d+ 2026-06-14 02:47:13 /);
    }
    // sha256sum, run inside the extracted bundle, agrees with SHA256SUMS.
    execFileSync('tar', ['-xzf', path, '-C', work]);
    expect(
      execFileSync('sha256sum', ['-c', 'SHA256SUMS'], {
        cwd: join(work, 'run_bundle1'),
        encoding: 'utf8',
      }),
    ).toContain('record.json: OK');
    expect(readFileSync(join(work, 'run_bundle1', 'artifacts', 'logs', 'score.txt'), 'utf8')).toBe(
      'credit score 742\n',
    );
  });

  it('refuses a missing, altered or unnamed artifact and an invalid record', async () => {
    const missing = await writeBundle({
      record: enc.encode(recordText()),
      artifacts: new Map([...ARTIFACTS].slice(0, 1)),
    });
    expect(!missing.ok && missing.issues.map((i) => i.code)).toEqual(['BUNDLE_ARTIFACT_MISSING']);
    const altered = new Map(ARTIFACTS).set('decision.json', enc.encode('{"decision":"deny"}\n'));
    const bad = await writeBundle({ record: enc.encode(recordText()), artifacts: altered });
    expect(!bad.ok && bad.issues.map((i) => i.code)).toEqual(['BUNDLE_ARTIFACT_MISMATCH']);
    const extra = new Map(ARTIFACTS).set('secret.txt', enc.encode('x'));
    const unnamed = await writeBundle({ record: enc.encode(recordText()), artifacts: extra });
    expect(!unnamed.ok && unnamed.issues.map((i) => i.code)).toEqual(['BUNDLE_UNEXPECTED_FILE']);
    const invalid = await writeBundle({
      record: enc.encode(recordText().replace('"score": 742', '"score": 743')),
      artifacts: ARTIFACTS,
    });
    expect(!invalid.ok && invalid.issues.map((i) => i.code)).toEqual(['BUNDLE_RECORD_INVALID']);
  });
});

describe('verifying bundles', () => {
  it('accepts the genuine bundle: valid with the signer pinned, unverified without', async () => {
    const gz = await bundle();
    const result = await verifyBundle(gz, pinned);
    expect(result).toMatchObject({ verdict: 'valid', root: 'run_bundle1', errors: [] });
    expect(result.artifacts.map((a) => [a.name, a.ok])).toEqual([
      ['decision.json', true],
      ['logs/score.txt', true],
    ]);
    expect((await verifyBundle(gz)).verdict).toBe('unverified');
    expect(publicKeyFromPem(SIGNER_PEM)).toHaveLength(32);
  });

  it('refuses an edited artifact even when SHA256SUMS is updated to match', async () => {
    const gz = await edit(await bundle(), (entries) => {
      const art = entries.find((e) => e.header.name.endsWith('decision.json'))!;
      art.body = enc.encode('{"decision":"deny"}\n');
      art.header.size = art.body.length;
      return entries;
    });
    const r = await verifyBundle(gz, pinned);
    expect(r.verdict).toBe('invalid');
    expect(codes(r)).toEqual(['BUNDLE_ARTIFACT_MISMATCH', 'BUNDLE_SUMS_MISMATCH']);
  });

  it('refuses an edited record', async () => {
    const gz = await edit(await bundle(), (entries) => {
      const rec = entries.find((e) => e.header.name.endsWith('record.json'))!;
      rec.body = enc.encode(
        new TextDecoder().decode(rec.body).replace('"score": 742', '"score": 800'),
      );
      rec.header.size = rec.body.length;
      return entries;
    });
    const r = await verifyBundle(gz, pinned);
    expect(r.verdict).toBe('invalid');
    expect(codes(r)).toContain('BUNDLE_RECORD_INVALID');
    expect(r.record?.checks.chain).toBe(false);
  });

  it.each([
    [
      'a removed artifact',
      (es: Entry[]) => es.filter((e) => !e.header.name.endsWith('score.txt')),
      'BUNDLE_ARTIFACT_MISSING',
    ],
    [
      'an added file',
      (es: Entry[]) => [
        ...es,
        {
          header: { name: 'run_bundle1/artifacts/extra.bin', size: 1, type: 'file' as const },
          body: enc.encode('x'),
        },
      ],
      'BUNDLE_UNEXPECTED_FILE',
    ],
    [
      'a symlink',
      (es: Entry[]) => [
        ...es,
        {
          header: { name: 'run_bundle1/link', type: 'symlink' as const, linkname: '/etc/passwd' },
          body: new Uint8Array(),
        },
      ],
      'BUNDLE_ENTRY_TYPE',
    ],
    [
      'a hard link',
      (es: Entry[]) => [
        ...es,
        {
          header: {
            name: 'run_bundle1/hard',
            type: 'link' as const,
            linkname: 'run_bundle1/record.json',
          },
          body: new Uint8Array(),
        },
      ],
      'BUNDLE_ENTRY_TYPE',
    ],
    [
      'a device',
      (es: Entry[]) => [
        ...es,
        {
          header: {
            name: 'run_bundle1/dev',
            type: 'character-device' as const,
            devmajor: 1,
            devminor: 3,
          },
          body: new Uint8Array(),
        },
      ],
      'BUNDLE_ENTRY_TYPE',
    ],
    [
      'a fifo',
      (es: Entry[]) => [
        ...es,
        { header: { name: 'run_bundle1/fifo', type: 'fifo' as const }, body: new Uint8Array() },
      ],
      'BUNDLE_ENTRY_TYPE',
    ],
    [
      'an absolute path',
      (es: Entry[]) => [
        ...es,
        { header: { name: '/tmp/evil', size: 1, type: 'file' as const }, body: enc.encode('x') },
      ],
      'BUNDLE_UNSAFE_PATH',
    ],
    [
      'a ".." path',
      (es: Entry[]) => [
        ...es,
        {
          header: { name: 'run_bundle1/../../evil', size: 1, type: 'file' as const },
          body: enc.encode('x'),
        },
      ],
      'BUNDLE_UNSAFE_PATH',
    ],
    [
      'a second top-level directory',
      (es: Entry[]) => [
        ...es,
        {
          header: { name: 'other/record.json', size: 1, type: 'file' as const },
          body: enc.encode('x'),
        },
      ],
      'BUNDLE_TOP_LEVEL',
    ],
    [
      'a file at the top level',
      (es: Entry[]) => [
        ...es,
        { header: { name: 'loose.txt', size: 1, type: 'file' as const }, body: enc.encode('x') },
      ],
      'BUNDLE_TOP_LEVEL',
    ],
    [
      'a duplicate entry',
      (es: Entry[]) => [...es, { ...es.find((e) => e.header.name.endsWith('record.json'))! }],
      'BUNDLE_DUPLICATE_ENTRY',
    ],
    [
      'no SHA256SUMS',
      (es: Entry[]) => es.filter((e) => !e.header.name.endsWith('SHA256SUMS')),
      'BUNDLE_MISSING_FILE',
    ],
    [
      'no record',
      (es: Entry[]) => es.filter((e) => !e.header.name.endsWith('record.json')),
      'BUNDLE_MISSING_FILE',
    ],
    [
      'a renamed top-level directory',
      (es: Entry[]) =>
        es.map((e) => ({
          ...e,
          header: { ...e.header, name: e.header.name.replace('run_bundle1/', 'run_other/') },
        })),
      'BUNDLE_NAME_MISMATCH',
    ],
  ])('refuses %s', async (_label, fn, code) => {
    const r = await verifyBundle(await edit(await bundle(), fn), pinned);
    expect(r.verdict).toBe('invalid');
    expect(codes(r)).toContain(code);
  });

  it('refuses bytes that are not a gzip tar, cut off, or larger than the limits', async () => {
    const gz = await bundle();
    expect(codes(await verifyBundle(enc.encode(recordText())))).toEqual(['BUNDLE_NOT_GZIP']);
    expect(codes(await verifyBundle(gz.slice(0, gz.length - 40)))).toEqual(['BUNDLE_NOT_GZIP']);
    expect(
      codes(await verifyBundle(gzipSync(Buffer.from('not a tar archive at all'.repeat(40))))),
    ).toEqual(['BUNDLE_NOT_TAR']);
    expect(codes(await verifyBundle(gz, { limits: { maxBytes: 100 } }))).toEqual([
      'BUNDLE_TOO_LARGE',
    ]);
    expect(codes(await verifyBundle(gz, { limits: { maxEntries: 3 } }))).toEqual([
      'BUNDLE_TOO_LARGE',
    ]);
    // A zip bomb: a few KB of gzip that expands to 64 MiB of zeros.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(codes(await verifyBundle(bomb, { limits: { maxBytes: 1024 * 1024 } }))).toEqual([
      'BUNDLE_TOO_LARGE',
    ]);
  });
});
