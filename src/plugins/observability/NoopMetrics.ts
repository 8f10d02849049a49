import type { Metrics, MetricsExposition } from './Metrics';

/** Metrics that record nothing: the default of every instrumented class. */
export class NoopMetrics implements Metrics {
  public readonly enabled = false;

  public httpRequest(): void {
    // Nothing recorded.
  }

  public storeRequest(): void {
    // Nothing recorded.
  }

  public jobRetried(): void {
    // Nothing recorded.
  }

  public jobDead(): void {
    // Nothing recorded.
  }

  public delivery(): void {
    // Nothing recorded.
  }

  public watchQueues(): void {
    // Nothing read.
  }

  public async expose(): Promise<MetricsExposition> {
    return { contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' };
  }
}

/** The shared instance used as a default. */
export const NO_METRICS: NoopMetrics = new NoopMetrics();
