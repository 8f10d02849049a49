import type { DeliveryOutcome, Metrics, MetricsExposition, QueueDepthSource } from './Metrics';
import { NO_METRICS } from './NoopMetrics';

/**
 * The metrics every instrumented component is given: off (a no-op) until enable() is called at
 * start-up when metrics are configured on (MetricsInitializer), then forwarding to `metrics`.
 * Switching at start-up, not in the constructor, keeps the components that record metrics free of
 * the run-time flag, so tools that instantiate a few of them (the webhooks CLI) need not set it.
 */
export class ToggledMetrics implements Metrics {
  private target: Metrics = NO_METRICS;

  /**
   * @param metrics - The implementation used once enabled.
   */
  public constructor(private readonly metrics: Metrics) {}

  public get enabled(): boolean {
    return this.target !== NO_METRICS;
  }

  public enable(): void {
    this.target = this.metrics;
  }

  public httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.target.httpRequest(method, route, status, seconds);
  }

  public storeRequest(operation: 'query' | 'update', ok: boolean, seconds: number): void {
    this.target.storeRequest(operation, ok, seconds);
  }

  public jobRetried(queue: string): void {
    this.target.jobRetried(queue);
  }

  public jobDead(queue: string): void {
    this.target.jobDead(queue);
  }

  public delivery(host: string, outcome: DeliveryOutcome): void {
    this.target.delivery(host, outcome);
  }

  /** Registered whether on or not: reading happens only on scrape, which needs metrics on. */
  public watchQueues(source: QueueDepthSource): void {
    this.metrics.watchQueues(source);
  }

  public async expose(): Promise<MetricsExposition> {
    return this.target.expose();
  }
}
