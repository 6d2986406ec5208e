// The page: a verifier, a run viewer and a diff view over records read in a worker.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { buildReport } from './lib/report.js';
import { loadStoredKeys, storeKeys, type TrustedKey } from './lib/trust-store.js';
import { serviceKeys } from './lib/well-known.js';
import { VerifierWorker } from './lib/worker-client.js';
import { BundlePanel } from './verifier/bundle-panel.js';
import { ChecksTable } from './verifier/checks-table.js';
import { Findings } from './verifier/findings.js';
import { KeyPins } from './verifier/key-pins.js';
import { ProgressLine, type Progress } from './verifier/progress-line.js';
import { SignerPanel } from './verifier/signer-panel.js';
import { SourceInput } from './verifier/source-input.js';
import { VerdictBanner } from './verifier/verdict-banner.js';
import { CassetteList } from './viewer/cassette-list.js';
import { EventsPanel } from './viewer/events-panel.js';
import type { RecordHandle } from './viewer/handle.js';
import { ModelTotals } from './viewer/model-totals.js';
import { SpanTimeline } from './viewer/span-timeline.js';
import { DiffView } from './diff/diff-view.js';
import type { Response, Source, Trust } from './worker/protocol.js';

type Tab = 'verify' | 'run' | 'diff';
type Verified = Extract<Response, { type: 'verified' }>;

