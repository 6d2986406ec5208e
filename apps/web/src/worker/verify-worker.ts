// The verification worker: reads the record, runs the one `verifyJson` of @runback/verify on
// its bytes, and keeps the parsed record to answer the page's row requests. Everything runs
// here so that the page keeps answering while a large record is read and verified.
import { diffRecords } from '@runback/diff';
import { readJsonStrict, verifyJson, type VerifyOptions, type VerifyResult } from '@runback/verify';
import { diffSide } from './diff-records.js';
import type { Request, Response, Trust } from './protocol.js';
import { readSource, SourceError } from './read-source.js';
import { indexRecord, type RecordIndex } from './record-index.js';

interface WorkerScope {
  postMessage(message: Response): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<Request>) => void): void;
}
const scope = self as unknown as WorkerScope;

let current: { bytes: Uint8Array; parsed: unknown; ok: boolean; index: RecordIndex | null } | null =
  null;
let currentFacts: { name: string; bytes: number; sha256: string } | null = null;

function optionsOf(trust: Trust): VerifyOptions {
  const options: { pinned: string[]; revoked: string[]; hmacKey?: string } = {
    pinned: [...trust.pinned],
    revoked: [...trust.revoked],
  };
  if (trust.hmacKey !== undefined && trust.hmacKey !== '') options.hmacKey = trust.hmacKey;
  return options;
}

function progress(id: number, stage: 'read' | 'hash' | 'verify' | 'index', done = 0, total = 0) {
  scope.postMessage({ type: 'progress', id, stage, done, total });
}

function verifyBytes(id: number, bytes: Uint8Array, trust: Trust): void {
  const started = performance.now();
  progress(id, 'verify');
  const result: VerifyResult = verifyJson(bytes, optionsOf(trust));
  const ms = performance.now() - started;
  progress(id, 'index');
  if (current === null || current.bytes !== bytes) {
    const parsed = readJsonStrict(bytes);
    current = { bytes, parsed: parsed.ok ? parsed.value : null, ok: parsed.ok, index: null };
  }
  current.index = current.ok ? indexRecord(current.parsed, result) : null;
  scope.postMessage({
    type: 'verified',
    id,
    file: currentFacts!,
    result,
    summary: current.index?.summary ?? null,
    ms,
  });
}

async function handle(request: Request): Promise<void> {
  switch (request.type) {
    case 'verify': {
      let lastPost = 0;
      const { bytes, facts } = await readSource(request.source, (done, total) => {
        const now = performance.now();
        if (now - lastPost > 30 || done === total) {
          lastPost = now;
          progress(request.id, 'read', done, total);
        }
      });
      current = null;
      currentFacts = facts;
      verifyBytes(request.id, bytes, request.trust);
      return;
    }
    case 'reverify':
      if (current === null)
        throw new SourceError('SOURCE_READ_FAILED', 'expected a record, got none');
      verifyBytes(request.id, current.bytes, request.trust);
      return;
    case 'rows': {
      const rows = current?.index?.rows[request.list] ?? [];
      scope.postMessage({
        type: 'rows',
        id: request.id,
        rows: rows.slice(Math.max(0, request.start), Math.max(0, request.end)),
      });
      return;
    }
    case 'diff': {
      const sides = await Promise.all(
        [request.a, request.b].map(async (source) => {
          const { bytes, facts } = await readSource(source, () => undefined);
          return { bytes, facts };
        }),
      );
      const [a, b] = sides.map((s) => diffSide(s.bytes, s.facts, optionsOf(request.trust)));
      scope.postMessage({
        type: 'diffed',
        id: request.id,
        a: a!.side,
        b: b!.side,
        diff: diffRecords(a!.record, b!.record),
      });
      return;
    }
    case 'event':
      scope.postMessage({
        type: 'event',
        id: request.id,
        event: current?.index?.events[request.index] ?? null,
      });
      return;
  }
}

// One request at a time, in order: a row request never sees a half-replaced record, and a
// record chosen while another is being verified is verified after it.
let queue: Promise<void> = Promise.resolve();

scope.addEventListener('message', (event) => {
  const request = event.data;
  queue = queue.then(() => run(request));
});

async function run(request: Request): Promise<void> {
  await handle(request).catch((err: unknown) => {
    // verify never throws on a record; this is a read failure or a malformed trust option.
    const code =
      typeof (err as { code?: unknown })?.code === 'string'
        ? (err as { code: string }).code
        : 'WEB_WORKER_ERROR';
    scope.postMessage({
      type: 'failed',
      id: request.id,
      code,
      message: (err as Error)?.message ?? String(err),
    });
  });
}
