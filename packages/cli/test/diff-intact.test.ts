// runback diff says, beside each side's run, whether the record verifies as intact. The
// records here are the published implementation's samples, re-serialized the ways other
// producers write them (members reversed, pretty-printed), and the same records edited after
// sealing: the flag must follow the record's content, whatever its layout.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedVectorsDir } from '../../../test-support/vectors.js';
import { runCli } from '../src/run-cli.js';
import { fakeIO, membersReversed, publishedSample, tempDir } from './support.js';

const vectors = sharedVectorsDir();
const published = vectors === null ? null : join(vectors, 'runback-published');

interface DiffJson {
  a: { intact: boolean; events: number };
  b: { intact: boolean; events: number };
  equal: boolean;
}

async function diff(a: string, b: string, json: boolean) {
  const io = fakeIO();
  const status = await runCli(['diff', a, b, ...(json ? ['--json'] : [])], io);
  return { status, out: io.out(), err: io.err() };
}

describe.runIf(published !== null)('runback diff: whether each side is intact', () => {
  const sample = () => publishedSample(published as string);

  it('a published record and the same re-serialized (members reversed, 2-space indent) are both intact and equal', async () => {
    const dir = tempDir();
    const original = join(published as string, 'sample-cassette.ed25519.json');
    const other = join(dir, 'reordered.json');
    writeFileSync(other, JSON.stringify(membersReversed(sample()), null, 2));
    const result = await diff(original, other, true);
    expect(result.err).toBe('');
    expect(result.status).toBe(0);
    const parsed = JSON.parse(result.out) as DiffJson;
    expect(parsed.a).toMatchObject({ intact: true, events: 6 });
    expect(parsed.b).toMatchObject({ intact: true, events: 6 });
    expect(parsed.equal).toBe(true);
    const human = await diff(original, other, false);
    expect(human.out).not.toContain('does not verify as intact');
  });

  it('a record edited after sealing is not intact, and the diff shows the edit', async () => {
    const dir = tempDir();
    const original = join(published as string, 'sample-cassette.ed25519.json');
    const record = sample();
    const tool = record.events.find((event) => event['type'] === 'tool');
    expect(tool).toBeDefined();
    (tool as Record<string, unknown>)['output'] = { edited: 'after sealing' };
    const edited = join(dir, 'edited.json');
    writeFileSync(edited, JSON.stringify(membersReversed(record), null, 2));
    const result = await diff(original, edited, true);
    expect(result.status).toBe(1);
    const parsed = JSON.parse(result.out) as DiffJson;
    expect(parsed.a.intact).toBe(true);
    expect(parsed.b.intact).toBe(false);
    expect(parsed.equal).toBe(false);
    const human = await diff(original, edited, false);
    const [lineA, lineB] = human.out.split('\n');
    expect(lineA).not.toContain('does not verify as intact');
    expect(lineB).toContain('edited.json');
    expect(lineB).toContain('does not verify as intact');
  });
});
