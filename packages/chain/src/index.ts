// @runback/chain: the tamper-evident event chain of a runback record.
export {
  GENESIS_HASH,
  HASH_MEMBER,
  contentDigestOf,
  eventHash,
  eventHashOfCanonical,
} from './chain.js';
export { computeChain, type ChainResult } from './compute-chain.js';
export { ChainBuilder } from './chain-builder.js';
