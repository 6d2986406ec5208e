// RFC 6962 conformance: every inclusion and consistency case of transparency-dev/merkle's
// testdata (../shared/vectors/merkle), the good ones accepted and every mutated one rejected.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { base64 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { readVectorJson, sharedVectorsDir } from '../../../test-support/vectors.js';
import { verifyConsistency } from './verify-consistency.js';
import { verifyInclusion } from './verify-inclusion.js';

const dir = sharedVectorsDir();
const suite = dir ? describe : describe.skip;

interface InclusionCase {
  leafIdx: number;
  treeSize: number;
  root: string;
  leafHash: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

interface ConsistencyCase {
  size1: number;
  size2: number;
  root1: string;
  root2: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

/** Every JSON file below merkle/<kind>, at any depth, as path parts below the vectors folder. */
function cases(root: string, kind: string): string[][] {
  const walk = (parts: string[]): string[][] =>
    readdirSync(join(root, ...parts))
      .sort()
      .flatMap((name) => {
        const next = [...parts, name];
        if (statSync(join(root, ...next)).isDirectory()) return walk(next);
        return name.endsWith('.json') ? [next] : [];
      });
  return walk(['merkle', kind]);
}

const decode = (text: string): Uint8Array => base64.decode(text);

suite('RFC 6962 inclusion proofs (transparency-dev testdata)', () => {
  const root = dir ?? '';
  const files = dir ? cases(root, 'inclusion') : [];

  it('reads the whole corpus, good and mutated cases', () => {
    const all = files.map((f) => readVectorJson<InclusionCase>(root, ...f));
    expect(files.length).toBeGreaterThan(50);
    expect(all.filter((c) => !c.wantErr).length).toBeGreaterThanOrEqual(5);
    expect(all.filter((c) => c.wantErr).length).toBeGreaterThan(40);
  });

  for (const file of files) {
    it(file.slice(2).join('/'), () => {
      const c = readVectorJson<InclusionCase>(root, ...file);
      const result = verifyInclusion({
        leafIndex: c.leafIdx,
        treeSize: c.treeSize,
        leafHash: decode(c.leafHash),
        proof: (c.proof ?? []).map(decode),
        root: decode(c.root),
      });
      expect({ desc: c.desc, ok: result.ok }).toEqual({ desc: c.desc, ok: !c.wantErr });
    });
  }
});

suite('RFC 6962 consistency proofs (transparency-dev testdata)', () => {
  const root = dir ?? '';
  const files = dir ? cases(root, 'consistency') : [];

  it('reads the whole corpus, good and mutated cases', () => {
    const all = files.map((f) => readVectorJson<ConsistencyCase>(root, ...f));
    expect(files.length).toBeGreaterThan(80);
    expect(all.filter((c) => !c.wantErr).length).toBeGreaterThanOrEqual(6);
  });

  for (const file of files) {
    it(file.slice(2).join('/'), () => {
      const c = readVectorJson<ConsistencyCase>(root, ...file);
      const result = verifyConsistency({
        size1: c.size1,
        size2: c.size2,
        root1: decode(c.root1),
        root2: decode(c.root2),
        proof: (c.proof ?? []).map(decode),
      });
      expect({ desc: c.desc, ok: result.ok }).toEqual({ desc: c.desc, ok: !c.wantErr });
    });
  }
});
