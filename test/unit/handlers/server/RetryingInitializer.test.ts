import { Initializer } from '@solid/community-server';
import { RetryingInitializer } from '../../../../src/handlers/server/RetryingInitializer';

/** A step that fails `failures` times, then succeeds (or waits for `gate` first when given). */
class FlakyStep extends Initializer {
  public calls = 0;

  public constructor(private readonly failures: number, private readonly gate?: Promise<void>) {
    super();
  }

  public async handle(): Promise<void> {
    this.calls += 1;
    if (this.calls <= this.failures) {
      throw new Error(`busy ${this.calls}`);
    }
    await this.gate;
  }
}

type Logged = Record<'info' | 'warn', jest.SpyInstance>;

function spied(initializer: RetryingInitializer): Logged {
  const logger = (initializer as unknown as { logger: { info: (message: string) => void; warn: (message: string) => void } }).logger;
  return { info: jest.spyOn(logger, 'info'), warn: jest.spyOn(logger, 'warn') };
}

describe('RetryingInitializer', (): void => {
  // The logger is shared by every instance: each test spies afresh.
  afterEach((): void => {
    jest.restoreAllMocks();
  });

  it('tries a failing step again until it succeeds, saying each time what failed and when it tries again', async(): Promise<void> => {
    const step = new FlakyStep(2);
    const retrying = new RetryingInitializer(step, 'the thing', 60_000, 1, 4);
    const logged = spied(retrying);
    await retrying.handleSafe();
    expect(step.calls).toBe(3);
    expect(logged.warn.mock.calls.map(([ message ]): string => String(message))).toEqual([
      expect.stringMatching(/^Start-up: the thing failed \(busy 1\); trying again in .* \(for at most 60 s in all\)$/u),
      expect.stringMatching(/^Start-up: the thing failed \(busy 2\); trying again in /u),
    ]);
    expect(logged.info).toHaveBeenCalledWith(expect.stringMatching(/^Start-up: the thing ready after 3 tries/u));
  });

  it('says nothing more of a step that succeeds at once', async(): Promise<void> => {
    const retrying = new RetryingInitializer(new FlakyStep(0), 'the thing');
    const logged = spied(retrying);
    await retrying.handleSafe();
    expect(logged.warn).not.toHaveBeenCalled();
    expect(logged.info).not.toHaveBeenCalled();
  });

  it('fails start-up after its bound, naming the step and its last error', async(): Promise<void> => {
    const step = new FlakyStep(Number.POSITIVE_INFINITY);
    const retrying = new RetryingInitializer(step, 'the thing', 50, 5, 10);
    await expect(retrying.handleSafe()).rejects.toThrow(/^Start-up gave up on the thing after .* and \d+ tries: busy \d+$/u);
    expect(step.calls).toBeGreaterThan(1);
  });

  it('reports an attempt that takes long, while it waits', async(): Promise<void> => {
    let open: () => void = (): void => undefined;
    const gate = new Promise<void>((resolve): void => {
      open = resolve;
    });
    const retrying = new RetryingInitializer(new FlakyStep(0, gate), 'the lock on x', 60_000, 1, 4, 5);
    const logged = spied(retrying);
    const done = retrying.handleSafe();
    while (logged.info.mock.calls.length === 0) {
      await new Promise((resolve): void => {
        setTimeout(resolve, 5);
      });
    }
    open();
    await done;
    expect(logged.info).toHaveBeenCalledWith(expect.stringMatching(/^Start-up is waiting for the lock on x \(.* so far\)$/u));
    const reports = logged.info.mock.calls.length;
    await new Promise((resolve): void => {
      setTimeout(resolve, 30);
    });
    // No more reports once the step is done.
    expect(logged.info.mock.calls).toHaveLength(reports);
  });
});
