// The page as the audit service serves it at `/`: it pins the service's published keys from
// /.well-known/runback-audit-keys.json, so a record the service signed shows valid at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToPem } from '@runback/sign';
import { chooseRecord, DIST, launchChromium, verdictOf, type TestBrowser } from './browser.js';
import { SIGNER, validRecordText } from './records.js';

const SERVER_JS = join(
  dirname(createRequire(import.meta.url).resolve('@runback/api/package.json')),
  'dist',
  'server.js',
);

let chrome: TestBrowser;
let server: ChildProcess;
let url: string;
const dataDir = mkdtempSync(join(tmpdir(), 'runback-web-api-'));

beforeAll(async () => {
  chrome = await launchChromium();
  server = spawn(process.execPath, [SERVER_JS], {
    env: {
      PATH: process.env['PATH'] ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      RUNBACK_DATA_DIR: dataDir,
      RUNBACK_WEB_DIR: DIST,
      RUNBACK_ED25519_PRIVATE_KEY: privateKeyToPem(SIGNER.privateKey),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`expected the API to start, got: ${out}`)),
      30_000,
    );
    const read = (d: Buffer) => {
      out += d.toString();
      const match = /runback api: (http:\/\/\S+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]!.replace(/\/$/, '') + '/');
      }
    };
    server.stdout!.on('data', read);
    server.stderr!.on('data', read);
  });
});
afterAll(async () => {
  await chrome?.close();
  if (server !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('served by apps/api', () => {
  it('pins the service keys and shows a record the service key signed as valid', async () => {
    const { page, errors } = await chrome.newPage();
    await page.goto(url);
    await page.waitForSelector('[data-role="pinned"]');
    expect(await page.textContent('[data-role="pinned"]')).toContain('service');
    await chooseRecord(page, 'refund.json', validRecordText());
    expect(await verdictOf(page)).toBe('valid');
    expect(errors).toEqual([]);
  });
});
