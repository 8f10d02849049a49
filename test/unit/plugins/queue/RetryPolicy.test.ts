import { RetryPolicy } from '../../../../src/plugins/queue/RetryPolicy';

describe('RetryPolicy', (): void => {
  it('defaults to 15 runs from 30 s doubling up to 12 h: about 48 h of retries', (): void => {
    const policy = new RetryPolicy();
    expect(policy.attempts).toBe(15);
    expect([ 1, 2, 3, 11, 12, 14 ].map((attempt): number => policy.nominalDelay(attempt)))
      .toEqual([ 30_000, 60_000, 120_000, 30_720_000, 43_200_000, 43_200_000 ]);
    const hours = policy.totalNominalDelayMs() / 3_600_000;
    expect(hours).toBeCloseTo(53.06, 1);
    // The jitter shortens waits by up to 20 %, 10 % on average: about 48 h.
    expect(hours * 0.9).toBeCloseTo(47.75, 1);
  });

  it('applies jitter within [1 - jitter, 1] of the nominal wait', (): void => {
    const policy = new RetryPolicy(5, 1000, 60_000, 0.2);
    expect(policy.delay(1, (): number => 0)).toBe(1000);
    expect(policy.delay(1, (): number => 1)).toBe(800);
    expect(policy.delay(3, (): number => 0.5)).toBe(3600);
    for (let index = 0; index < 100; index += 1) {
      const delay = policy.delay(2);
      expect(delay).toBeGreaterThanOrEqual(1600);
      expect(delay).toBeLessThanOrEqual(2000);
    }
  });

  it('caps waits and survives huge attempt numbers', (): void => {
    const policy = new RetryPolicy(2000, 10, 500, 0);
    expect(policy.nominalDelay(1500)).toBe(500);
    expect(policy.delay(0)).toBe(10);
  });

  it('retries while attempts remain', (): void => {
    const policy = new RetryPolicy(3);
    expect([ 1, 2, 3, 4 ].map((attempt): boolean => policy.shouldRetry(attempt))).toEqual([ true, true, false, false ]);
    expect(new RetryPolicy(1).shouldRetry(1)).toBe(false);
  });

  it('rejects nonsense', (): void => {
    expect((): RetryPolicy => new RetryPolicy(0)).toThrow('attempts');
    expect((): RetryPolicy => new RetryPolicy(1.5)).toThrow('attempts');
    expect((): RetryPolicy => new RetryPolicy(3, -1)).toThrow('base delay');
    expect((): RetryPolicy => new RetryPolicy(3, 100, 50)).toThrow('max delay');
    expect((): RetryPolicy => new RetryPolicy(3, 100, 100, 2)).toThrow('jitter');
  });
});
