// An internal service the agents' tools call, on 127.0.0.1: /weather answers after a delay that
// depends on the city (Paris slowly, others quickly), so two lookups started together finish in
// the opposite order; any other path (a trace exporter's ingest endpoint) gets `{}`. Keeps every
// request, with its headers, so tests can see what reached the network.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the service received it. */
export interface ServiceRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A running service. */
export interface Service {
  readonly url: string;
  readonly requests: readonly ServiceRequest[];
  close(): Promise<void>;
}

const TEMPERATURES: Readonly<Record<string, number>> = { Paris: 14.5, Lyon: 17.25 };

/** Starts the service; close it after the test. */
export async function startService(slowMs = 80): Promise<Service> {
  const requests: ServiceRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://service');
      requests.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        headers: req.headers,
        body: Buffer.concat(parts).toString('utf8'),
      });
      const city = url.searchParams.get('city') ?? '';
      const body =
        url.pathname === '/weather'
          ? { city, temp_c: TEMPERATURES[city] ?? 10, sky: city === 'Paris' ? 'rain' : 'sun' }
          : {};
      setTimeout(
        () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        },
        url.pathname === '/weather' && city === 'Paris' ? slowMs : 2,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
