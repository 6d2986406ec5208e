// `pnpm --filter @runback/api api-key create --project NAME [--label TEXT] [--json]`
// `… api-key list [--project NAME] [--json]`, `… api-key revoke ID [--json]`
// Talks to the service's database directly (DATABASE_URL, else RUNBACK_DATA_DIR's SQLite).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { apiKeyInfo, issueApiKey } from './auth/api-keys.js';
import { openStore, storeLocationFrom } from './store/open.js';

const USAGE = `Usage: api-key create --project NAME [--label TEXT] [--json]
       api-key list [--project NAME] [--json]
       api-key revoke ID [--json]

Issues, lists and revokes API keys in the service's database (DATABASE_URL, else the SQLite
file under RUNBACK_DATA_DIR, default ./data). A new key's token is printed once.
Exit status: 0 done, 1 not found, 64 usage error.`;

function fail(json: boolean, code: string, message: string, exit: number): number {
  if (json) process.stdout.write(JSON.stringify({ error: { code, message } }) + '\n');
  else process.stderr.write(`api-key: ${message}\n`);
  return exit;
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        project: { type: 'string' },
        label: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    return fail(argv.includes('--json'), 'USAGE', (err as Error).message, 64);
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  if (values.help === true) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const [command, ...rest] = positionals;
  if (command !== 'create' && command !== 'list' && command !== 'revoke') {
    return fail(
      json,
      'USAGE',
      `expected a command create, list or revoke, got ${command === undefined ? 'none' : JSON.stringify(command)}\n${USAGE}`,
      64,
    );
  }
  if (command === 'create' && (values.project === undefined || values.project === '')) {
    return fail(json, 'USAGE', 'expected --project NAME, got none', 64);
  }
  if (command === 'revoke' && rest.length !== 1) {
    return fail(json, 'USAGE', `expected one key ID to revoke, got ${rest.length}`, 64);
  }
  const store = openStore(
    storeLocationFrom(process.env, resolve(process.env['RUNBACK_DATA_DIR'] ?? './data')),
  );
  try {
    await store.migrate();
    const at = new Date().toISOString();
    if (command === 'create') {
      const issued = await issueApiKey(store, values.project as string, values.label, at);
      process.stdout.write(
        json
          ? JSON.stringify(issued) + '\n'
          : `API key ${issued.id} for project ${issued.project}:\n\n  ${issued.token}\n\nShown once: store it now. The service keeps only its SHA-256.\n`,
      );
      return 0;
    }
    if (command === 'list') {
      const keys = (await store.listApiKeys(values.project)).map(apiKeyInfo);
      if (json) process.stdout.write(JSON.stringify({ api_keys: keys }) + '\n');
      else
        for (const k of keys)
          process.stdout.write(
            `${k.id}  ${k.project}  ${k.revoked_at === null ? 'active' : `revoked ${k.revoked_at}`}  ${k.label ?? ''}\n`,
          );
      return 0;
    }
    const id = rest[0] as string;
    if (!(await store.revokeApiKey(id, at)))
      return fail(
        json,
        'NOT_FOUND',
        `expected an unrevoked API key ${JSON.stringify(id)}, got none`,
        1,
      );
    process.stdout.write(json ? JSON.stringify({ id, revoked: true }) + '\n' : `revoked ${id}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`api-key: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
