// Recording an agent into a signed record file, then reading the file back and verifying it
// with @runback/verify against the signing key: what the tests assert on is what was written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateEd25519KeyPair } from '@runback/sign';
import { verifyJson, type VerifyResult } from '@runback/verify';
import type { LlmEvent, RecordedEvent } from '../../src/core/events.js';
import type { RunOptions } from '../../src/recorder/options.js';
import { record } from '../../src/recorder/recorder.js';
import { tempDir } from '../support/temp-dir.js';

/** A written record, read back. */
export interface WrittenRecord<T> {
  /** What the agent returned. */
  readonly output: T;
  /** The file and its text, byte for byte. */
  readonly path: string;
  readonly text: string;
  /** The public key the record is signed with. */
  readonly publicKey: Uint8Array;
  readonly verdict: VerifyResult;
  readonly events: readonly RecordedEvent[];
  /** The llm events, in seq order. */
  readonly llm: readonly LlmEvent[];
}

/** Records `agent` signed with a fresh Ed25519 key, and verifies the file with that key pinned. */
export async function recordToFile<T>(
  agent: () => Promise<T>,
  options: Partial<RunOptions> = {},
): Promise<WrittenRecord<T>> {
  const keys = generateEd25519KeyPair();
  const out = join(tempDir(), 'run.json');
  const { output } = await record(
    {
      name: 'provider-calls',
      out,
      signer: { alg: 'Ed25519', privateKey: keys.privateKey },
      ...options,
    },
    agent,
  );
  const text = readFileSync(out, 'utf8');
  const events = (JSON.parse(text) as { events: RecordedEvent[] }).events;
  const llm = events
    .filter((event): event is LlmEvent => event.type === 'llm')
    .sort((a, b) => a.seq - b.seq);
  const verdict = verifyJson(text, { pinned: [keys.publicKey] });
  return { output, path: out, text, publicKey: keys.publicKey, verdict, events, llm };
}
