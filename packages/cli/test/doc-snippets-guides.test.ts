// The shell snippets of docs/guides, run as written against the built `runback` bin in a fresh
// folder (see doc-snippets.ts). The programs they name (`node agent.js`) are supplied here: an
// agent that asks a model on 127.0.0.1 over fetch, whose answer changes on every call, so a
// replay that went to the network, or a drift check that did not, would show.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  check,
  fencedBlock,
  given,
  REPO,
  runDoc,
  runShell,
  shimDir,
  type Expect,
} from './doc-snippets.js';
import { tempDir } from './support.js';

const RUN_JSON = fencedBlock('packages/cli/README.md', 'json', '## Example');

const AGENT_JS = `const res = await fetch(process.env.MODEL_URL, { method: 'POST', body: '{"prompt":"decide"}' });
console.log('decision: ' + (await res.text()));
`;

/** A model on 127.0.0.1 whose answer names how many calls it has had. */
async function model() {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      calls++;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`approve #${calls}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/decide`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('docs/guides/opentelemetry.md', () => {
  it('exports, posts, imports and verifies as the guide says', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'run.json'), RUN_JSON);
    await given(dir, 'runback keygen --out keys');
    await given(dir, 'runback sign run.json --key keys/runback.key.pem --out record.json');
    const posts: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d));
      req.on('end', () => {
        posts.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await runDoc(
        'docs/guides/opentelemetry.md',
        {
          'runback export --otlp record.json --pubkey keys/runback.pub.pem --out traces.json': {
            exit: 0,
            after: () =>
              expect(readFileSync(join(dir, 'traces.json'), 'utf8')).toContain('invoke_agent'),
          },
          "curl -X POST -H 'Content-Type: application/json' --data-binary @traces.json http://127.0.0.1:4318/v1/traces":
            {
              as: () =>
                `curl -sS -f -X POST -H 'Content-Type: application/json' --data-binary @traces.json http://127.0.0.1:${port}/v1/traces`,
              exit: 0,
              after: () => expect(posts).toEqual([readFileSync(join(dir, 'traces.json'), 'utf8')]),
            },
          'runback import --otlp traces.json --key keys/runback.key.pem --out record.json': {
            exit: 0,
            stdout: /matches|digests/,
          },
          'runback verify record.json --pubkey keys/runback.pub.pem': {
            exit: 0,
            stdout: /^VALID/m,
          },
        },
        dir,
        check,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('docs/guides/recording.md', () => {
  it('recovers a journal left by a run that died, and records a program', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'agent.js'), "console.log('decision: approve');\n");
    await given(dir, 'runback keygen --out keys');
    // A run that dies before it ends: its journal is all that is left.
    const sdk = join(REPO, 'packages', 'sdk', 'dist', 'index.js');
    writeFileSync(
      join(dir, 'dies.mjs'),
      `import { readFileSync } from 'node:fs';
import { startRun, tool } from ${JSON.stringify(sdk)};
const run = startRun({ name: 'loan-approval-agent', out: 'loan.record.json', journal: true,
  signer: { alg: 'Ed25519', privateKey: readFileSync('keys/runback.key.pem', 'utf8') } });
await run.run(() => tool('get_credit_score', { applicant_id: 'A-1029' }, async () => ({ value: 742 })));
process.exit(9);
`,
    );
    const died = await runShell('node dies.mjs', dir, shimDir(dir));
    expect(died.code, died.stderr).toBe(9);
    expect(existsSync(join(dir, 'loan.record.json.journal'))).toBe(true);
    await runDoc(
      'docs/guides/recording.md',
      {
        'runback recover loan.record.json.journal --key keys/runback.key.pem': {
          exit: 0,
          after: async () => {
            const ran = await runShell(
              'runback verify loan.record.json --pubkey keys/runback.pub.pem --json',
              dir,
              shimDir(dir),
            );
            expect(ran.code, ran.stdout).toBe(0);
            const record = JSON.parse(readFileSync(join(dir, 'loan.record.json'), 'utf8')) as {
              events: { type: string; tool_name?: string; error?: { name?: string } | null }[];
            };
            expect(record.events.some((e) => e.tool_name === 'get_credit_score')).toBe(true);
            expect(record.events.at(-1)?.error?.name).toBe('Interrupted');
          },
        },
        'runback record --out run.json --key keys/runback.key.pem -- node agent.js': {
          exit: 0,
          stdout: /^decision: approve\n$/,
          stderr: /Recorded/,
        },
      },
      dir,
      check,
    );
  });
});

describe('docs/guides/replay.md', () => {
  it('records, replays, diffs and runs the CI recipe as the guide says', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'agent.js'), AGENT_JS);
    await given(dir, 'runback keygen --out keys && git init -q && mkdir -p test/fixtures');
    const m = await model();
    const env = { MODEL_URL: m.url, RUNBACK_KEY_FILE: 'keys/runback.key.pem' };
    const e = (want: Omit<Expect, 'env'>): Expect => ({ ...want, env });
    let callsBefore = 0;
    const offline = {
      before: () => (callsBefore = m.calls()),
      after: () => expect(m.calls()).toBe(callsBefore),
    };
    try {
      await runDoc(
        'docs/guides/replay.md',
        {
          'runback record --out baseline.json --key keys/runback.key.pem -- node agent.js': e({
            exit: 0,
            stdout: /^decision: approve #\d+\n$/,
          }),
          'runback replay baseline.json --pubkey keys/runback.pub.pem -- node agent.js': e({
            ...offline,
            exit: 0,
            stderr: /REPRODUCED/,
          }),
          'runback diff baseline.json candidate.json [--json]': {
            elsewhere: 'a synopsis: the recipe below runs runback diff',
          },
          'runback record --out test/fixtures/loan.baseline.json --key "$RUNBACK_KEY_FILE" -- node agent.js':
            e({ exit: 0 }),
          'git add test/fixtures/loan.baseline.json': e({ exit: 0 }),
          'runback replay test/fixtures/loan.baseline.json --mode ordered --out candidate.json -- node agent.js':
            e({ ...offline, exit: 0, stderr: /REPRODUCED/ }),
          'runback diff test/fixtures/loan.baseline.json candidate.json      # review this in the PR':
            e({ exit: 0 }),
          "runback record --out fresh.json -- node agent.js            # needs the provider's API key":
            e({ exit: 0 }),
          "runback diff test/fixtures/loan.baseline.json fresh.json    # exit 1: the model's answers moved":
            e({ exit: 1, stdout: /approve #/ }),
          'runback replay test/fixtures/loan.baseline.json --mode live-on-miss --out fork.json -- node agent.js':
            e({ ...offline, exit: 0 }),
          'runback diff test/fixtures/loan.baseline.json fork.json': e({ exit: 0 }),
        },
        dir,
        check,
      );
      // The workflow step of the recipe, with the team's key where the recipe keeps it.
      const step = /- run: (.+)/.exec(
        fencedBlock('docs/guides/replay.md', 'yaml', '## The CI recipe'),
      )?.[1];
      expect(step).toMatch(/^npx -p @runback\/cli runback replay /);
      await given(dir, 'mkdir -p keys && cp keys/runback.pub.pem keys/team.pub.pem');
      callsBefore = m.calls();
      check(step ?? '', await runShell(step ?? '', dir, shimDir(dir), env), {
        exit: 0,
        stderr: /REPRODUCED/,
      });
      expect(m.calls()).toBe(callsBefore);
    } finally {
      await m.close();
    }
  });
});
