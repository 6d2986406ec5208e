// "The same instant" of the consistent check (docs/spec.md §5.2): ISO 8601 date-times with a
// zone, `Z` or `±hh:mm`, compared at millisecond resolution, so a summary read back from a
// database (`…+00:00`, milliseconds dropped when zero) still agrees with its events.

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/**
 * Milliseconds since the epoch of an ISO 8601 date-time with a zone, or null when the text is
 * not one (no zone, a field out of range, a day the month does not have, a leap second).
 * Digits past the millisecond are dropped: the time lies within that millisecond.
 */
export function instantOf(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = DATE_TIME.exec(text);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Number(((m[7] ?? '') + '000').slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offset = 0;
  if (m[8] === undefined) {
    const hours = Number(m[10]);
    const minutes = Number(m[11]);
    if (hours > 23 || minutes > 59) return null;
    offset = (m[9] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear puts the year back.
  const utc = new Date(local);
  utc.setUTCFullYear(year);
  return utc.getTime() - offset * 60_000;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether two texts are date-times with a zone that denote the same millisecond. */
export function sameInstant(a: unknown, b: unknown): boolean {
  const x = instantOf(a);
  return x !== null && x === instantOf(b);
}
