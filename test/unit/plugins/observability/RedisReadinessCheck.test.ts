import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { RedisReadinessCheck } from '../../../../src/plugins/observability/RedisReadinessCheck';

// A passing check needs a real redis-server: test/integration/observability.test.ts covers it.
describe('RedisReadinessCheck', (): void => {
  it('fails when nothing listens at the URL, then lets go of its connection', async(): Promise<void> => {
    // A port that was free a moment ago.
    const probe: Server = createServer();
    await new Promise<void>((resolve): void => {
      probe.listen(0, '127.0.0.1', resolve);
    });
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve): void => {
      probe.close(resolve);
    });
    const check = new RedisReadinessCheck(`redis://127.0.0.1:${port}`, 'redis', 500);
    await expect(check.check()).rejects.toThrow();
    await check.finalize();
  });

  it('fails when the server does not speak Redis', async(): Promise<void> => {
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket): void => {
      sockets.add(socket);
      socket.end('-ERR not redis\r\n');
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    const check = new RedisReadinessCheck(`redis://127.0.0.1:${(server.address() as AddressInfo).port}`, 'redis', 500);
    await expect(check.check()).rejects.toThrow();
    await check.finalize();
    for (const socket of sockets) {
      socket.destroy();
    }
    await new Promise((resolve): void => {
      server.close(resolve);
    });
  });
});