function trustOf(keys: readonly TrustedKey[], hmacKey: string): Trust {
  const pinned = keys.filter((k) => k.role === 'pinned').map((k) => k.pem);
  const revoked = keys.filter((k) => k.role === 'revoked').map((k) => k.pem);
  return hmacKey === '' ? { pinned, revoked } : { pinned, revoked, hmacKey };
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function App() {
  const worker = useMemo(() => new VerifierWorker(), []);
  const [tab, setTab] = useState<Tab>('verify');
  const [keys, setKeys] = useState<TrustedKey[]>(() => loadStoredKeys(globalThis.localStorage));
  const [hmacKey, setHmacKey] = useState('');
  const [progress, setProgress] = useState<Progress | null>(null);
  const [verified, setVerified] = useState<Verified | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const [scrollTo, setScrollTo] = useState<number | null>(null);
  const [serviceReady, setServiceReady] = useState(false);
  const trustRef = useRef(trustOf(keys, hmacKey));
  trustRef.current = trustOf(keys, hmacKey);

  // Only the latest verification counts: a record chosen while another was being verified
  // replaces it, whichever answer arrives last.
  const latest = useRef(0);
  const accept = (ticket: number) => (response: Response) => {
    if (ticket !== latest.current) return;
    setProgress(null);
    if (response.type === 'failed') {
      setFailure(`${response.code}: ${response.message}`);
      return;
    }
    if (response.type !== 'verified') return;
    setFailure(null);
    setVerified(response);
    setVersion((v) => v + 1);
    const bad = response.summary?.firstBadEvent ?? null;
    setSelected(bad);
    setScrollTo(bad);
  };

  const run = (source: Source) => {
    setFailure(null);
    setProgress({ stage: 'read', done: 0, total: 0 });
    const ticket = ++latest.current;
    void worker
      .verify(source, trustRef.current, (stage, done, total) => {
        if (ticket === latest.current) setProgress({ stage, done, total });
      })
      .then(accept(ticket));
  };

  // The service's published keys, when this page is served by the audit API.
  useEffect(() => {
    void serviceKeys(location.href).then((found) => {
      if (found.length > 0) setKeys((k) => [...k.filter((x) => x.origin !== 'service'), ...found]);
      setServiceReady(true);
    });
  }, []);

  // ?url= opens a record by address, once the service's keys are known.
  useEffect(() => {
    if (!serviceReady) return;
    const url = new URLSearchParams(location.search).get('url');
    if (url !== null && url !== '') run({ kind: 'url', url: new URL(url, location.href).href });
  }, [serviceReady]);

  // A change of trust re-verifies the record in hand against the new keys.
  const first = useRef(true);
  useEffect(() => {
    storeKeys(globalThis.localStorage, keys);
    if (first.current) {
      first.current = false;
      return;
    }
    if (verified !== null) void worker.reverify(trustRef.current).then(accept(++latest.current));
  }, [keys, hmacKey]);

  const handle: RecordHandle | null =
    verified?.summary == null ? null : { worker, summary: verified.summary, version };
  const showEvent = (index: number) => {
    setSelected(index);
    setScrollTo(index);
  };

  const tabs: { id: Tab; label: string }[] = [
    { id: 'verify', label: 'Verify' },
    { id: 'run', label: 'Run viewer' },
    { id: 'diff', label: 'Diff' },
  ];

  return (
    <>
      <header class="top">
        <div class="brand">
          <span class="logo" aria-hidden="true">
            ⟲
          </span>
          <div>
            <h1>runback verifier</h1>
            <p class="muted">
              Check a signed agent-run record offline, read the run, compare two runs.
            </p>
          </div>
        </div>
        <nav aria-label="Views">
          <ul class="tabs">
            {tabs.map((t) => (
              <li key={t.id}>
                <button
                  type="button"
                  class="tab"
                  aria-current={tab === t.id ? 'page' : undefined}
                  data-tab={t.id}
                  onClick={() => setTab(t.id)}
                >
                  {t.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" data-view={tab}>
        {tab === 'verify' && (
          <div class="grid">
            <div class="col">
              <SourceInput onSource={run} busy={progress !== null} />
              <KeyPins keys={keys} onKeys={setKeys} hmacKey={hmacKey} onHmacKey={setHmacKey} />
            </div>
            <div class="col wide">
              <ProgressLine progress={progress} />
              {failure !== null && (
                <p class="card tone-fail" role="alert" data-failure>
                  <span aria-hidden="true">✗</span> <strong>Could not read the record.</strong>{' '}
                  {failure}
                </p>
              )}
              {verified === null && progress === null && failure === null && (
                <section class="card intro">
                  <h2>No record yet</h2>
                  <p>
                    Drop a <code>runback.audit/v2</code> record or a <code>runback bundle</code>{' '}
                    <code>.tar.gz</code> on the left, choose it, paste it, or open this page with{' '}
                    <code>?url=</code> and the record’s address. The page runs the same verifier as{' '}
                    <code>runback verify</code>.
                  </p>
                </section>
              )}
              {verified !== null && (
                <>
                  <VerdictBanner
                    verdict={verified.bundle?.verdict ?? verified.result?.verdict ?? 'invalid'}
                    bundle={verified.bundle !== null}
                    file={verified.file}
                    ms={verified.ms}
                    version={version}
                  />
                  <div class="actions">
                    <button
                      type="button"
                      class="button"
                      data-action="download-report"
                      onClick={() =>
                        download(
                          `${verified.file.name.replace(/\.(json|tar\.gz|tgz)$/, '')}.verification.json`,
                          JSON.stringify(
                            buildReport(
                              verified.file,
                              verified.result,
                              verified.bundle,
                              keys,
                              hmacKey !== '',
                              new Date(),
                            ),
                            null,
                            2,
                          ) + '\n',
                        )
                      }
                    >
                      <span aria-hidden="true">⤓</span> Download verification report
                    </button>
                    {handle !== null && (
                      <button type="button" class="button" onClick={() => setTab('run')}>
                        Open in run viewer
                      </button>
                    )}
                  </div>
                  {verified.bundle !== null && <BundlePanel bundle={verified.bundle} />}
                  {verified.result !== null && (
                    <>
                      <ChecksTable result={verified.result} />
                      <SignerPanel result={verified.result} keys={keys} />
                      <Findings result={verified.result} onEvent={showEvent} />
                    </>
                  )}
                  {handle !== null && (
                    <EventsPanel
                      handle={handle}
                      idPrefix="verify"
                      selected={selected}
                      onSelect={setSelected}
                      scrollTo={scrollTo}
                    />
                  )}
                </>
              )}
            </div>
          </div>
        )}
        {tab === 'run' &&
          (handle === null ? (
            <section class="card intro">
              <h2>No run to show</h2>
              <p>Verify a readable record first, on the Verify tab.</p>
            </section>
          ) : (
            <div class="stack">
              <section class="card run-head" aria-labelledby="run-title">
                <h2 id="run-title">
                  {handle.summary.name || 'Run'} <span class="muted">{handle.summary.runId}</span>
                </h2>
                <p>
                  Status <strong>{handle.summary.status || '—'}</strong> ·{' '}
                  {handle.summary.startedAt || '—'} → {handle.summary.endedAt || '—'} · verdict{' '}
                  <strong data-run-verdict={verified?.result?.verdict}>
                    {verified?.result?.verdict}
                  </strong>
                </p>
              </section>
              <ModelTotals models={handle.summary.models} />
              <SpanTimeline handle={handle} onEvent={showEvent} />
              <EventsPanel
                handle={handle}
                idPrefix="run"
                selected={selected}
                onSelect={setSelected}
                scrollTo={scrollTo}
              />
              <CassetteList handle={handle} onEvent={showEvent} />
            </div>
          ))}
        {tab === 'diff' && <DiffView worker={worker} trust={trustRef.current} />}
      </main>
      <footer class="foot muted">
        @runback/web {__WEB_VERSION__} · verifier @runback/verify {__VERIFY_VERSION__} · works
        offline · docs/spec.md
      </footer>
    </>
  );
}
