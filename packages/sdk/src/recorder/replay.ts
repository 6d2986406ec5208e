// replay(record, agent): run the agent again with every model, tool and environment call
// answered from the record — no network, no API key, no cost — record the replayed run, and
// prove that it reproduces the record or say where it diverged.
import type { Signer } from '@runback/sign';
import {
  decodeUtf8Strict,
  verify,
  verifyJson,
  type VerifyOptions,
  type VerifyResult,
} from '@runback/verify';
import { readFile } from 'node:fs/promises';
import { RunbackError, argError } from '../core/errors.js';
import type { CaptureEnvOptions } from '../session/capture-settings.js';
import { deferEventParsing, startRun, type RunResult } from './recorder.js';
import { parsedRecord, storedRecord, type LoadedRecord } from './replay-record.js';
import { deferredTexts } from '../session/deferred-events.js';
import { memberText } from '../session/record-spans.js';
import { StoredEvents, type EventTexts } from '../session/stored-events.js';
import { firstDivergence, sameOutput, type Divergence } from './compare.js';
import {
  REPLAY_MODES,
  ReplaySource,
  type ReplayMiss,
  type ReplayMode,
} from '../session/replay-source.js';
import { checkReplayTools, type ReplayTools } from '../session/replay-tools.js';
import { PLACEHOLDER_CREDENTIAL, placeholderNames } from '../session/placeholder-credentials.js';

/** Options of {@link replay}. */
export interface ReplayOptions {
  /** How calls are answered (default `strict`). */
  readonly mode?: ReplayMode;
  /**
   * What a `tool()` call does (default `recorded`): `recorded` answers with the recorded output
   * without running the tool's body; `live` runs the body, its own model, tool, fetch, clock and
   * random calls answered from the record, so a changed tool implementation diverges there.
   */
  readonly tools?: ReplayTools;
  /**
   * Keys the record must verify under. Given any (`pinned` keys or an `hmacKey`), the record
   * must verify `valid` under them: one signed by another key, or unsigned, is refused with
   * REPLAY_RECORD_UNTRUSTED unless `allowUnverified`. Without trust, an intact record is
   * replayed and reported as `unverified`.
   */
  readonly trust?: VerifyOptions;
  /**
   * Replay a record that is intact (self-consistent) but not `valid` under `trust`. An
   * `invalid` record is refused whatever this says. Default false.
   */
  readonly allowUnverified?: boolean;
  /** Write the replayed run's record here. */
  readonly out?: string;
  readonly signer?: Signer;
  /** Override the environment capture (default: the kinds the record holds). */
  readonly captureEnv?: boolean | CaptureEnvOptions;
  /**
   * Give the agent placeholder API keys (default true): for each provider the record's model
   * calls went to, every key variable `process.env` has no value for (unset or blank) is set to
   * PLACEHOLDER_CREDENTIAL while the agent runs, and removed afterwards; a key you set is never
   * replaced. Clients built inside the agent then start without a real key; a request that
   * carries a placeholder is refused before it leaves the process (REPLAY_PLACEHOLDER_CREDENTIAL).
   * A client built before replay() runs read the environment before the placeholders existed.
   */
  readonly placeholderCredentials?: boolean;
}

/** What a replay established. */
export interface ReplayReport {
  /** `reproduced`: same cassette digest and same output; otherwise `diverged`. */
  readonly status: 'reproduced' | 'diverged';
  readonly mode: ReplayMode;
  /**
   * What the replay did with `tool()` bodies: `recorded`, they did not run (their recorded
   * outputs answered); `live`, they ran with their own calls answered from the record.
   */
  readonly tools: ReplayTools;
  /** The `tool()` calls in the replayed run (at any depth). */
  readonly toolCalls: number;
  /** The verdict on the record that was replayed. */
  readonly verdict: VerifyResult['verdict'];
  readonly recorded: RunFacts;
  readonly replayed: RunFacts;
  readonly cassetteMatches: boolean;
  readonly outputMatches: boolean;
  /** The first call at which the replay departed from the record, if it did. */
  readonly divergence: Divergence | null;
  /** Calls no recorded call answered (the one that stopped a strict replay, or those sent live). */
  readonly misses: readonly ReplayMiss[];
  /** Recorded calls the replay never asked for. */
  readonly unserved: number;
  /**
   * The environment variables the replay set to a placeholder API key because the environment
   * had none (sorted). Placeholders are never sent: a request carrying one is refused.
   */
  readonly placeholderCredentials: readonly string[];
}

