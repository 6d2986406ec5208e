// Test support: the built page served from dist/ over loopback (as any static host or the
// API would serve it) and Debian's Chromium driven by playwright-core.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const DIST = fileURLToPath(new URL('../dist', import.meta.url));
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

export interface StaticSite {
  readonly url: string;
  /** Extra routes (path → body), e.g. records for ?url= or the service's keys document. */
  readonly routes: Map<string, { body: string | Buffer; type: string }>;
  close(): Promise<void>;
}

export async function serveDist(): Promise<StaticSite> {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error(`expected the built page in ${DIST}, got nothing (run the build first)`);
  }
  const routes = new Map<string, { body: string | Buffer; type: string }>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const extra = routes.get(path);
    if (extra !== undefined) {
      res.writeHead(200, {
        'content-type': extra.type,
        'content-length': Buffer.byteLength(extra.body),
      });
      res.end(extra.body);
      return;
    }
    const file = normalize(join(DIST, path === '/' ? 'index.html' : path));
    if (!file.startsWith(DIST) || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    routes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TestBrowser {
  readonly browser: Browser;
  newPage(options?: {
    offline?: boolean;
  }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  close(): Promise<void>;
}

const chosenFiles = mkdtempSync(join(tmpdir(), 'runback-web-files-'));

export async function launchChromium(): Promise<TestBrowser> {
  // playwright-core gives every launch a fresh, empty --user-data-dir of its own (and removes
  // it on close); each test page gets a new incognito-like context with its own storage.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: { width: 1400, height: 1000 },
        acceptDownloads: true,
        offline: options.offline ?? false,
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        // A static host has no service keys document: its 404 is expected, not an error.
        if (m.type() === 'error' && !m.location().url.endsWith('/runback-audit-keys.json')) {
          errors.push(`console: ${m.text()} (${m.location().url})`);
        }
      });
      return { page, context, errors };
    },
    async close() {
      await browser.close();
      rmSync(chosenFiles, { recursive: true, force: true });
    },
  };
}

/** The built page on a loopback site and one Chromium, for the tests of one file. */
export function pageSuite(): { readonly site: StaticSite; readonly chrome: TestBrowser } {
  const suite = {} as { site: StaticSite; chrome: TestBrowser };
  beforeAll(async () => {
    suite.site = await serveDist();
    suite.chrome = await launchChromium();
  });
  afterAll(async () => {
    await suite.chrome?.close();
    await suite.site?.close();
  });
  return suite;
}

/**
 * Gives the page a record through its file input, as a reader choosing a file does: from a
 * file on disk, which Chromium reads itself (a buffer would be copied in through page script).
 */
export async function chooseRecord(page: Page, name: string, text: string | Buffer): Promise<void> {
  // A chosen File is read from disk when the page reads it: the file stays until close().
  const dir = mkdtempSync(join(chosenFiles, 'f-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  const before = await page.evaluate(
    () => document.querySelector('[data-verdict]')?.getAttribute('data-verification') ?? '',
  );
  await page.setInputFiles('#record-file', file);
  // Until the page shows a new verdict (or says the file could not be read).
  await page.waitForFunction(
    (previous) =>
      (document.querySelector('[data-verdict]')?.getAttribute('data-verification') ?? '') !==
        previous || document.querySelector('[data-failure]') !== null,
    before,
  );
}

/** Waits for the verdict of the record just given and returns it. */
export async function verdictOf(page: Page): Promise<string> {
  await page.waitForSelector('[data-verdict]');
  await page.waitForFunction(
    () => document.querySelector('.progress')?.getAttribute('data-stage') === 'idle',
  );
  return (await page.getAttribute('[data-verdict]', 'data-verdict')) ?? '';
}

/** The page's check results, as data-check → data-result. */
export async function checksOf(page: Page): Promise<Record<string, string>> {
  return page.$$eval('[data-check]', (rows) =>
    Object.fromEntries(
      rows.map((r) => [r.getAttribute('data-check'), r.getAttribute('data-result')]),
    ),
  );
}

/** Runs axe-core in the page and returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  const source = readFileSync(
    createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
    'utf8',
  );
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (c: unknown) => Promise<{
            violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
