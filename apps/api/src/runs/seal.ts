// Sealing a finished run from its stored events: the content digest is the chain head kept
// with the run (docs/spec.md §3), the cassette digest is computed over the events in seq
// order (§4.3) by @runback/replay-digest, and @runback/sign builds and signs the manifest.
import { contentDigestOf } from '@runback/chain';
import { CassetteBuilder } from '@runback/replay-digest';
import { buildManifest, type SealedManifest, type Signer } from '@runback/sign';
import type { EventRow } from '../store/types.js';

const PAGE = 1000;

export interface SealFacts {
  readonly runId: string;
  readonly generatedAt: string;
  readonly eventCount: number;
  readonly headHash: string;
}

/** Reads the run's events in seq order, a page at a time, and builds the signed manifest. */
export async function sealManifest(
  facts: SealFacts,
  eventsBySeq: (afterSeq: number, limit: number) => Promise<EventRow[]>,
  signer: Signer | undefined,
): Promise<SealedManifest> {
  const cassette = new CassetteBuilder();
  let after = -1;
  for (;;) {
    const page = await eventsBySeq(after, PAGE);
    for (const row of page) cassette.add(JSON.parse(row.body));
    const last = page[page.length - 1];
    if (last === undefined || page.length < PAGE) break;
    after = last.seq;
  }
  return buildManifest(
    {
      runId: facts.runId,
      generatedAt: facts.generatedAt,
      eventCount: facts.eventCount,
      contentDigest: contentDigestOf(facts.headHash),
      cassetteDigest: cassette.digest,
      entryCount: cassette.entryCount,
    },
    signer,
  );
}
