// The CommandIO type, taken from the Command contract itself so these commands follow
// wherever the dispatcher's IO type lives.
import type { Command } from '../command.js';

export type CommandIO = Parameters<Command['run']>[1];
