// The README's example runs as written against the built package.
import { expect, it } from 'vitest';
import { runReadmeExample } from '../../../test-support/readme-example.js';

it('runs the README example and gets the results it states', async () => {
  const run = await runReadmeExample(new URL('../README.md', import.meta.url), import.meta.url);
  expect(run.actual).toEqual(run.expected);
});
