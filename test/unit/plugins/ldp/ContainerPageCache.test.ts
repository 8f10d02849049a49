import { ContainerPageCache } from '../../../../src/plugins/ldp/ContainerPageCache';

const page = (text: string): { text: string } => ({ text });

describe('ContainerPageCache', (): void => {
  it('serves a page only for the modification date it was stored under', (): void => {
    const cache = new ContainerPageCache<{ text: string }>();
    cache.set('c', '2026-01-01T00:00:00Z', page('v1'));
    expect(cache.get('c', '2026-01-01T00:00:00Z')?.text).toBe('v1');
    expect(cache.get('c', '2026-01-01T00:00:01Z')).toBeUndefined();
    // A stale entry is dropped, not kept for the old date.
    expect(cache.get('c', '2026-01-01T00:00:00Z')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry past its entry bound', (): void => {
    const cache = new ContainerPageCache<{ text: string }>(2);
    cache.set('a', 'm', page('a'));
    cache.set('b', 'm', page('b'));
    expect(cache.get('a', 'm')?.text).toBe('a');
    cache.set('c', 'm', page('c'));
    expect(cache.get('b', 'm')).toBeUndefined();
    expect(cache.get('a', 'm')?.text).toBe('a');
    expect(cache.get('c', 'm')?.text).toBe('c');
  });

  it('stays within its byte bound and never keeps a page larger than it', (): void => {
    const cache = new ContainerPageCache<{ text: string }>(100, 10);
    cache.set('big', 'm', page('x'.repeat(11)));
    expect(cache.get('big', 'm')).toBeUndefined();
    cache.set('a', 'm', page('aaaaaa'));
    cache.set('b', 'm', page('bbbbbb'));
    expect(cache.get('a', 'm')).toBeUndefined();
    expect(cache.get('b', 'm')?.text).toBe('bbbbbb');
  });

  it('replaces an entry stored again under the same key', (): void => {
    const cache = new ContainerPageCache<{ text: string }>(100, 10);
    cache.set('a', 'm1', page('aaaaaa'));
    cache.set('a', 'm2', page('bbbbbb'));
    expect(cache.size).toBe(1);
    expect(cache.get('a', 'm2')?.text).toBe('bbbbbb');
    // The replaced entry's bytes were released: another 4-byte page fits.
    cache.set('b', 'm', page('cccc'));
    expect(cache.get('a', 'm2')?.text).toBe('bbbbbb');
  });

  it('keeps nothing when disabled', (): void => {
    const cache = new ContainerPageCache<{ text: string }>(0);
    cache.set('a', 'm', page('a'));
    expect(cache.get('a', 'm')).toBeUndefined();
  });
});
