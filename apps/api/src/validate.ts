// Turning a schema failure into the one error shape with a message that names the member.
import type { z } from 'zod';
import { ApiError, type ApiErrorCode } from './errors.js';

/** A JSON-Pointer-like path for messages: `events[3].model.model_id`. */
export function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(body)' : out;
}

/** The first issue of a failed parse, as "`member`: expected X, got Y". */
export function issueText(error: z.ZodError, prefix: readonly PropertyKey[] = []): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'expected a valid value';
  const where = pathText([...prefix, ...issue.path]);
  const raw = issue.message.replace(/^Invalid input: /, '').replace(/\breceived\b/, 'got');
  const message = /^expected /i.test(raw) ? raw : `expected a valid value, got: ${raw}`;
  return `member ${where}: ${message}`;
}

/** Parses `value` with `schema` or throws a 400 naming the offending member. */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  code: ApiErrorCode = 'VALIDATION_FAILED',
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(400, code, issueText(result.error));
  return result.data;
}