/** The facts compared for one run. */
export interface RunFacts {
  readonly runId: string;
  readonly status: unknown;
  readonly cassetteDigest: string;
  readonly entryCount: number;
  readonly output: unknown;
  readonly error: unknown;
}

/** A replay's report, the agent's result, and the replayed run's record. */
export interface ReplayOutcome<T> {
  readonly report: ReplayReport;
  /** What the agent returned, when it returned. */
  readonly output: T | undefined;
  /** What the agent threw, when it threw (a ReplayMissError in a strict replay that missed). */
  readonly error: unknown;
  readonly result: RunResult;
}

/** A record as replay() accepts it: a path, JSON text or bytes, or parsed JSON. */
export type ReplayInput = { readonly path: string } | string | Uint8Array | object;

interface RecordShape {
  readonly manifest: {
    readonly run_id: string;
    readonly content_digest: string;
    readonly replay: { readonly cassette_digest: string; readonly entry_count: number };
  };
  readonly run: Record<string, unknown>;
  readonly events: readonly Record<string, unknown>[];
}

/** How strict a replay is about the record's signer. */
export interface ReplayTrust {
  readonly trust?: VerifyOptions | undefined;
  readonly allowUnverified?: boolean | undefined;
}

/** Whether a trust policy names any key (so that it can call a record `valid`). */
export function namesTrust(trust: VerifyOptions | undefined): boolean {
  return (
    trust !== undefined &&
    ((trust.pinned !== undefined && trust.pinned.length > 0) || trust.hmacKey !== undefined)
  );
}

/**
 * Loads and verifies a record for replay (a path is read once; the bytes verified are the bytes
 * replayed). Refuses one whose verdict is `invalid` (an edited record proves nothing, and
 * replaying it would prove nothing either), and, when the trust names keys, one that is not
 * `valid` under them unless `allowUnverified`.
 */
export async function loadRecordForReplay(
  input: ReplayInput,
  trust: VerifyOptions | ReplayTrust = {},
): Promise<{ record: LoadedRecord; verification: VerifyResult }> {
  const isPath =
    typeof input === 'object' &&
    input !== null &&
    !(input instanceof Uint8Array) &&
    'path' in input &&
    typeof input.path === 'string' &&
    Object.keys(input).length === 1;
  return checkRecordForReplay(
    isPath ? await readFile((input as { path: string }).path) : input,
    trust,
  );
}

/**
 * loadRecordForReplay for a record already in memory (the preload reads synchronously). Bytes
 * are decoded once, strictly, and that text is both verified and served from (the calls are
 * parsed from it when served, long after: a string no one can change), so what a replay serves
 * is what was verified.
 */
export function checkRecordForReplay(
  input: string | Uint8Array | object,
  policy: VerifyOptions | ReplayTrust = {},
): { record: LoadedRecord; verification: VerifyResult } {
  const { trust = {}, allowUnverified = false } = asReplayTrust(policy);
  const bytes = input instanceof Uint8Array;
  const text = typeof input === 'string' ? input : bytes ? recordText(input) : undefined;
  const verification =
    text !== undefined
      ? verifyJson(text, trust)
      : bytes
        ? verifyJson(input, trust)
        : verify(input, trust);
  if (verification.verdict === 'invalid') {
    const first = verification.errors[0];
    throw new RunbackError(
      'REPLAY_RECORD_INVALID',
      `refusing to replay: the record does not verify (${first === undefined ? 'invalid' : `${first.check}: ${first.message}`})`,
    );
  }
  if (namesTrust(trust) && verification.verdict !== 'valid' && !allowUnverified) {
    const why =
      verification.checks.signature === 'unsigned'
        ? 'it is unsigned'
        : `its signature is ${verification.checks.signature}`;
    throw new RunbackError(
      'REPLAY_RECORD_UNTRUSTED',
      `refusing to replay: expected a record valid under the given trust, got ${verification.verdict} (${why}); allow an intact record not signed by a trusted key with allowUnverified`,
    );
  }
  if (bytes && text === undefined) {
    // verifyJson refuses what recordText cannot decode; this is never reached.
    throw new RunbackError(
      'REPLAY_RECORD_INVALID',
      'refusing to replay: expected UTF-8 text, got other bytes',
    );
  }
  // Verified: read once, from the same text (its events parsed when served: replay-record.ts).
  const record = text === undefined ? parsedRecord(input as RecordShape) : storedRecord(text);
  return { record, verification };
}

