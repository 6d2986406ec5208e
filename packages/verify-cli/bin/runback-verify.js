#!/usr/bin/env node
// runback-verify FILE... [--json] [--pubkey PEM]... [--revoked PEM]... [--key K | --key-file F]
// A file that exists before the build, so package managers can link it on first install.
import { runVerifyBin } from '../dist/index.js';

await runVerifyBin();
