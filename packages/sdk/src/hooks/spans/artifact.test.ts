import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventsOf, recordValid } from '../../../test/support/record.js';
import { artifact } from './artifact.js';
import { tool } from './tool.js';

describe('artifact', () => {
  it('names the file with its size and SHA-256 in an artifact event that enters the chain, not the cassette', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const { record } = await recordValid(
      async () => {
        artifact('report.txt', 'approved\n');
        await tool('chart', null, () => artifact('charts/score.png', png));
      },
      { runId: 'run_artifact1' },
    );
    const events = eventsOf(record, 'artifact');
    expect(events.map((e) => [e.run_id, e.schema_version, e.ts_start === e.ts_end])).toEqual([
      ['run_artifact1', 1, true],
      ['run_artifact1', 1, true],
    ]);
    expect(events.map((e) => e['artifacts'])).toEqual([
      [
        {
          name: 'report.txt',
          sha256: createHash('sha256').update('approved\n').digest('hex'),
          bytes: 9,
        },
      ],
      [
        {
          name: 'charts/score.png',
          sha256: createHash('sha256').update(png).digest('hex'),
          bytes: 4,
        },
      ],
    ]);
    expect(events[1]?.parent_span_id).toBe(eventsOf(record, 'tool')[0]?.span_id);
    expect(record.manifest.replay['entry_count']).toBe(1);
  });

  it('refuses unsafe names and non-bytes, and records nothing outside a run', () => {
    for (const name of ['', '/etc/passwd', '../x', 'a/../b', 'a\\b', 'a//b', 'C:x', 'a\nb']) {
      expect(() => artifact(name, 'x')).toThrow(TypeError);
    }
    expect(() => artifact('x', 1 as never)).toThrow(/bytes/);
    expect(artifact('out.txt', 'x')).toEqual({
      name: 'out.txt',
      sha256: createHash('sha256').update('x').digest('hex'),
      bytes: 1,
    });
  });
});
