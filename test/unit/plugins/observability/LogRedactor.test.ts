import { generateKeyPairSync } from 'node:crypto';
import { LogRedactor } from '../../../../src/plugins/observability/LogRedactor';

describe('LogRedactor', (): void => {
  const redactor = new LogRedactor([ '/webhooks/' ]);

  it('removes the secret segment of paths under the secret prefixes, in paths and full URLs', (): void => {
    const secret = 'kq2Xw_9-ZpY3bT7vLr0sNf8dHc1aQe4uGj6iMo5xWl2';
    expect(redactor.redact(`POST /webhooks/${secret} failed`)).toBe('POST /webhooks/[redacted] failed');
    // Over-redacts rather than leaks: the segment runs to a space, /, ?, # or quote.
    expect(redactor.redact(`/webhooks/${secret}: x`)).toBe('/webhooks/[redacted] x');
    expect(redactor.redact(`at https://pod.example/webhooks/${secret}?x=1 now`)).toBe('at https://pod.example/webhooks/[redacted]?x=1 now');
    expect(redactor.redact('/webhooks/')).toBe('/webhooks/');
  });

  it('removes credentials after Bearer, Basic and DPoP, and JWTs anywhere', (): void => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXBhcnQ';
    expect(redactor.redact(`authorization: Bearer ${jwt}`)).not.toContain(jwt);
    expect(redactor.redact('Basic YWRtaW46YWRtaW4=')).toBe('Basic [redacted]');
    expect(redactor.redact(`token ${jwt} refused`)).toBe('token [redacted token] refused');
  });

  it('removes password, secret and token fields, in JSON and in forms', (): void => {
    expect(redactor.redact('{"username":"alice","password":"correct horse battery"}'))
      .toBe('{"username":"alice","password":[redacted]}');
    expect(redactor.redact('user=alice&password=hunter2&x=1')).toBe('user=alice&password=[redacted]&x=1');
    expect(redactor.redact('secret: s3cr3t')).toBe('secret: [redacted]');
  });

  it('removes PEM private keys and user:password in URLs', (): void => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const text = redactor.redact(`key: ${pem} end`);
    expect(text).toBe('key: [redacted private key]\n end');
    expect(redactor.redact('store http://admin:pw@127.0.0.1:3030/ds')).toBe('store http://[redacted]@127.0.0.1:3030/ds');
  });

  it('leaves ordinary messages as they are', (): void => {
    const message = 'Created container http://localhost:3000/notes/ (3 ms)';
    expect(redactor.redact(message)).toBe(message);
  });
});
