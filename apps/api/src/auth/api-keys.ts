// API keys: bearer tokens `rbk_<id>_<secret>`, the secret 32 random bytes (base64url). A token
// is shown once, when it is issued; the store keeps only its SHA-256. Checking a token looks
// the key up by its id and compares the hashes in constant time, so the comparison leaks
// nothing about how much of a guess was right.
import { sha256Hex } from '@runback/canonical';
import { constantTimeEqual } from '@runback/sign';
import { ApiError } from '../errors.js';
import { randomBytes, randomId, toBase64Url } from '../ids.js';
import type { ApiKeyListing, ApiKeyRow, Store } from '../store/types.js';

const TOKEN = /^rbk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** An API key as listings show it (never with its token). */
export interface ApiKeyInfo {
  readonly id: string;
  readonly project: string;
  readonly label: string | null;
  readonly created_at: string;
  readonly revoked_at: string | null;
}

export function apiKeyInfo(row: ApiKeyListing): ApiKeyInfo {
  return {
    id: row.id,
    project: row.project_name,
    label: row.label,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/** Issues a key for `project` (created when missing). The token is in the answer only. */
export async function issueApiKey(
  store: Store,
  project: string,
  label: string | undefined,
  at: string,
): Promise<ApiKeyInfo & { readonly token: string }> {
  const projectRow = await store.ensureProject(project, randomId('prj_'), at);
  const id = randomId('', 16);
  const token = `rbk_${id}_${toBase64Url(randomBytes(32))}`;
  const row: ApiKeyRow = {
    id,
    project_id: projectRow.id,
    token_hash: sha256Hex(token),
    label: label ?? null,
    created_at: at,
    revoked_at: null,
  };
  await store.insertApiKey(row);
  return { id, project, label: row.label, created_at: at, revoked_at: null, token };
}

function unauthorized(message: string): ApiError {
  return new ApiError(401, 'UNAUTHORIZED', message);
}

/** The bearer token of an Authorization header, or a 401. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header === '') {
    throw unauthorized('expected an Authorization: Bearer <API key> header, got none');
  }
  const match = /^Bearer +(\S+)$/i.exec(header);
  if (match === null)
    throw unauthorized(
      'expected an Authorization header of the form "Bearer <API key>", got another form',
    );
  return match[1] as string;
}

/** The project a token belongs to, or a 401 for a malformed, unknown or revoked key. */
export async function authenticate(
  store: Store,
  header: string | undefined,
): Promise<{ projectId: string; keyId: string }> {
  const token = bearerToken(header);
  const match = TOKEN.exec(token);
  const wrong = unauthorized('expected a valid, unrevoked API key, got a key that is not one');
  if (match === null) throw wrong;
  const row = await store.findApiKey(match[1] as string);
  // Hash and compare even when the id is unknown, so both failures take the same work.
  const expected = row?.token_hash ?? '0'.repeat(64);
  const same = constantTimeEqual(
    new TextEncoder().encode(sha256Hex(token)),
    new TextEncoder().encode(expected),
  );
  if (row === undefined || !same || row.revoked_at !== null) throw wrong;
  return { projectId: row.project_id, keyId: row.id };
}

/** Whether `given` is the admin token, compared in constant time. */
export function isAdminToken(given: string, adminToken: string): boolean {
  const a = new TextEncoder().encode(sha256Hex(given));
  const b = new TextEncoder().encode(sha256Hex(adminToken));
  return constantTimeEqual(a, b);
}