/**
 * A record's bytes decoded as verifyJson decodes them (strict UTF-8, a leading byte order mark
 * dropped), so that this one string is both verified and served; undefined for bytes that are
 * not such text, which verifyJson then refuses as bytes.
 */
function recordText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = decodeUtf8Strict(bytes);
  } catch {
    return undefined;
  }
  // A second mark: verifyJson refuses it in bytes, but would drop it from a string.
  return text.charCodeAt(0) === 0xfeff ? undefined : text;
}

function asReplayTrust(policy: VerifyOptions | ReplayTrust): ReplayTrust {
  // A ReplayTrust has only `trust` / `allowUnverified`; a VerifyOptions never has either.
  if ('trust' in policy || 'allowUnverified' in policy) return policy;
  return { trust: policy as VerifyOptions };
}

/**
 * Replays `agent` against a record: verifies the record, runs `agent(recordedInput)` as a new
 * recorded run whose calls are answered from the record, and compares. Never throws for a
 * divergence (the report says so); throws RunbackError REPLAY_RECORD_INVALID for a record that
 * does not verify.
 */
export async function replay<T>(
  input: ReplayInput,
  agent: (input: unknown) => T | Promise<T>,
  options: ReplayOptions = {},
): Promise<ReplayOutcome<Awaited<T>>> {
  if (typeof agent !== 'function') throw argError('agent', 'a function', agent);
  const mode = options.mode ?? 'strict';
  if (!REPLAY_MODES.includes(mode)) throw argError('options.mode', REPLAY_MODES.join(' | '), mode);
  const tools = checkReplayTools('options.tools', options.tools);
  const { record, verification } = await loadRecordForReplay(input, {
    trust: options.trust,
    allowUnverified: options.allowUnverified,
  });
  const start = record.start;
  const runInput = start?.['input'] ?? null;
  const source = new ReplaySource(record.cassette(), mode, tools);

  const run = startRun({
    name: [start?.['name'], record.run['name']].find((n) => typeof n === 'string') ?? 'replay',
    input: runInput,
    metadata: {
      replay_of: {
        run_id: record.manifest.run_id,
        content_digest: record.manifest.content_digest,
        cassette_digest: record.manifest.replay.cassette_digest,
        mode,
        ...(tools === 'live' ? { tools } : {}),
      },
    },
    captureEnv: options.captureEnv ?? record.capture,
    replaySource: source,
    ...(options.out === undefined ? {} : { out: options.out }),
    ...(options.signer === undefined ? {} : { signer: options.signer }),
  });
  deferEventParsing(run);
  const placeholders =
    options.placeholderCredentials === false ? [] : placeholderNames(record.providers, process.env);
  for (const name of placeholders) process.env[name] = PLACEHOLDER_CREDENTIAL;
  let output: Awaited<T> | undefined;
  let error: unknown;
  let failed = false;
  try {
    output = await run.run(() => agent(runInput));
  } catch (err) {
    failed = true;
    error = err;
  } finally {
    for (const name of placeholders) {
      if (process.env[name] === PLACEHOLDER_CREDENTIAL) delete process.env[name];
    }
  }
  const result = await run.end(failed ? { error } : { output });
  // The replayed run is proved by its digests, sealed as it ran; its events are parsed only to
  // locate a divergence (an in-memory record keeps their texts until they are read).
  const inMemory = result.record;
  const written =
    inMemory === undefined
      ? StoredEvents.of(await readFile(result.path as string, 'utf8'))
      : undefined;
  const replayedTexts = (): EventTexts =>
    written ??
    deferredTexts(inMemory as { events: unknown[] }) ??
    textsOf((inMemory as { events: unknown[] }).events);
  const report = reportOf(
    { facts: factsOf(record.manifest, record.end), events: () => record.events },
    {
      facts: factsOf(result.manifest, result.summary),
      events: () => inMemory?.events ?? parseAll(replayedTexts()),
    },
    { mode, tools },
    verification,
    source,
    placeholders,
  );
  // Counted when read (a scan of every event's text, which a reproduced replay need not pay).
  const toolCalls = written === undefined ? undefined : countOfType(written, 'tool');
  return {
    report: withToolCalls(report, () => toolCalls ?? countOfType(replayedTexts(), 'tool')),
    output,
    error,
    result,
  };
}

