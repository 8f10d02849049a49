import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IncomingMessage } from 'node:http';
import { OperatorAccess } from '../../../../src/handlers/access/OperatorAccess';
import type { Operation } from '../../../../src/handlers/http/Operation';
import type { OperatorFile } from '../../../../src/plugins/operator/OperatorFile';
import { OperatorSecret } from '../../../../src/plugins/operator/OperatorSecret';

describe('OperatorSecret and OperatorAccess', (): void => {
  let dataDir: string;

  beforeEach(async(): Promise<void> => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fedpod-operator-'));
  });

  afterEach(async(): Promise<void> => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('writes the base URL, the local address and a new secret for this run, readable by its owner only', async(): Promise<void> => {
    const secret = new OperatorSecret(dataDir, 'https://pod.example/', 3456);
    await secret.handle();
    const file = path.join(dataDir, 'operator.json');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const written = JSON.parse(await fs.readFile(file, 'utf8')) as OperatorFile;
    expect(written).toMatchObject({ baseUrl: 'https://pod.example/', localUrl: 'http://127.0.0.1:3456/', pid: process.pid });
    expect(secret.matches(written.secret)).toBe(true);
    expect(secret.matches(`${written.secret}x`)).toBe(false);
    const another = new OperatorSecret(dataDir, 'https://pod.example/', 3456, '::1');
    await another.handle();
    const rewritten = JSON.parse(await fs.readFile(file, 'utf8')) as OperatorFile;
    expect(rewritten.localUrl).toBe('http://[::1]:3456/');
    expect(rewritten.secret).not.toBe(written.secret);
    expect(secret.matches(rewritten.secret)).toBe(false);
  });

  it('lets through only a request with the secret, answering 404 to any other', async(): Promise<void> => {
    const secret = new OperatorSecret(dataDir, 'https://pod.example/', 3456);
    await secret.handle();
    const { secret: token } = JSON.parse(await fs.readFile(path.join(dataDir, 'operator.json'), 'utf8')) as OperatorFile;
    const access = new OperatorAccess(secret);
    const asking = (authorization?: string): Operation => ({ request: { headers: authorization ? { authorization } : {},
      url: '/operator/webhooks' } as IncomingMessage, target: { path: '/operator/webhooks' }} as unknown as Operation);
    await expect(access.authorize(asking(`Bearer ${token}`))).resolves.toBeUndefined();
    for (const header of [ undefined, 'Bearer wrong', `Basic ${token}`, 'Bearer ' ]) {
      await expect(access.authorize(asking(header))).rejects.toMatchObject({ statusCode: 404 });
    }
  });
});
