// The shell snippets of the READMEs and guides, run as written against the built `runback` bin
// in a fresh folder: each command's exit status and key output as the document states them.
// Every command of each document is either run here or named with the test that covers it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, fencedBlock, given, REPO, runDoc, runShell, shimDir } from './doc-snippets.js';
import { tempDir } from './support.js';

/** The unsealed record the CLI README's example saves as run.json. */
const RUN_JSON = fencedBlock('packages/cli/README.md', 'json', '## Example');

/** A plain program, as the snippets' `node agent.js`: it prints, and reads the clock. */
const AGENT_JS = "console.log('decision: approve at ' + Date.now());\n";

/** An OTLP/HTTP collector on 127.0.0.1 that keeps what is posted to /v1/traces. */
async function collector() {
  const posts: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') posts.push(body);
      res.writeHead(req.url === '/v1/traces' ? 200 : 404, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('packages/cli/README.md', () => {
  it('runs every shell snippet with the exit status and output it states', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'run.json'), RUN_JSON);
    writeFileSync(join(dir, 'agent.js'), AGENT_JS);
    const otlp = await collector();
    try {
      const ran = await runDoc(
        'packages/cli/README.md',
        {
          'npm install --global @runback/cli    # or: npx @runback/cli <command>': {
            elsewhere: 'scripts/pack-install.test.js installs the packed @runback/cli',
          },
          'runback keygen --out keys                                  # keys/runback.key.pem (0600), keys/runback.pub.pem':
            {
              exit: 0,
              stdout: /runback\.key\.pem/,
              after: () => {
                expect(statSync(join(dir, 'keys/runback.key.pem')).mode & 0o777).toBe(0o600);
                expect(statSync(join(dir, 'keys/runback.pub.pem')).isFile()).toBe(true);
              },
            },
          'runback sign run.json --key keys/runback.key.pem --out record.json': {
            exit: 0,
            after: () => {
              const record = JSON.parse(readFileSync(join(dir, 'record.json'), 'utf8')) as {
                manifest: { signed: boolean };
              };
              expect(record.manifest.signed).toBe(true);
            },
          },
          'runback verify record.json --pubkey keys/runback.pub.pem   # exit 0: valid': {
            exit: 0,
            stdout: /^VALID/m,
          },
          'runback inspect record.json --pubkey keys/runback.pub.pem  # VALID first, then input, outcome, tool calls':
            { exit: 0, stdout: /^\S*VALID[\s\S]*Hello!/ },
          'runback record --out run.json --report run.report.json -- node agent.js': {
            exit: 0,
            stdout: /^decision: approve at \d+\n$/,
          },
          'jq .exit_code run.report.json': { exit: 0, stdout: /^0\n$/ },
          'runback export --otlp record.json --out traces.json': { exit: 0 },
          "curl -X POST -H 'Content-Type: application/json' --data-binary @traces.json http://127.0.0.1:4318/v1/traces":
            {
              exit: 0,
              as: () =>
                `curl -sS -f -X POST -H 'Content-Type: application/json' --data-binary @traces.json ${otlp.url}/v1/traces`,
              after: () =>
                expect(otlp.posts).toEqual([readFileSync(join(dir, 'traces.json'), 'utf8')]),
            },
          'runback import --otlp traces.json --key keys/runback.key.pem --out imported.json': {
            exit: 0,
            stdout: /Imported trace/,
          },
        },
        dir,
        check,
      );
      expect(ran.length).toBe(9);
    } finally {
      await otlp.close();
    }
  });

  it('verify without --pubkey exits 2, and with one byte of an event changed exits 1', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'run.json'), RUN_JSON);
    await given(dir, 'runback keygen --out keys');
    await given(dir, 'runback sign run.json --key keys/runback.key.pem --out record.json');
    const shims = shimDir(dir);
    check('verify', await runShell('runback verify record.json', dir, shims), {
      exit: 2,
      stdout: /^UNVERIFIED/m,
    });
    const text = readFileSync(join(dir, 'record.json'), 'utf8');
    expect(text).toContain('"Hello!"');
    writeFileSync(join(dir, 'record.json'), text.replace('"Hello!"', '"Hellp!"'));
    check('tampered', await runShell('runback verify record.json', dir, shims), {
      exit: 1,
      stdout: /^INVALID/m,
    });
  });

  it('runs the Library example as written', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'run.json'), RUN_JSON);
    await given(dir, 'runback sign run.json --out record.json');
    // Beside the package, so `@runback/cli` resolves to it; run from the folder with record.json.
    const code = fencedBlock('packages/cli/README.md', 'ts', '## Library');
    const file = join(REPO, 'packages', 'cli', 'test', `readme-library-${process.pid}.mjs`);
    writeFileSync(file, code);
    try {
      const ran = await runShell(`node ${JSON.stringify(file)}`, dir, shimDir(dir));
      // inspect exits 0 for an intact record given no key; --json starts with the verdict.
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(/^\{"verdict":"unverified",/);
      expect(JSON.parse(ran.stdout)).toMatchObject({ run: { name: 'hello-agent' } });
    } finally {
      await import('node:fs').then((fs) => fs.rmSync(file, { force: true }));
    }
  });
});

