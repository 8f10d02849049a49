import { MetricsInitializer } from '../../../../src/plugins/observability/MetricsInitializer';
import { PrometheusMetrics } from '../../../../src/plugins/observability/PrometheusMetrics';
import { ToggledMetrics } from '../../../../src/plugins/observability/ToggledMetrics';

describe('MetricsInitializer', (): void => {
  it('turns the metrics on when configured with them, so what is recorded is exposed', async(): Promise<void> => {
    const metrics = new ToggledMetrics(new PrometheusMetrics(1000, 2000, false));
    await new MetricsInitializer(metrics, true).handle();
    expect(metrics.enabled).toBe(true);
    metrics.jobDead('ap-delivery');
    expect((await metrics.expose()).body).toContain('ap-delivery');
  });

  it('leaves them off otherwise', async(): Promise<void> => {
    const metrics = new ToggledMetrics(new PrometheusMetrics(1000, 2000, false));
    await new MetricsInitializer(metrics, false).handle();
    expect(metrics.enabled).toBe(false);
    metrics.jobDead('ap-delivery');
    expect((await metrics.expose()).body).toBe('');
  });
});
