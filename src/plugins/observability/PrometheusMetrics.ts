import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DeliveryOutcome, Metrics, MetricsExposition, QueueDepth, QueueDepthSource } from './Metrics';
import { settleWithin } from '../../util/Deadline';

const HTTP_BUCKETS = [ 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 ];
const STORE_BUCKETS = [ 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30 ];
const METHODS = new Set([ 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS' ]);
const QUEUE_STATES = [ 'waiting', 'delayed', 'active', 'dead' ] as const;
/** Remote hosts beyond this many share the label `other` (the label set must stay bounded). */
const OTHER_HOST = 'other';

/**
 * Metrics kept with prom-client in a registry of their own (nothing global), exposed in the
 * Prometheus text format. Queue depths are read from the registered sources on each scrape,
 * each source bounded by `scrapeTimeoutMs`. Process metrics (CPU, memory, event loop lag, ...)
 * are registered at the first scrape, so a server that is never scraped runs no sampler.
 */
export class PrometheusMetrics implements Metrics {
  public readonly enabled = true;
  public readonly registry = new Registry();

  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly store: Histogram<'operation' | 'outcome'>;
  private readonly retries: Counter<'queue'>;
  private readonly dead: Counter<'queue'>;
  private readonly deliveries: Counter<'host' | 'outcome'>;
  private readonly sources: QueueDepthSource[] = [];
  private readonly hosts = new Set<string>();
  private defaultsRegistered = false;

  /**
   * @param maxDeliveryHosts - Distinct remote hosts labelled by name; later ones count as `other`.
   * @param scrapeTimeoutMs - How long a scrape waits for a queue's depth.
   * @param processMetrics - Whether to expose prom-client's process and Node.js metrics.
   */
  public constructor(
    private readonly maxDeliveryHosts = 1000,
    private readonly scrapeTimeoutMs = 2000,
    private readonly processMetrics = true,
  ) {
    const registers = [ this.registry ];
    this.requests = new Counter({ name: 'fedpod_http_requests_total', help: 'HTTP requests answered, by method, route template and status.',
      labelNames: [ 'method', 'route', 'status' ], registers });
    this.latency = new Histogram({ name: 'fedpod_http_request_duration_seconds',
      help: 'Time from request to the end of the answer, by method and route template.',
      labelNames: [ 'method', 'route' ], buckets: HTTP_BUCKETS, registers });
    this.store = new Histogram({ name: 'fedpod_store_request_duration_seconds',
      help: 'Requests to the triple store, by operation (query, update) and outcome (ok, error).',
      labelNames: [ 'operation', 'outcome' ], buckets: STORE_BUCKETS, registers });
    this.retries = new Counter({ name: 'fedpod_queue_retries_total', help: 'Failed job runs scheduled to run again, by queue.',
      labelNames: [ 'queue' ], registers });
    this.dead = new Counter({ name: 'fedpod_queue_dead_letters_total', help: 'Jobs that failed for good (dead letters), by queue.',
      labelNames: [ 'queue' ], registers });
    this.deliveries = new Counter({ name: 'fedpod_deliveries_total',
      help: 'Delivery attempts to remote inboxes, by host and outcome (delivered, refused, failed, error).',
      labelNames: [ 'host', 'outcome' ], registers });
    const sources = this.sources;
    const timeoutMs = this.scrapeTimeoutMs;
    new Gauge({ name: 'fedpod_queue_jobs', help: 'Jobs in each queue by state (waiting, delayed, active, dead), read on scrape.',
      labelNames: [ 'queue', 'state' ], registers,
      async collect(this: Gauge<'queue' | 'state'>): Promise<void> {
        this.reset();
        const depths = await Promise.all(sources.map(async(source): Promise<QueueDepth[]> => PrometheusMetrics.bounded(source, timeoutMs)));
        for (const { queue, counts } of depths.flat()) {
          for (const state of QUEUE_STATES) {
            this.set({ queue, state }, counts[state]);
          }
        }
      } });
  }

  public httpRequest(method: string, route: string, status: number, seconds: number): void {
    const label = METHODS.has(method) ? method : 'other';
    this.requests.inc({ method: label, route, status: String(status) });
    this.latency.observe({ method: label, route }, seconds);
  }

  public storeRequest(operation: 'query' | 'update', ok: boolean, seconds: number): void {
    this.store.observe({ operation, outcome: ok ? 'ok' : 'error' }, seconds);
  }

  public jobRetried(queue: string): void {
    this.retries.inc({ queue });
  }

  public jobDead(queue: string): void {
    this.dead.inc({ queue });
  }

  public delivery(host: string, outcome: DeliveryOutcome): void {
    let label = host.toLowerCase();
    if (!this.hosts.has(label)) {
      if (this.hosts.size >= this.maxDeliveryHosts) {
        label = OTHER_HOST;
      } else {
        this.hosts.add(label);
      }
    }
    this.deliveries.inc({ host: label, outcome });
  }

  public watchQueues(source: QueueDepthSource): void {
    this.sources.push(source);
  }

  public async expose(): Promise<MetricsExposition> {
    if (this.processMetrics && !this.defaultsRegistered) {
      this.defaultsRegistered = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** The source's depths, or none when it fails or takes too long (a scrape must not hang). */
  private static async bounded(source: QueueDepthSource, timeoutMs: number): Promise<QueueDepth[]> {
    return settleWithin(source().catch((): QueueDepth[] => []), timeoutMs, (): QueueDepth[] => []);
  }
}
