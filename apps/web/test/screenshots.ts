// Where the suite saves the page's screenshots (referenced from the README).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });
