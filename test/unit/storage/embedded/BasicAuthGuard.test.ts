import { BasicAuthGuard } from '../../../../src/storage/embedded/BasicAuthGuard';

const basic = (credentials: string): string => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

describe('BasicAuthGuard', (): void => {
  const guard = new BasicAuthGuard('admin', 'pässword', 'none');

  it('authenticates the configured user, whatever the scheme\'s case and spaces around the credentials', (): void => {
    expect(guard.check(basic('admin:pässword'))).toBe('authenticated');
    expect(guard.check(`bAsIc   ${Buffer.from('admin:pässword').toString('base64')}  `)).toBe('authenticated');
  });

  it('rejects wrong credentials, other schemes and malformed headers', (): void => {
    for (const header of [ basic('admin:wrong'), basic('root:pässword'), basic('admin:pässword2'), 'Bearer abc', 'Basic', '', 'Basi' ]) {
      expect(guard.check(header)).toBe('rejected');
    }
  });

  it('takes a request without credentials for anonymous', (): void => {
    expect(guard.check(undefined)).toBe('anonymous');
  });

  it.each([
    [ 'none', false, false ],
    [ 'read', true, false ],
    [ 'all', true, true ],
  ] as const)('with anonymous access %s, lets anonymous read: %s, write: %s', (access, read, write): void => {
    const configured = new BasicAuthGuard('admin', 'admin', access);
    expect(configured.permits('anonymous', false)).toBe(read);
    expect(configured.permits('anonymous', true)).toBe(write);
    // Wrong credentials are refused and right ones allowed, whatever anonymous may do.
    expect(configured.permits('rejected', false)).toBe(false);
    expect(configured.permits('authenticated', true)).toBe(true);
  });
});
