// runback sign warns when the record it is given was sealed and no longer verifies: its
// content was edited after sealing, and the new seal will cover the edit. The records here are
// the published implementation's signed sample, re-serialized the ways other producers write
// them (members reversed, pretty-printed), and the same edited: the warning must follow the
// content, whatever its layout.
import { generateEd25519KeyPair, privateKeyToPem } from '@runback/sign';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedVectorsDir } from '../../../test-support/vectors.js';
import { runCli } from '../src/run-cli.js';
import { fakeIO, membersReversed, publishedSample, tempDir } from './support.js';

const vectors = sharedVectorsDir();
const published = vectors === null ? null : join(vectors, 'runback-published');

async function sign(record: unknown) {
  const dir = tempDir();
  const input = join(dir, 'input.json');
  writeFileSync(input, JSON.stringify(membersReversed(record), null, 2));
  const key = join(dir, 'signer.key.pem');
  writeFileSync(key, privateKeyToPem(generateEd25519KeyPair().privateKey));
  const io = fakeIO();
  const status = await runCli(['sign', input, '--key', key, '--out', join(dir, 'out.json')], io);
  return { status, out: io.out(), err: io.err() };
}

describe.runIf(published !== null)('runback sign: warnings about a sealed input', () => {
  const sample = () => publishedSample(published as string);

  it('a published record, re-serialized, is resealed without a warning that it no longer verifies', async () => {
    const result = await sign(sample());
    expect(result.status).toBe(0);
    expect(result.out + result.err).not.toContain('no longer verifies');
  });

  it('the same record edited after sealing is resealed with a warning naming what broke', async () => {
    const record = sample();
    const tool = record.events.find((event) => event['type'] === 'tool');
    expect(tool).toBeDefined();
    (tool as Record<string, unknown>)['output'] = { edited: 'after sealing' };
    const result = await sign(record);
    expect(result.status).toBe(0);
    expect(result.out + result.err).toContain(
      'the input was a sealed record that no longer verifies (chain, digest, cassette)',
    );
  });
});
