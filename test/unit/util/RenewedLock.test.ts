import { EqualReadWriteLocker, MemoryResourceLocker, WrappedExpiringReadWriteLocker } from '@solid/community-server';
import { withRenewedWriteLock } from '../../../src/util/RenewedLock';

describe('withRenewedWriteLock', (): void => {
  const slowWork = async(gate: Promise<void>): Promise<string> => {
    await gate;
    return 'done';
  };

  it('keeps an expiring lock while slow work runs past the expiry', async(): Promise<void> => {
    const locker = new WrappedExpiringReadWriteLocker(new EqualReadWriteLocker(new MemoryResourceLocker()), 20);
    // The work ends only once an unrenewed lock would have expired: a plain lock fails meanwhile.
    let open: () => void = (): void => undefined;
    const gate = new Promise<void>((resolve): void => {
      open = resolve;
    });
    const plain = locker.withWriteLock({ path: 'urn:plain' }, async(): Promise<string> => slowWork(gate));
    await expect(plain).rejects.toThrow('Lock expired after 20ms on urn:plain');
    const renewed = withRenewedWriteLock(locker, { path: 'urn:renewed' }, async(): Promise<string> => slowWork(gate), 5);
    await new Promise((resolve): void => {
      setTimeout(resolve, 60);
    });
    open();
    await expect(renewed).resolves.toBe('done');
  });

  it('works with a locker that does not expire, and releases the lock after a failure', async(): Promise<void> => {
    const locker = new EqualReadWriteLocker(new MemoryResourceLocker());
    await expect(withRenewedWriteLock(locker, { path: 'urn:x' }, async(): Promise<void> => {
      throw new Error('failed');
    })).rejects.toThrow('failed');
    await expect(withRenewedWriteLock(locker, { path: 'urn:x' }, async(): Promise<number> => 1)).resolves.toBe(1);
  });
});
