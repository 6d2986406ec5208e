// HttpSink: streams a run's events to the runback audit service (apps/api) while the run is
// recorded. Events are sent in batches bounded by count, bytes and time; a failed batch is
// retried with exponential backoff and full jitter on network errors, 5xx and 429, always with
// the same Idempotency-Key, so the service applies it once; the buffer is bounded and applies
// back-pressure (calls wait before they start) instead of dropping events; the end of the run
// flushes everything and finishes the run remotely, and any event that could not be delivered
// makes the run's end fail with a clear error.
//
// The service writes its own run-start and run-end events (it seals and signs the record), so
// the recorder's `run` events are not sent: the start event's name, input, metadata and actor
// open the remote run, the end event's status, output and error finish it.
import { RunbackError, messageOf } from '../core/errors.js';
import { isObject } from '../core/values.js';

/** How an HttpSink reaches the service and paces its batches. */
export interface HttpSinkOptions {
  /** The service's base URL, e.g. `https://audit.example.com` (RUNBACK_API_URL). */
  readonly url: string;
  /** An API key of the project the run belongs to (RUNBACK_API_KEY). */
  readonly apiKey: string;
  /** Most events in one batch (default 200). */
  readonly batchEvents?: number;
  /** Most bytes of event text in one batch (default 1 MiB; the service accepts up to 8 MiB). */
  readonly batchBytes?: number;
  /** How long an event may wait for its batch to fill (default 250 ms). */
  readonly maxDelayMs?: number;
  /** Events buffered before calls wait for the buffer to drain (default 10,000). */
  readonly maxBufferedEvents?: number;
  /** Attempts per request before the run is given up as undeliverable (default 8). */
  readonly attempts?: number;
  /** First retry delay; doubled per attempt, with full jitter (default 200 ms). */
  readonly retryBaseMs?: number;
  /** Longest retry delay (default 10 s). */
  readonly retryMaxMs?: number;
  /** Timeout of one request (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** The fetch to use (default: the global fetch, as it was when the sink was made). */
  readonly fetch?: typeof fetch;
}

/** What the service answered for the delivered run. */
export interface HttpSinkResult {
  /** The run's id at the service. */
  readonly runId: string;
  /** Where the sealed record can be downloaded (needs the API key). */
  readonly exportUrl: string;
  readonly eventCount: number;
}

/** Where a recorder sends each sealed event text, besides its own file. */
export interface RunSink {
  write(text: string): void;
  /** A promise while the sink wants the recorder to wait before the next call starts. */
  ready(): Promise<void> | undefined;
  /** Delivers everything and finishes the run; rejects if the run could not be delivered. */
  close(): Promise<unknown>;
}

const RETRY_STATUS = (status: number) => status >= 500 || status === 429 || status === 408;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw Object.assign(
      new TypeError(
        `HttpSink: expected options.${name} to be a positive number, got ${String(value)}`,
      ),
      {
        code: 'ARG_INVALID' as const,
      },
    );
  }
  return value;
}

interface Pending {
  readonly text: string;
  readonly bytes: number;
  readonly at: number;
}

/** Sends one run's events to the audit service. One sink per run. */
export class HttpSink implements RunSink {
  readonly #base: string;
  readonly #auth: string;
  readonly #fetch: typeof fetch;
  readonly #batchEvents: number;
  readonly #batchBytes: number;
  readonly #maxDelayMs: number;
  readonly #maxBuffered: number;
  readonly #attempts: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #timeoutMs: number;

  #queue: Pending[] = [];
  #localRunId: string | undefined;
  #start: Record<string, unknown> | undefined;
  #end: Record<string, unknown> | undefined;
  #closing = false;
  #failure: RunbackError | undefined;
  #wake: (() => void) | undefined;
  #drained: { promise: Promise<void>; resolve: () => void } | undefined;
  #pump: Promise<HttpSinkResult> | undefined;
  #batchNo = 0;

