import { InFlight } from '../../../src/util/InFlight';

describe('InFlight', (): void => {
  it('runs one task per key at a time and starts a new one once it settled', async(): Promise<void> => {
    const inFlight = new InFlight<number>();
    let runs = 0;
    let release!: () => void;
    const task = async(): Promise<number> => {
      runs += 1;
      await new Promise<void>((resolve): void => {
        release = resolve;
      });
      return runs;
    };
    const first = inFlight.run('a', task);
    const second = inFlight.run('a', task);
    expect(runs).toBe(1);
    release();
    expect(await Promise.all([ first, second ])).toEqual([ 1, 1 ]);
    const third = inFlight.run('a', task);
    release();
    expect(await third).toBe(2);
  });

  it('keeps keys apart, and a failure reaches every waiter and is not kept', async(): Promise<void> => {
    const inFlight = new InFlight<string>();
    const failing = inFlight.run('x', async(): Promise<string> => {
      throw new Error('no');
    });
    const waiting = inFlight.run('x', async(): Promise<string> => 'never started');
    const other = inFlight.run('y', async(): Promise<string> => 'y');
    await expect(failing).rejects.toThrow('no');
    await expect(waiting).rejects.toThrow('no');
    expect(await other).toBe('y');
    expect(await inFlight.run('x', async(): Promise<string> => 'again')).toBe('again');
  });
});
