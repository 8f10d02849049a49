import { NO_METRICS, NoopMetrics } from '../../../../src/plugins/observability/NoopMetrics';

describe('NoopMetrics', (): void => {
  it('is off, records without failing, and exposes an empty text exposition', async(): Promise<void> => {
    const metrics = new NoopMetrics();
    expect(metrics.enabled).toBe(false);
    metrics.httpRequest();
    metrics.storeRequest();
    metrics.jobRetried();
    metrics.jobDead();
    metrics.delivery();
    metrics.watchQueues();
    expect(await metrics.expose()).toEqual({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' });
    expect(NO_METRICS).toBeInstanceOf(NoopMetrics);
  });
});
