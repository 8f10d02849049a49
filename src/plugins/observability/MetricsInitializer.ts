import { Initializer } from '@solid/community-server';
import type { ToggledMetrics } from './ToggledMetrics';

/** Turns metrics on at start-up when the server is configured with them (`--metrics`). */
export class MetricsInitializer extends Initializer {
  /**
   * @param metrics - The metrics the components record into.
   * @param enabled - Whether metrics are on.
   */
  public constructor(
    private readonly metrics: ToggledMetrics,
    private readonly enabled: boolean,
  ) {
    super();
  }

  public async handle(): Promise<void> {
    if (this.enabled) {
      this.metrics.enable();
    }
  }
}
