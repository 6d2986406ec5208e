// GET /api/openapi.json documents every endpoint, with request schemas from the zod schemas
// that validate them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './support/app.js';
import { testDatabase, type TestDatabase } from './support/databases.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase('sqlite');
});
afterAll(async () => {
  await db?.cleanup();
});

describe('openapi', () => {
  it('lists every endpoint and derives bodies from the validation schemas', async () => {
    const t = testApp(db.store);
    const doc = (await (await t.call('GET', '/api/openapi.json')).json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<
                string,
                { schema: { required?: string[]; properties?: Record<string, unknown> } }
              >;
            };
          }
        >
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/.well-known/runback-audit-key.pem',
        '/.well-known/runback-audit-keys.json',
        '/api/admin/api-keys',
        '/api/admin/api-keys/{id}',
        '/api/audit/verify',
        '/api/log/checkpoint',
        '/api/log/consistency',
        '/api/log/proof/{run_id}',
        '/api/openapi.json',
        '/api/runs',
        '/api/runs/{id}',
        '/api/runs/{id}/events',
        '/api/runs/{id}/export',
        '/api/runs/{id}/finish',
        '/healthz',
        '/metrics',
        '/readyz',
      ].sort(),
    );
    const start = doc.paths['/api/runs']!['post']!.requestBody!.content['application/json']!.schema;
    expect(start.required).toEqual(['name']);
    const finish =
      doc.paths['/api/runs/{id}/finish']!['post']!.requestBody!.content['application/json']!.schema;
    expect(finish.properties?.['status']).toEqual({ type: 'string', enum: ['success', 'error'] });
    expect(Object.keys(doc.components.schemas['Event']!.properties ?? {})).toEqual(
      expect.arrayContaining([
        'schema_version',
        'span_id',
        'parent_span_id',
        'seq',
        'ts_start',
        'ts_end',
        'type',
      ]),
    );
  });

  it('answers unknown paths with the one error shape', async () => {
    const t = testApp(db.store);
    const res = await t.call('GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'expected a known endpoint, got GET /api/nothing-here' },
    });
  });
});
