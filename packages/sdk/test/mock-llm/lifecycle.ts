// A fresh mock server for each test of a file, closed after it.
import { afterEach, beforeEach } from 'vitest';
import { startMockServer, type MockServer } from './server.js';

/** Registers the hooks; the returned function gives the current test's server. */
export function mockServerPerTest(): () => MockServer {
  let server: MockServer | undefined;
  beforeEach(async () => {
    server = await startMockServer();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return () => {
    if (server === undefined)
      throw new Error('expected a running mock server, got none (call inside a test)');
    return server;
  };
}

/** Everything an async iterable yields, in order. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** An API key no redaction pattern knows: if it reaches a record, only the writer put it there. */
export const PLAIN_API_KEY = 'mock-key-3c9d1e7f5a2b8c4d';

/** What `promise` rejects with; a test failure when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, got a result');
}
