// Where the suite saves the page's screenshots. The committed ones in docs/screenshots (referenced
// from the README) are rewritten only with RUNBACK_UPDATE_SCREENSHOTS=1, so an ordinary test run
// leaves the working tree clean; otherwise they go to a fresh temporary folder.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DOCS_SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots', import.meta.url));

export const SCREENSHOTS =
  process.env['RUNBACK_UPDATE_SCREENSHOTS'] === '1'
    ? DOCS_SCREENSHOTS
    : mkdtempSync(join(tmpdir(), 'runback-web-screenshots-'));
mkdirSync(SCREENSHOTS, { recursive: true });
