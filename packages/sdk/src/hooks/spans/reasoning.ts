// Recording the agent's own reasoning notes as `reasoning` events. They enter the event chain
// (so they cannot be edited) but not the cassette: replay does not serve them.
import { argError } from '../../core/errors.js';
import { emitInstantEvent } from './instant-event.js';

/** Records a reasoning note in the current run; does nothing outside a run. */
export function reasoning(text: string, label?: string): void {
  if (typeof text !== 'string') throw argError('text', 'a string', text);
  if (label !== undefined && typeof label !== 'string') throw argError('label', 'a string', label);
  emitInstantEvent('reasoning', { text, label: label ?? null });
}
