import { describe, expect, it } from 'vitest';
import { programName } from './program.js';

describe('programName', () => {
  it.each([
    [['node', 'agent.js', '--base-url', 'x'], 'agent.js'],
    [['/usr/local/bin/node', '/srv/app/agents/loan.mjs'], 'loan.mjs'],
    [['node', '--import', './setup.js', '--no-warnings', 'main.js'], 'main.js'],
    [['C:\\Program Files\\nodejs\\node.exe', 'C:\\work\\agent.js'], 'agent.js'],
    [['python3.11', '-u', 'triage.py'], 'triage.py'],
    [['deno', 'run', '--allow-net', 'bot.ts'], 'bot.ts'],
    [['node', '-e', 'console.log(1)'], 'node'],
    [['sh', '-c', 'echo hi'], 'sh'],
    [['node'], 'node'],
    [['./bin/agent', 'run'], 'agent'],
    [['go-agent', 'main.js'], 'go-agent'],
  ])('%j → %s', (argv, name) => expect(programName(argv)).toBe(name));

  it('has no name for an empty command line', () => {
    expect(programName([])).toBeNull();
    expect(programName([''])).toBeNull();
  });
});
