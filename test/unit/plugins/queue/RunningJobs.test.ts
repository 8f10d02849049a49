import { describeJobError, RunningJobs } from '../../../../src/plugins/queue/RunningJobs';

describe('RunningJobs', (): void => {
  afterEach((): void => {
    jest.useRealTimers();
  });

  it('counts the jobs running', (): void => {
    const jobs = new RunningJobs();
    jobs.started();
    jobs.started();
    jobs.finished();
    expect(jobs.count).toBe(1);
  });

  it('is idle at once when no job runs', async(): Promise<void> => {
    await expect(new RunningJobs().waitForIdle(0)).resolves.toBe(true);
  });

  it('tells every waiter once the last running job finishes', async(): Promise<void> => {
    const jobs = new RunningJobs();
    jobs.started();
    jobs.started();
    let settled = false;
    const waiters = Promise.all([ jobs.waitForIdle(60_000), jobs.waitForIdle(60_000) ]).then((results): boolean[] => {
      settled = true;
      return results;
    });
    jobs.finished();
    await Promise.resolve();
    expect(settled).toBe(false);
    jobs.finished();
    await expect(waiters).resolves.toEqual([ true, true ]);
  });

  it('gives up waiting after the timeout, the job still running', async(): Promise<void> => {
    jest.useFakeTimers();
    const jobs = new RunningJobs();
    jobs.started();
    const waiting = jobs.waitForIdle(5000);
    jest.advanceTimersByTime(5000);
    await expect(waiting).resolves.toBe(false);
    expect(jobs.count).toBe(1);
  });
});

describe('describeJobError', (): void => {
  it('keeps an error\'s message, or its name when it has none, and anything else as text', (): void => {
    expect(describeJobError(new Error('store down'))).toBe('store down');
    expect(describeJobError(new TypeError(''))).toBe('TypeError');
    expect(describeJobError('plain')).toBe('plain');
    expect(describeJobError(undefined)).toBe('undefined');
  });

  it('cuts a message longer than 2000 characters, marking the cut', (): void => {
    expect(describeJobError(new Error('x'.repeat(2000)))).toBe('x'.repeat(2000));
    expect(describeJobError(new Error('y'.repeat(2500)))).toBe(`${'y'.repeat(2000)}…`);
  });
});
