// Test support for the AI SDK integration: record an agent into a signed file, read it back and
// verify it as any reader would (the file's bytes, @runback/verify, the signer's key pinned).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateEd25519KeyPair } from '@runback/sign';
import { verifyJson, type VerifyResult } from '@runback/verify';
import { tempDir } from '../temp-dir.js';
import type { EnvEvent, LlmEvent, RecordedEvent, ToolEvent } from '../../../src/core/events.js';
import type { RunOptions } from '../../../src/recorder/options.js';
import { record } from '../../../src/recorder/recorder.js';

/** A run as it was written. */
export interface WrittenRun<T> {
  readonly output: T;
  /** The record file's text. */
  readonly text: string;
  readonly events: readonly RecordedEvent[];
  readonly llm: readonly LlmEvent[];
  readonly tools: readonly ToolEvent[];
  readonly env: readonly EnvEvent[];
  readonly verdict: VerifyResult;
}

/** Records `agent` with a fresh Ed25519 key, writes the record, and verifies it with the key pinned. */
export async function recordToFile<T>(
  agent: () => Promise<T>,
  options: Omit<RunOptions, 'name' | 'out' | 'signer'> = {},
): Promise<WrittenRun<T>> {
  const keys = generateEd25519KeyPair();
  const out = join(tempDir(), 'run.json');
  const signer = { alg: 'Ed25519', privateKey: keys.privateKey } as const;
  const { output } = await record({ ...options, name: 'ai-sdk-agent', out, signer }, agent);
  return readRun(out, output, keys.publicKey);
}

/** Reads and verifies a written record. */
export function readRun<T>(path: string, output: T, publicKey: Uint8Array): WrittenRun<T> {
  const text = readFileSync(path, 'utf8');
  const events = (JSON.parse(text) as { events: RecordedEvent[] }).events;
  return {
    output,
    text,
    events,
    llm: events.filter((event): event is LlmEvent => event.type === 'llm'),
    tools: events.filter((event): event is ToolEvent => event.type === 'tool'),
    env: events.filter((event): event is EnvEvent => event.type === 'env'),
    verdict: verifyJson(text, { pinned: [publicKey] }),
  };
}

/** Reads a whole stream. */
export async function readAll<T>(stream: ReadableStream<T> | AsyncIterable<T>): Promise<T[]> {
  const parts: T[] = [];
  for await (const part of stream as AsyncIterable<T>) parts.push(part);
  return parts;
}
