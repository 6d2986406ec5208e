// The verification worker: reads the record, runs the one `verifyJson` of @runback/verify on
// its bytes, and keeps the parsed record to answer the page's row requests. Everything runs
// here so that the page keeps answering while a large record is read and verified.
import { diffRecords } from '@runback/diff';
import { readJsonStrict, verifyJson, type VerifyOptions, type VerifyResult } from '@runback/verify';
import { diffSide } from './diff-records.js';
import { checkBundle, looksLikeBundle } from './read-bundle.js';
import type { BundleView, Request, Response, Trust } from './protocol.js';
import { readSource, SourceError } from './read-source.js';
import { indexRecord, type RecordIndex } from './record-index.js';

interface WorkerScope {
  postMessage(message: Response): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<Request>) => void): void;
}
const scope = self as unknown as WorkerScope;

/** The file in hand: its bytes as read (a record or a bundle), and the record's index. */
let current: { input: Uint8Array; parsed: unknown; ok: boolean; index: RecordIndex | null } | null =
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

async function verifyBytes(id: number, input: Uint8Array, trust: Trust): Promise<void> {
  const started = performance.now();
  progress(id, 'verify');
  let result: VerifyResult | null;
  let bundle: BundleView | null = null;
  let recordBytes: Uint8Array | null = input;
  if (looksLikeBundle(input)) {
    const checked = await checkBundle(input, optionsOf(trust));
    result = checked.record;
    bundle = checked.view;
    recordBytes = checked.recordBytes;
  } else {
    result = verifyJson(input, optionsOf(trust));
  }
  const ms = performance.now() - started;
  progress(id, 'index');
  if (current === null || current.input !== input) {
    const parsed = recordBytes === null ? null : readJsonStrict(recordBytes);
    current = {
      input,
      parsed: parsed?.ok === true ? parsed.value : null,
      ok: parsed?.ok === true,
      index: null,
    };
  }
  current.index = current.ok && result !== null ? indexRecord(current.parsed, result) : null;
  scope.postMessage({
    type: 'verified',
    id,
    file: currentFacts!,
    result,
    bundle,
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
      await verifyBytes(request.id, bytes, request.trust);
      return;
    }
    case 'reverify':
      if (current === null)
        throw new SourceError('SOURCE_READ_FAILED', 'expected a record, got none');
      await verifyBytes(request.id, current.input, request.trust);
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
