// The page's side of the worker protocol: one request, one promise; progress as it comes.
import type { Request, Response, Source, Stage, Trust } from '../worker/protocol.js';
import type { RowList, RowOf } from '../worker/record-index.js';

type Pending = {
  resolve: (response: Response) => void;
  onProgress?: ((stage: Stage, done: number, total: number) => void) | undefined;
};

type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;

export class VerifierWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor() {
    this.worker = new Worker(new URL('../worker/verify-worker.ts', import.meta.url), {
      type: 'module',
      name: 'runback-verify',
    });
    this.worker.addEventListener('message', (event: MessageEvent<Response>) => {
      const message = event.data;
      const pending = this.pending.get(message.id);
      if (pending === undefined) return;
      if (message.type === 'progress') {
        pending.onProgress?.(message.stage, message.done, message.total);
        return;
      }
      this.pending.delete(message.id);
      pending.resolve(message);
    });
  }

  private send(request: Distribute<Request>, onProgress?: Pending['onProgress']) {
    const id = this.nextId++;
    return new Promise<Response>((resolve) => {
      this.pending.set(id, { resolve, onProgress });
      this.worker.postMessage({ ...request, id });
    });
  }

  verify(source: Source, trust: Trust, onProgress: Pending['onProgress']) {
    return this.send({ type: 'verify', source, trust }, onProgress);
  }

  reverify(trust: Trust) {
    return this.send({ type: 'reverify', trust });
  }

  async rows<L extends RowList>(list: L, start: number, end: number): Promise<RowOf<L>[]> {
    const response = await this.send({ type: 'rows', list, start, end });
    return response.type === 'rows' ? (response.rows as RowOf<L>[]) : [];
  }

  async event(index: number): Promise<unknown> {
    const response = await this.send({ type: 'event', index });
    return response.type === 'event' ? response.event : null;
  }

  diff(a: Source, b: Source, trust: Trust) {
    return this.send({ type: 'diff', a, b, trust });
  }

  terminate(): void {
    this.worker.terminate();
  }
}
