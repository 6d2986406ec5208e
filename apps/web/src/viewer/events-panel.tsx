// The record's events as a virtualised list beside the selected event's detail. The first
// event an error names is highlighted and scrolled to.
import { useEffect, useState } from 'preact/hooks';
import type { RecordHandle } from './handle.js';
import { VirtualList } from '../lib/virtual-list.js';
import type { EventRow } from '../worker/record-index.js';
import { ChainBadge } from './chain-badge.js';
import { EventDetail } from './event-detail.js';

export function EventsPanel(props: {
  handle: RecordHandle;
  idPrefix: string;
  selected: number | null;
  onSelect: (index: number) => void;
  scrollTo: number | null;
}) {
  const { handle } = props;
  const [row, setRow] = useState<EventRow | undefined>(undefined);
  const [event, setEvent] = useState<unknown>(null);
  const bad = handle.summary.firstBadEvent;

  useEffect(() => {
    const at = props.selected;
    if (at === null) {
      setRow(undefined);
      return;
    }
    let live = true;
    void Promise.all([handle.worker.rows('events', at, at + 1), handle.worker.event(at)]).then(
      ([rows, e]) => {
        if (!live) return;
        setRow(rows[0]);
        setEvent(e);
      },
    );
    return () => {
      live = false;
    };
  }, [props.selected, handle.version]);

  return (
    <section class="card events" aria-labelledby={`${props.idPrefix}-events-title`}>
      <h2 id={`${props.idPrefix}-events-title`}>
        Events <span class="muted">({handle.summary.counts.events.toLocaleString('en')})</span>
      </h2>
      {bad !== null && (
        <p class="tone-fail">
          <span aria-hidden="true">✗</span> First bad event: <strong>#{bad}</strong> (highlighted)
        </p>
      )}
      <div class="split">
        <VirtualList<EventRow>
          id={`${props.idPrefix}-events`}
          label="Events of the record"
          count={handle.summary.counts.events}
          rowHeight={52}
          height={420}
          version={handle.version}
          fetchRows={(s, e) => handle.worker.rows('events', s, e)}
          selected={props.selected}
          onSelect={props.onSelect}
          scrollTo={props.scrollTo}
          rowClass={(_, i) => (i === bad ? 'bad' : '')}
          renderRow={(r, i) =>
            r === undefined ? (
              <span class="muted">#{i} …</span>
            ) : (
              <div class="event-row" data-event-index={i} data-bad={String(i === bad)}>
                <div class="event-line">
                  <span class="idx">#{i}</span>
                  <span class={`type type-${r.type}`}>{r.type}</span>
                  <span class="title">{r.title}</span>
                  {r.error !== null && (
                    <span class="tone-fail err-word">
                      <span aria-hidden="true">⚠</span> Error
                    </span>
                  )}
                  {i === bad && (
                    <span class="tone-fail err-word">
                      <span aria-hidden="true">✗</span> First bad event
                    </span>
                  )}
                  <ChainBadge status={r.chain} />
                </div>
                <div class="event-sub muted">{r.error ?? r.detail}</div>
              </div>
            )
          }
        />
        <div class="detail">
          <EventDetail row={row} event={props.selected === null ? null : event} />
        </div>
      </div>
    </section>
  );
}
