import { SharedLoads } from '../../../src/util/SharedLoads';

describe('SharedLoads', (): void => {
  it('loads a key once for the callers that ask at once and for later ones', async(): Promise<void> => {
    const loaded: string[] = [];
    const loads = new SharedLoads(async(key: string): Promise<string> => {
      loaded.push(key);
      await new Promise((resolve): unknown => setTimeout(resolve, 5));
      return key.toUpperCase();
    }, 10);
    expect(await Promise.all([ loads.get('a'), loads.get('a'), loads.get('b') ])).toEqual([ 'A', 'A', 'B' ]);
    expect(await loads.get('a')).toBe('A');
    expect(loaded).toEqual([ 'a', 'b' ]);
  });

  it('forgets a load that failed, so the next caller tries again', async(): Promise<void> => {
    let attempts = 0;
    const loads = new SharedLoads(async(key: string): Promise<string> => {
      attempts += 1;
      if (attempts === 1) {
        throw new Error('not yet');
      }
      return key;
    }, 10);
    await expect(loads.get('a')).rejects.toThrow('not yet');
    expect(await loads.get('a')).toBe('a');
    expect(attempts).toBe(2);
  });

  it('keeps the most recently used keys only', async(): Promise<void> => {
    const loaded: string[] = [];
    const loads = new SharedLoads(async(key: string): Promise<string> => {
      loaded.push(key);
      return key;
    }, 2);
    await loads.get('a');
    await loads.get('b');
    await loads.get('a');
    await loads.get('c');
    await loads.get('a');
    await loads.get('b');
    expect(loaded).toEqual([ 'a', 'b', 'c', 'b' ]);
  });
});