  constructor(options: HttpSinkOptions) {
    if (typeof options !== 'object' || options === null) {
      throw Object.assign(
        new TypeError('HttpSink: expected options { url, apiKey }, got nothing'),
        { code: 'ARG_INVALID' as const },
      );
    }
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw Object.assign(
        new TypeError(
          `HttpSink: expected options.url to be an http(s) URL, got ${JSON.stringify(options.url)}`,
        ),
        {
          code: 'ARG_INVALID' as const,
        },
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw Object.assign(
        new TypeError(
          `HttpSink: expected options.url to be an http(s) URL, got ${url.protocol} URL`,
        ),
        {
          code: 'ARG_INVALID' as const,
        },
      );
    }
    if (typeof options.apiKey !== 'string' || options.apiKey === '') {
      throw Object.assign(
        new TypeError('HttpSink: expected options.apiKey to be a non-empty string, got none'),
        { code: 'ARG_INVALID' as const },
      );
    }
    this.#base = url.href.replace(/\/+$/, '');
    this.#auth = `Bearer ${options.apiKey}`;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#batchEvents = positive('batchEvents', options.batchEvents, 200);
    this.#batchBytes = positive('batchBytes', options.batchBytes, 1024 * 1024);
    this.#maxDelayMs = positive('maxDelayMs', options.maxDelayMs, 250);
    this.#maxBuffered = positive('maxBufferedEvents', options.maxBufferedEvents, 10_000);
    this.#attempts = positive('attempts', options.attempts, 8);
    this.#retryBaseMs = positive('retryBaseMs', options.retryBaseMs, 200);
    this.#retryMaxMs = positive('retryMaxMs', options.retryMaxMs, 10_000);
    this.#timeoutMs = positive('requestTimeoutMs', options.requestTimeoutMs, 30_000);
  }

  /** How many events wait to be sent. */
  get buffered(): number {
    return this.#queue.length;
  }

