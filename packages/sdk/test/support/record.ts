// Shared helpers for the SDK's tests: signers and the matching trust policy, verifying written
// records, reading events, and checking event shapes against docs/spec.md §5.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateEd25519KeyPair, type Signer } from '@runback/sign';
import { verifyJson, type VerifyResult } from '@runback/verify';
import { afterEach, expect } from 'vitest';
import {
  RunbackError,
  record,
  type LlmCallInit,
  type LlmCallOutcome,
  type RunOptions,
} from '../../src/index.js';

/** A pinned Ed25519 key (fixed seed) and an HMAC key, with the policy that trusts both. */
export const ED25519_KEYS = generateEd25519KeyPair(new Uint8Array(32).fill(7));
export const ED25519_SIGNER: Signer = { alg: 'Ed25519', privateKey: ED25519_KEYS.privateKey };
export const HMAC_KEY = 'runback-test-hmac-key';
export const HMAC_SIGNER: Signer = { alg: 'HMAC-SHA256', key: HMAC_KEY };
export const TRUST = { pinned: [ED25519_KEYS.publicKey], hmacKey: HMAC_KEY } as const;

/** Credentials in each format the built-in redaction patterns know, as they appear in the wild. */
export const SAMPLE_SECRETS = {
  openai: 'sk-abcdefghijklmnopqrstuvwxyz012345',
  openaiProject: 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56',
  anthropic: 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf',
  aws: 'AKIAIOSFODNN7EXAMPLE',
  awsTemporary: 'ASIAY34FZKBOKMUTVV7A',
  bearer: 'Bearer abcdEFGH1234.ijkl-5678~mn/op+qr==',
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  pem:
    '-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n' +
    'KUpRKfFLfRYC9AIKjbJTWit+CqvjWYzvQwECAwEAAQ==\n-----END RSA PRIVATE KEY-----',
  pemPkcs8:
    '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----',
  github: `ghp_${'aB3'.repeat(12)}`,
  githubPat: `github_pat_${'11ABCDEFG0'.repeat(4)}`,
  slack: 'xoxb-1234567890-0987654321-AbCdEfGhIjKl',
  google: `AIza${'Sy0_-x'.repeat(5)}12345`,
} as const satisfies Readonly<Record<string, string>>;

/** ISO 8601 with milliseconds and `Z` (docs/spec.md §5). */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** An event as read back from a record. */
export type Ev = Record<string, unknown> & {
  readonly type: string;
  readonly seq: number;
  readonly span_id: string;
  readonly parent_span_id: string | null;
  readonly metadata?: Record<string, unknown>;
};

/** A record as read back from its JSON text. */
export interface RecordJson {
  readonly $schema: string;
  readonly manifest: Record<string, unknown> & {
    readonly replay: Record<string, unknown>;
    readonly signature?: Record<string, unknown>;
  };
  readonly run: Record<string, unknown>;
  readonly events: Ev[];
}

/** Verifies record text under {@link TRUST}. */
export function verifyText(text: string | Uint8Array): VerifyResult {
  return verifyJson(text, TRUST);
}

/** Asserts that record text verifies `valid` under {@link TRUST} and returns it parsed. */
export function expectValid(text: string): RecordJson {
  const result = verifyText(text);
  expect(result.errors).toEqual([]);
  expect(result.verdict).toBe('valid');
  return JSON.parse(text) as RecordJson;
}

/** Reads a record file, asserts that it verifies `valid`, and returns its text and content. */
export function readValidRecord(path: string): { text: string; record: RecordJson } {
  const text = readFileSync(path, 'utf8');
  return { text, record: expectValid(text) };
}

/**
 * Records `agent` in memory (no `out`), signed with the pinned Ed25519 key, asserts that the
 * record verifies `valid`, and returns the agent's output, the record and its text.
 */
export async function recordValid<T>(
  agent: () => T | Promise<T>,
  options: Partial<RunOptions> = {},
): Promise<{ output: Awaited<T>; record: RecordJson; text: string }> {
  const { output, result } = await record(
    { name: 'test-run', signer: ED25519_SIGNER, ...options },
    agent,
  );
  const text = JSON.stringify(result.record);
  return { output, record: expectValid(text), text };
}

