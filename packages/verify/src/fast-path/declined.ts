// How the event canonicalizer gives up on an event: one preallocated exception, thrown from
// any depth of the reading or writing of an event and caught per event (see
// event-canonicalizer.ts), so that declining costs no allocation.

/** A token the text writes in a form the pass does not handle: the event is declined. */
export class Declined extends Error {}

export const DECLINED = new Declined('event declined by the canonicalizing pass');

/** The string a JSON string token stands for; a malformed token declines the event. */
export function parseToken(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    throw DECLINED;
  }
}
