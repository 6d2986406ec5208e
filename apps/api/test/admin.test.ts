// The admin endpoints: guarded by RUNBACK_ADMIN_TOKEN, a token shown once, keys listed
// without their tokens and revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, testApp } from './support/app.js';
import { testDatabase, type TestDatabase } from './support/databases.js';
import { createApp } from '../src/app.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase('sqlite');
});
afterAll(async () => {
  await db?.cleanup();
});

describe('admin api keys', () => {
  it('refuses requests without the admin token', async () => {
    const t = testApp(db.store);
    expect((await t.call('POST', '/api/admin/api-keys', { body: { project: 'p' } })).status).toBe(
      401,
    );
    expect(
      (await t.call('GET', '/api/admin/api-keys', { token: 'not-the-admin-token' })).status,
    ).toBe(401);
    const disabled = createApp({ ...t.deps, adminToken: undefined });
    const res = await disabled.request('/api/admin/api-keys', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: { code: 'UNAUTHORIZED', message: expect.stringMatching(/RUNBACK_ADMIN_TOKEN/) },
    });
  });

  it('issues a key once, lists it without its token, and revokes it', async () => {
    const t = testApp(db.store);
    const created = await t.call('POST', '/api/admin/api-keys', {
      token: ADMIN_TOKEN,
      body: { project: 'acme', label: 'deploy' },
    });
    expect(created.status).toBe(201);
    const key = (await created.json()) as {
      id: string;
      token: string;
      project: string;
      label: string;
    };
    expect(key).toMatchObject({ project: 'acme', label: 'deploy' });
    expect((await t.call('GET', '/api/runs', { token: key.token })).status).toBe(200);
    const list = (await (
      await t.call('GET', '/api/admin/api-keys?project=acme', { token: ADMIN_TOKEN })
    ).json()) as { api_keys: Record<string, unknown>[] };
    expect(list.api_keys).toEqual([
      {
        id: key.id,
        project: 'acme',
        label: 'deploy',
        created_at: expect.any(String),
        revoked_at: null,
      },
    ]);
    expect(
      (await t.call('DELETE', `/api/admin/api-keys/${key.id}`, { token: ADMIN_TOKEN })).status,
    ).toBe(200);
    expect(
      (await t.call('DELETE', `/api/admin/api-keys/${key.id}`, { token: ADMIN_TOKEN })).status,
    ).toBe(404);
    expect((await t.call('GET', '/api/runs', { token: key.token })).status).toBe(401);
    const bad = await t.call('POST', '/api/admin/api-keys', {
      token: ADMIN_TOKEN,
      body: { label: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'member project: expected string, got undefined',
      },
    });
  });
});
