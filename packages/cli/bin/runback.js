#!/usr/bin/env node
// The `runback` executable. A file that exists before the build, so a fresh clone's first
// `pnpm install` links it; the command itself is the built dist/bin.js.
import '../dist/bin.js';