describe('README.md', () => {
  it('runs the verify snippets with the exit status they state', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'run.json'), RUN_JSON);
    const ran = await runDoc(
      'README.md',
      {
        'pnpm install && pnpm demo     # main job: record the example agent, verify, tamper, replay, diff':
          { elsewhere: 'scripts/demo.test.js runs the demo' },
        "pnpm install && pnpm test     # tests: lint, typecheck, build and every package's test suite":
          { elsewhere: 'the repository test itself' },
        'npx @runback/verify record.json --pubkey signer.pub.pem': {
          before: async () => {
            await given(dir, 'runback keygen --name signer');
            await given(dir, 'runback sign run.json --key signer.key.pem --out record.json');
          },
          exit: 0,
          stdout: /^VALID\s+record\.json/m,
        },
        'runback verify a.json b.json --json --pubkey current.pub.pem --pubkey rotated.pub.pem': {
          before: async () => {
            await given(dir, 'runback keygen --name current && runback keygen --name rotated');
            await given(dir, 'runback sign run.json --key current.key.pem --out a.json');
            await given(dir, 'runback sign run.json --key rotated.key.pem --out b.json');
          },
          exit: 0,
          after: (r) => {
            const lines = r.stdout
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as object);
            expect(lines).toMatchObject([
              { file: 'a.json', verdict: 'valid' },
              { file: 'b.json', verdict: 'valid' },
            ]);
          },
        },
        'runback verify - < record.json --key "$HMAC_KEY"': {
          before: () =>
            given(dir, 'runback sign run.json --hmac-key "$HMAC_KEY" --out record.json', {
              HMAC_KEY: 'team secret',
            }),
          env: { HMAC_KEY: 'team secret' },
          exit: 0,
          stdout: /^VALID/m,
        },
        'pnpm start                                             # http://127.0.0.1:8787, SQLite under ./data':
          { elsewhere: 'apps/api tests start the service (test/support/server-process.ts)' },
        'pnpm --filter @runback/api api-key create --project acme': {
          elsewhere: 'apps/api tests run the api-key command',
        },
        'pnpm --filter ./apps/web build && pnpm --filter ./apps/web preview   # http://127.0.0.1:4173/':
          { elsewhere: 'apps/web tests build and serve the page in Chromium' },
        'pnpm install': { elsewhere: 'the repository setup' },
        'pnpm test          # lint + typecheck + build + tests (turbo)': {
          elsewhere: 'the repository test itself',
        },
        'pnpm bench         # canonical, verify, recording overhead, replay: side-by-side figures':
          { elsewhere: 'bench/run.js (pnpm bench --check)' },
        'pnpm changeset     # describe a change to a published package': {
          elsewhere: 'changesets CLI',
        },
      },
      dir,
      check,
    );
    expect(ran.length).toBe(3);
  });

  it('shows the output runback verify gives for the example record', async () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const shown = /^```\n(VALID [\s\S]*?)^```/m.exec(readme)?.[1] ?? '';
    const file = /^VALID {2}(\S+)/.exec(shown)?.[1];
    expect(file).toBe('examples/records/loan-approval.json');
    const ran = await runShell(
      `runback verify ${file} --pubkey examples/keys/demo.pub.pem`,
      REPO,
      shimDir(tempDir()),
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.trimEnd().replace(/ +$/gm, '')).toBe(shown.trimEnd().replace(/ +$/gm, ''));
  });
});

describe('examples/loan-approval-agent/README.md', () => {
  it('records, verifies, replays and diffs the example agent as the README says', async () => {
    const dir = tempDir();
    symlinkSync(join(REPO, 'examples'), join(dir, 'examples'));
    const mockModule = join(REPO, 'examples/loan-approval-agent/mock-openai-server.js');
    const { startMockOpenAI } = (await import(mockModule)) as {
      startMockOpenAI: () => Promise<{ url: string; close: () => Promise<void> }>;
    };
    const mock = await startMockOpenAI();
    let stopped = false;
    const stop = async () => {
      if (!stopped) await mock.close();
      stopped = true;
    };
    try {
      const agent = 'node examples/loan-approval-agent/agent.js';
      const ran = await runDoc(
        'examples/loan-approval-agent/README.md',
        {
          'runback keygen --out keys': { exit: 0 },
          'node examples/loan-approval-agent/main.js --out loan.record.json --key keys/runback.key.pem':
            { exit: 0 },
          'runback verify loan.record.json --pubkey keys/runback.pub.pem': {
            exit: 0,
            stdout: /^VALID/m,
          },
          'runback inspect loan.record.json': {
            exit: 0,
            stdout: /^\S*UNVERIFIED[\s\S]*get_credit_score/,
          },
          [`runback record --out baseline.json --key keys/runback.key.pem -- ${agent} --base-url http://127.0.0.1:PORT/v1`]:
            {
              as: () =>
                `runback record --out baseline.json --key keys/runback.key.pem -- ${agent} --base-url ${mock.url}`,
              exit: 0,
              stderr: /Recorded/,
            },
          [`runback replay baseline.json -- ${agent} --base-url http://127.0.0.1:9/v1`]: {
            before: stop,
            exit: 0,
            stderr: /REPRODUCED/,
          },
          [`runback replay baseline.json --mode ordered --out candidate.json -- ${agent} --base-url http://127.0.0.1:9/v1 --prompt-style brief`]:
            { exit: 1, stderr: /DIVERGED/ },
          'runback diff baseline.json candidate.json': { exit: 1, stdout: /~/ },
        },
        dir,
        check,
      );
      expect(ran.length).toBe(8);
    } finally {
      await stop();
    }
  });
});
