import { settleWithin } from '../../../src/util/Deadline';

describe('Deadline', (): void => {
  describe('settleWithin', (): void => {
    beforeEach((): void => {
      jest.useFakeTimers();
    });

    afterEach((): void => {
      jest.useRealTimers();
    });

    it('gives what the work settles with before the deadline, and clears the timer', async(): Promise<void> => {
      await expect(settleWithin(Promise.resolve('done'), 1000, (): string => 'late')).resolves.toBe('done');
      expect(jest.getTimerCount()).toBe(0);
    });

    it('passes on the work\'s rejection before the deadline', async(): Promise<void> => {
      await expect(settleWithin(Promise.reject(new Error('broken')), 1000, (): string => 'late')).rejects.toThrow('broken');
      expect(jest.getTimerCount()).toBe(0);
    });

    it('gives what onTimeout gives once the deadline passes first', async(): Promise<void> => {
      const settled = settleWithin(new Promise<string>((): void => undefined), 1000, (): string => 'late');
      jest.advanceTimersByTime(999);
      let done = false;
      void settled.then((): void => {
        done = true;
      });
      await Promise.resolve();
      expect(done).toBe(false);
      jest.advanceTimersByTime(1);
      await expect(settled).resolves.toBe('late');
    });

    it('rejects with what onTimeout throws, and ignores a later rejection of the work', async(): Promise<void> => {
      let fail: (error: Error) => void = (): void => undefined;
      const work = new Promise<string>((_resolve, reject): void => {
        fail = reject;
      });
      const settled = settleWithin(work, 10, (): never => {
        throw new Error('timed out');
      });
      jest.advanceTimersByTime(10);
      await expect(settled).rejects.toThrow('timed out');
      // Handled by the race: no unhandled rejection.
      fail(new Error('too late'));
    });
  });
});
