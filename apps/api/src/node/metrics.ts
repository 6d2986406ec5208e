// Prometheus metrics with prom-client, one registry per app instance.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Metrics } from '../deps.js';

export function promMetrics(
  options: { defaults?: boolean } = {},
): Metrics & { readonly registry: Registry } {
  const registry = new Registry();
  if (options.defaults !== false) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'runback_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'runback_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['route', 'method'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const events = new Counter({
    name: 'runback_events_ingested_total',
    help: 'Events appended to runs',
    registers: [registry],
  });
  const verdicts = new Counter({
    name: 'runback_verify_verdicts_total',
    help: 'Verify endpoint verdicts',
    labelNames: ['verdict'],
    registers: [registry],
  });
  return {
    registry,
    requestDone(route, method, status, seconds) {
      requests.inc({ route, method, status: String(status) });
      latency.observe({ route, method }, seconds);
    },
    eventsIngested(count) {
      events.inc(count);
    },
    verifyVerdict(verdict) {
      verdicts.inc({ verdict });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
