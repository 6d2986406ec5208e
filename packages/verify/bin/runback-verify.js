#!/usr/bin/env node
// `npx @runback/verify FILE...`: the command in docs/spec.md §8. This package does no I/O; its
// command-line front-end is @runback/verify-cli (a peer dependency, so npm installs it with
// this package), and this file only hands over to it.
import { runVerifyBin } from '@runback/verify-cli';

await runVerifyBin();
