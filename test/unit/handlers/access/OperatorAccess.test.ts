import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OperatorAccess } from '../../../../src/handlers/access/OperatorAccess';
import { OperatorSecret } from '../../../../src/plugins/operator/OperatorSecret';
import { rejection } from '../../../support/rejection';
import { accessRequest, statusOf } from './support';

/** An operator route request with the given Authorization header, if any. */
function withAuthorization(authorization?: string): ReturnType<typeof accessRequest> {
  const input = accessRequest('POST', 'https://pod.example/.operator/webhooks');
  input.request.url = '/.operator/webhooks';
  if (authorization !== undefined) {
    input.request.headers.authorization = authorization;
  }
  return input;
}

describe('OperatorAccess', (): void => {
  let dataDir: string;
  let secret: string;
  let policy: OperatorAccess;

  beforeAll(async(): Promise<void> => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'fedpod-operator-access-'));
    const operatorSecret = new OperatorSecret(dataDir, 'https://pod.example/', 3000);
    // The secret is only ever written to the operator file: read it as the operator's commands do.
    await operatorSecret.handle();
    secret = (JSON.parse(readFileSync(path.join(dataDir, 'operator.json'), 'utf8')) as { secret: string }).secret;
    policy = new OperatorAccess(operatorSecret);
  });

  afterAll((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets through a bearer token that is this run\'s secret', async(): Promise<void> => {
    expect(await statusOf(policy.authorize(withAuthorization(`Bearer ${secret}`)))).toBe(200);
    expect(await statusOf(policy.authorize(withAuthorization(`Bearer ${secret}  `)))).toBe(200);
  });

  it('answers 404 not_found, as if nothing were there, without the right secret', async(): Promise<void> => {
    for (const authorization of [ undefined, '', 'Bearer ', `Bearer ${secret}x`, `bearer ${secret}`, `Basic ${secret}`, secret ]) {
      const error = await rejection(policy.authorize(withAuthorization(authorization))) as { statusCode: number; errorCode: string; message: string };
      expect(error.statusCode).toBe(404);
      expect(error.errorCode).toBe('not_found');
      expect(error.message).toBe('No resource at /.operator/webhooks');
    }
  });

  it('does not take another run\'s secret', async(): Promise<void> => {
    const otherDir = mkdtempSync(path.join(tmpdir(), 'fedpod-operator-access-'));
    try {
      const other = new OperatorSecret(otherDir, 'https://pod.example/', 3000);
      expect(await statusOf(new OperatorAccess(other).authorize(withAuthorization(`Bearer ${secret}`)))).toBe(404);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});