  /** Takes one sealed event text from the recorder. */
  write(text: string): void {
    if (this.#failure !== undefined) return;
    const event: unknown = JSON.parse(text);
    if (!isObject(event)) return;
    if (event['type'] === 'run') {
      if (event['phase'] === 'start') {
        this.#localRunId = typeof event['run_id'] === 'string' ? event['run_id'] : undefined;
        this.#start = event;
        if (this.#pump === undefined) {
          this.#pump = this.#run();
          // The failure is reported by close(); until then it must not count as unhandled.
          this.#pump.catch(() => undefined);
        }
      } else if (event['phase'] === 'end') this.#end = event;
      this.#signal();
      return;
    }
    const { _hash: _dropped, run_id: _local, ...sent } = event;
    const body = JSON.stringify(sent);
    this.#queue.push({ text: body, bytes: body.length, at: Date.now() });
    if (this.#queue.length >= this.#batchEvents) this.#signal();
  }

  ready(): Promise<void> | undefined {
    if (this.#queue.length < this.#maxBuffered || this.#failure !== undefined) return undefined;
    if (this.#drained === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#drained = { promise, resolve };
    }
    return this.#drained.promise;
  }

  /** Sends what is left, finishes the run at the service and returns where its record is. */
  close(): Promise<HttpSinkResult> {
    this.#closing = true;
    if (this.#pump === undefined) {
      return Promise.reject(
        new RunbackError(
          'HTTP_SINK_FAILED',
          'HttpSink: expected a run-start event before close(), got none',
        ),
      );
    }
    this.#signal();
    return this.#pump;
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Waits for a reason to send: a full batch, the oldest event's deadline, or the end. */
  async #waitForWork(): Promise<void> {
    for (;;) {
      if (this.#closing || this.#queue.length >= this.#batchEvents) return;
      const oldest = this.#queue[0];
      const wait = oldest === undefined ? undefined : oldest.at + this.#maxDelayMs - Date.now();
      if (wait !== undefined && wait <= 0) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        if (wait !== undefined) {
          const timer = setTimeout(() => this.#signal(), wait);
          (timer as { unref?: () => void }).unref?.();
        }
      });
    }
  }

  async #run(): Promise<HttpSinkResult> {
    try {
      const start = this.#start as Record<string, unknown>;
      const created = await this.#request('POST', '/api/runs', undefined, {
        name: start['name'],
        ...(start['input'] === undefined || start['input'] === null
          ? {}
          : { input: start['input'] }),
        ...(isObject(start['metadata']) ? { metadata: start['metadata'] } : {}),
        ...(isObject(start['actor']) ? { actor: start['actor'] } : {}),
      });
      const runId = created['run_id'] as string;
      for (;;) {
        await this.#waitForWork();
        if (this.#queue.length === 0 && this.#closing) break;
        if (this.#queue.length === 0) continue;
        const batch = this.#takeBatch();
        const key = `${this.#localRunId ?? runId}:${this.#batchNo++}`;
        await this.#request(
          'POST',
          `/api/runs/${runId}/events`,
          key,
          undefined,
          `{"events":[${batch.join(',')}]}`,
        );
        if (this.#drained !== undefined && this.#queue.length < this.#maxBuffered) {
          this.#drained.resolve();
          this.#drained = undefined;
        }
      }
      const end = this.#end;
      if (end === undefined)
        throw new RunbackError(
          'HTTP_SINK_FAILED',
          'HttpSink: expected the run-end event before close(), got none',
        );
      const finished = await this.#request('POST', `/api/runs/${runId}/finish`, undefined, {
        status: end['status'],
        ...(end['output'] === undefined ? {} : { output: end['output'] }),
        ...(end['error'] === undefined ? {} : { error: end['error'] }),
      });
      return {
        runId,
        exportUrl: `${this.#base}/api/runs/${runId}/export`,
        eventCount: Number(finished['event_count']),
      };
    } catch (err) {
      this.#failure =
        err instanceof RunbackError
          ? err
          : new RunbackError(
              'HTTP_SINK_FAILED',
              `HttpSink: the run could not be delivered to ${this.#base}: ${messageOf(err)}`,
              { cause: err },
            );
      this.#queue = [];
      this.#drained?.resolve();
      throw this.#failure;
    }
  }

  #takeBatch(): string[] {
    const out: string[] = [];
    let bytes = 0;
    while (this.#queue.length > 0 && out.length < this.#batchEvents) {
      const next = this.#queue[0] as Pending;
      if (out.length > 0 && bytes + next.bytes > this.#batchBytes) break;
      out.push(next.text);
      bytes += next.bytes;
      this.#queue.shift();
    }
    return out;
  }

  /** One request, retried on network errors, 5xx and 429 with the same idempotency key. */
  async #request(
    method: string,
    path: string,
    idempotencyKey: string | undefined,
    json: unknown,
    text?: string,
  ): Promise<Record<string, unknown>> {
    const body = text ?? JSON.stringify(json);
    let lastProblem = '';
    for (let attempt = 1; attempt <= this.#attempts; attempt++) {
      let retryAfterMs: number | undefined;
      try {
        const res = await this.#fetch(`${this.#base}${path}`, {
          method,
          headers: {
            authorization: this.#auth,
            'content-type': 'application/json',
            ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
          },
          body,
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
        const answer = await res.text();
        if (res.ok) return JSON.parse(answer) as Record<string, unknown>;
        const problem = describeAnswer(res.status, answer);
        if (!RETRY_STATUS(res.status)) {
          throw new RunbackError(
            'HTTP_SINK_FAILED',
            `HttpSink: ${method} ${path} was refused: ${problem}`,
          );
        }
        lastProblem = problem;
        const after = Number(res.headers.get('retry-after'));
        if (Number.isFinite(after) && after > 0) retryAfterMs = after * 1000;
      } catch (err) {
        if (err instanceof RunbackError) throw err;
        lastProblem = messageOf(err);
      }
      if (attempt === this.#attempts) break;
      // Exponential backoff with full jitter: uniformly random in [0, min(max, base·2^n)).
      const cap = Math.min(this.#retryMaxMs, this.#retryBaseMs * 2 ** (attempt - 1));
      const delay = Math.max(retryAfterMs ?? 0, Math.random() * cap);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    throw new RunbackError(
      'HTTP_SINK_FAILED',
      `HttpSink: ${method} ${path} failed ${this.#attempts} times; last: ${lastProblem}`,
    );
  }
}

function describeAnswer(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (isObject(body.error))
      return `HTTP ${status} ${String(body.error.code)}: ${String(body.error.message)}`;
  } catch {
    // not the service's error shape
  }
  return `HTTP ${status}`;
}

/** An HttpSink from RUNBACK_API_URL and RUNBACK_API_KEY, or undefined when they are not set. */
export function httpSinkFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): HttpSink | undefined {
  const url = env['RUNBACK_API_URL'];
  if (url === undefined || url === '') return undefined;
  const apiKey = env['RUNBACK_API_KEY'];
  if (apiKey === undefined || apiKey === '') {
    throw new RunbackError(
      'HTTP_SINK_FAILED',
      'RUNBACK_API_URL is set: expected RUNBACK_API_KEY too, got none',
    );
  }
  return new HttpSink({ url, apiKey });
}
