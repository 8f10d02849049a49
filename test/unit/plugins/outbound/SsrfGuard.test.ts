import type { LookupAddress } from 'node:dns';
import { SsrfBlockedError } from '../../../../src/plugins/outbound/OutboundErrors';
import { isPublicAddress, originKey, parseIpv6, SsrfGuard } from '../../../../src/plugins/outbound/SsrfGuard';

const NON_PUBLIC_URLS = [
  'http://127.0.0.1/',
  'http://127.1.2.3:8080/x',
  'http://0x7f.1/', // WHATWG URL parsing turns this into 127.0.0.1
  'http://2130706433/', // and this
  'http://0.0.0.0/',
  'http://10.1.2.3/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://198.18.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://[::1]/',
  'http://[::]/',
  'http://[fc00::1]/',
  'http://[fd12:3456::1]/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:0:7f00:1]/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::a00:1]/',
  'http://[2002:7f00:1::]/',
  'http://[2001:db8::1]/',
  'http://[2001::1]/',
];

describe('isPublicAddress', () => {
  it.each([ '8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '2606:4700:4700::1111', '2a01:4f8::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1' ])(
    'accepts the public address %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each([ '127.0.0.1', '10.0.0.1', '192.168.0.1', '169.254.0.1', '::1', 'fc00::1', '::ffff:127.0.0.1', 'fe80::1%eth0', 'not an ip', '' ])(
    'refuses %j',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );

  it('expands IPv6 forms', () => {
    expect(parseIpv6('::ffff:127.0.0.1')).toEqual([ 0, 0, 0, 0, 0, 0xffff, 0x7f00, 1 ]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([ 1, 2, 3, 4, 5, 6, 7, 8 ]);
    expect(parseIpv6('1::')).toEqual([ 1, 0, 0, 0, 0, 0, 0, 0 ]);
    expect(parseIpv6('[fe80::1%25eth0]')).toEqual([ 0xfe80, 0, 0, 0, 0, 0, 0, 1 ]);
    expect(parseIpv6('1:2:3:4:5:6:1.2.3.4')).toEqual([ 1, 2, 3, 4, 5, 6, 0x102, 0x304 ]);
  });
});

describe('SsrfGuard', () => {
  const guard = new SsrfGuard(false);
  const open = new SsrfGuard(true);

  it.each(NON_PUBLIC_URLS)('refuses %s', (url) => {
    expect(() => guard.checkUrl(url)).toThrow(SsrfBlockedError);
  });

  it.each(NON_PUBLIC_URLS)('allows %s with allowPrivateNetwork', (url) => {
    expect(open.checkUrl(url).href).toBe(new URL(url).href);
  });

  it.each([ 'ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'data:text/plain,hi', 'http://user:pass@example.com/', 'http://user@example.com/', 'not a url' ])(
    'refuses %s, even with allowPrivateNetwork',
    (url) => {
      expect(() => open.checkUrl(url)).toThrow(SsrfBlockedError);
    },
  );

  it('refuses a host name that resolves to loopback, and allows it with the flag', async () => {
    await expect(guard.check('http://localhost:1234/')).rejects.toThrow(SsrfBlockedError);
    await expect(open.check('http://localhost:1234/')).resolves.toMatchObject({ addresses: expect.arrayContaining([ expect.stringMatching(/^(127\.0\.0\.1|::1)$/u) ]) });
  });

  class FakeDns extends SsrfGuard {
    public constructor(private readonly answers: LookupAddress[]) {
      super(false);
    }

    protected override async resolveHost(): Promise<LookupAddress[]> {
      return this.answers;
    }
  }

  it('refuses a host with any non-public address among public ones', async () => {
    const mixed = new FakeDns([ { address: '93.184.215.14', family: 4 }, { address: '10.0.0.5', family: 4 } ]);
    await expect(mixed.check('https://mixed.example/')).rejects.toThrow(/10\.0\.0\.5/u);
  });

  it('gives the agent exactly the checked addresses (lookup, single and all)', async () => {
    const dns = new FakeDns([ { address: '2606:4700::1', family: 6 }, { address: '93.184.215.14', family: 4 } ]);
    const single = await new Promise<unknown[]>((resolve) => {
      dns.lookup('public.example', {}, (...args) => resolve(args));
    });
    expect(single).toEqual([ null, '2606:4700::1', 6 ]);
    const all = await new Promise<unknown[]>((resolve) => {
      dns.lookup('public.example', { all: true }, (...args) => resolve(args));
    });
    expect(all).toEqual([ null, [ { address: '2606:4700::1', family: 6 }, { address: '93.184.215.14', family: 4 } ] ]);

    const rebinding = new FakeDns([ { address: '127.0.0.1', family: 4 } ]);
    const refused = await new Promise<unknown[]>((resolve) => {
      rebinding.lookup('rebind.example', { all: true }, (...args) => resolve(args));
    });
    expect(refused[0]).toBeInstanceOf(SsrfBlockedError);
  });

  it('passes DNS errors on', async () => {
    await expect(guard.check('http://does-not-exist.invalid/')).rejects.toMatchObject({ code: expect.stringMatching(/^E/u) });
  });
});

describe('SsrfGuard with the server\'s own origin', () => {
  const own = new SsrfGuard(false, [ 'http://localhost:3000/base/', 'https://Pod.Example/' ]);

  it('writes origins with their port and a lower-case host', () => {
    expect(originKey('http:', 'LocalHost', '')).toBe('http://localhost:80');
    expect(originKey('https', '[::1]', 8443)).toBe('https://::1:8443');
    expect(own.allowedOrigins).toEqual([ 'http://localhost:3000', 'https://pod.example:443' ]);
  });

  it('reaches the own origin wherever it resolves to, and only that origin', async () => {
    await expect(own.check('http://localhost:3000/alice/profile#me')).resolves.toMatchObject({ url: expect.any(URL) });
    await expect(own.check('http://localhost:3001/')).rejects.toThrow(SsrfBlockedError);
    await expect(own.check('https://localhost:3000/')).rejects.toThrow(SsrfBlockedError);
    expect(own.isAllowedOrigin('https:', 'pod.example', '')).toBe(true);
    expect(own.isAllowedOrigin('http:', 'pod.example', 443)).toBe(false);
  });

  it('allows an IP-literal own origin, and no other port of that address', () => {
    const literal = new SsrfGuard(false, [ 'http://127.0.0.1:3000/' ]);
    expect(literal.checkUrl('http://127.0.0.1:3000/x').href).toBe('http://127.0.0.1:3000/x');
    expect(() => literal.checkUrl('http://127.0.0.1:3001/x')).toThrow(SsrfBlockedError);
  });

  it('checks a connection: IP literals now, host names by the lookup, the own origin not at all', () => {
    expect(own.connectionCheck('http:', '127.0.0.1', 3000).refusal).toBeInstanceOf(SsrfBlockedError);
    expect(own.connectionCheck('http:', '::1', 80).refusal).toBeInstanceOf(SsrfBlockedError);
    expect(own.connectionCheck('http:', '[::1]', '80').refusal).toBeInstanceOf(SsrfBlockedError);
    expect(own.connectionCheck('http:', 'localhost', '3001')).toEqual({ usesLookup: true });
    // No host at all is Node's localhost.
    expect(own.connectionCheck('http:', undefined, 3000)).toEqual({ usesLookup: false });
    expect(own.connectionCheck('http:', '', 3001)).toEqual({ usesLookup: true });
    expect(own.connectionCheck('http:', 'localhost', 3000)).toEqual({ usesLookup: false });
    expect(own.connectionCheck('https:', '93.184.215.14', 443)).toEqual({ usesLookup: false });
    expect(own.connectionCheck('http:', 'x', 80, '/var/run/docker.sock').refusal).toBeInstanceOf(SsrfBlockedError);
    const open = new SsrfGuard(true);
    expect(open.connectionCheck('http:', '127.0.0.1', 1)).toEqual({ usesLookup: false });
    expect(open.connectionCheck('http:', 'localhost', 1)).toEqual({ usesLookup: false });
  });
});