/** The events of `type` (and env `kind`), in seq order. */
export function eventsOf(record: RecordJson, type: string, kind?: string): Ev[] {
  return record.events
    .filter((e) => e.type === type && (kind === undefined || e['kind'] === kind))
    .sort((a, b) => a.seq - b.seq);
}

const BASE_MEMBERS = [
  '_hash',
  'parent_span_id',
  'run_id',
  'schema_version',
  'seq',
  'span_id',
  'ts_end',
  'ts_start',
  'type',
];

/** The members each event type carries (docs/spec.md §5), besides the base ones. */
export const TYPE_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  run: ['phase', 'name', 'status', 'input', 'output', 'error'],
  llm: ['model', 'request', 'response', 'usage', 'latency_ms', 'error'],
  tool: ['tool_name', 'tool_call_id', 'input', 'output', 'latency_ms', 'error'],
  env: ['kind', 'key', 'output'],
  reasoning: ['text', 'label'],
};

/**
 * Asserts that `event` has exactly the base members, its type's members and `extra` (optional
 * ones such as `metadata`), with well-formed base values.
 */
export function expectShape(event: Ev, runId: string, extra: readonly string[] = []): void {
  const members = TYPE_MEMBERS[event.type];
  expect(members, `known type ${event.type}`).toBeDefined();
  expect(Object.keys(event).sort()).toEqual([...BASE_MEMBERS, ...(members ?? []), ...extra].sort());
  expect(event['schema_version']).toBe(1);
  expect(event['run_id']).toBe(runId);
  expect(Number.isSafeInteger(event.seq) && event.seq >= 0).toBe(true);
  expect(event['ts_start']).toMatch(ISO_MS);
  expect(event['ts_end']).toMatch(ISO_MS);
  expect(event['_hash']).toMatch(/^[0-9a-f]{64}$/);
}

/**
 * Asserts that `metadata` holds exactly the given pointer lists (`redacted`, `redactions`) and
 * other members. Pointers within a list follow member order, which the format leaves open, so
 * they are compared as sets.
 */
export function expectRedactionMetadata(
  metadata: unknown,
  lists: Readonly<Record<string, readonly string[]>>,
  others: Readonly<Record<string, unknown>> = {},
): void {
  expect(typeof metadata === 'object' && metadata !== null).toBe(true);
  const actual = metadata as Record<string, unknown>;
  expect(Object.keys(actual).sort()).toEqual(
    [...Object.keys(lists), ...Object.keys(others)].sort(),
  );
  for (const [name, pointers] of Object.entries(lists)) {
    expect([...(actual[name] as string[])].sort(), name).toEqual([...pointers].sort());
  }
  for (const [name, value] of Object.entries(others)) expect(actual[name], name).toEqual(value);
}

/** The value a JSON Pointer addresses in `root` (undefined when it addresses nothing). */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** A model call's init and the outcome its answer maps to, for recording through llmCall. */
export const LLM_INIT: LlmCallInit = {
  provider: 'openai',
  modelId: 'gpt-test',
  request: {
    system: 'be brief',
    messages: [{ role: 'user', content: 'refund?' }],
    tools: [],
    params: { max_tokens: 64 },
  },
};

export function llmOutcome(text: string): LlmCallOutcome {
  return {
    response: { text, reasoning: null, finish_reason: 'stop', tool_calls: [] },
    usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 },
  };
}

/** What `fn` threw (synchronously or by rejecting); fails when it did not throw. */
export async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw, got none');
}

/** Asserts that `fn` throws a RunbackError with `code` (and a message matching `message`). */
export async function expectRunbackError(
  fn: () => unknown,
  code: RunbackError['code'],
  message?: RegExp,
): Promise<RunbackError> {
  const err = await thrown(fn);
  expect(err).toBeInstanceOf(RunbackError);
  expect((err as RunbackError).code).toBe(code);
  if (message !== undefined) expect((err as RunbackError).message).toMatch(message);
  return err as RunbackError;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A promise and the function that resolves it: a gate a test opens when it chooses. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** A local HTTP server on 127.0.0.1 (port 0), closed after the current test. */
export async function localServer(
  handler: (request: IncomingMessage, body: Buffer, response: ServerResponse) => void,
): Promise<string> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handler(request, Buffer.concat(chunks), response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const servers: ReturnType<typeof createServer>[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