/** Builds the report comparing a record with its replay. */
export function compareRuns(
  recorded: RecordShape,
  replayed: RecordShape,
  mode: ReplayMode,
  verification: Pick<VerifyResult, 'verdict'>,
  source: ReplaySource | undefined,
  placeholderCredentials: readonly string[] = [],
): ReplayReport {
  const compared = (r: RecordShape): ComparedRun => ({
    facts: factsOf(
      r.manifest,
      r.events.find((e) => e['type'] === 'run' && e['phase'] === 'end'),
    ),
    events: () => r.events,
  });
  const start = replayed.events.find((e) => e['type'] === 'run' && e['phase'] === 'start');
  const of = (start?.['metadata'] as { replay_of?: { tools?: unknown } } | undefined)?.replay_of;
  const report = reportOf(
    compared(recorded),
    compared(replayed),
    { mode, tools: of?.tools === 'live' ? 'live' : 'recorded' },
    verification,
    source,
    placeholderCredentials,
  );
  return { ...report, toolCalls: replayed.events.filter((e) => e['type'] === 'tool').length };
}

/** One side of a comparison: its facts, and its events (read only to locate a divergence). */
interface ComparedRun {
  readonly facts: RunFacts;
  events(): readonly unknown[];
}

/** A run's facts from its manifest and its run-end event (or the summary, which repeats it). */
function factsOf(
  manifest: RecordShape['manifest'],
  end:
    { readonly status?: unknown; readonly output?: unknown; readonly error?: unknown } | undefined,
): RunFacts {
  return {
    runId: manifest.run_id,
    status: end?.status ?? 'running',
    cassetteDigest: manifest.replay.cassette_digest,
    entryCount: manifest.replay.entry_count,
    output: end?.output ?? null,
    error: end?.error ?? null,
  };
}

function reportOf(
  recorded: ComparedRun,
  replayed: ComparedRun,
  how: Pick<ReplayReport, 'mode' | 'tools'>,
  verification: Pick<VerifyResult, 'verdict'>,
  source: ReplaySource | undefined,
  placeholderCredentials: readonly string[],
): Omit<ReplayReport, 'toolCalls'> {
  const a = recorded.facts;
  const b = replayed.facts;
  const cassetteMatches = a.cassetteDigest === b.cassetteDigest;
  const outputMatches = a.status === b.status && sameOutput(a.output, b.output);
  return {
    status: cassetteMatches && outputMatches ? 'reproduced' : 'diverged',
    ...how,
    verdict: verification.verdict,
    recorded: a,
    replayed: b,
    cassetteMatches,
    outputMatches,
    divergence: cassetteMatches ? null : firstDivergence(recorded.events(), replayed.events()),
    misses: source?.misses ?? [],
    unserved: source?.cassette.unserved().length ?? 0,
    placeholderCredentials,
  };
}

/** Event texts over parsed events. */
function textsOf(events: readonly unknown[]): EventTexts {
  return { length: events.length, text: (i) => JSON.stringify(events[i]) };
}

function parseAll(texts: EventTexts): unknown[] {
  const events: unknown[] = [];
  for (let i = 0; i < texts.length; i++) events.push(JSON.parse(texts.text(i)));
  return events;
}

/** How many events have this `type`, read from their texts without parsing them. */
function countOfType(texts: EventTexts, type: string): number {
  let count = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = memberText(texts.text(i), 'type');
    if (text !== undefined && JSON.parse(text) === type) count++;
  }
  return count;
}

/** `report` with `toolCalls` counted on first read, then kept. */
function withToolCalls(report: Omit<ReplayReport, 'toolCalls'>, count: () => number): ReplayReport {
  const full = { ...report } as { -readonly [K in keyof ReplayReport]: ReplayReport[K] };
  Object.defineProperty(full, 'toolCalls', {
    enumerable: true,
    configurable: true,
    get: () => {
      const toolCalls = count();
      Object.defineProperty(full, 'toolCalls', { value: toolCalls, enumerable: true });
      return toolCalls;
    },
  });
  return full;
}
