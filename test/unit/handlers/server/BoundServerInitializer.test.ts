import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpServerFactory } from '@solid/community-server';
import { BoundServerInitializer } from '../../../../src/handlers/server/BoundServerInitializer';
import { rejection } from '../../../support/rejection';

/** Makes plain node servers that answer 204, keeping the last one made. */
class ServerFactory {
  public made?: Server;

  public factory(): HttpServerFactory {
    return {
      createServer: async(): Promise<Server> => {
        this.made = createServer((_request, response): void => {
          response.writeHead(204).end();
        });
        return this.made;
      },
    } as unknown as HttpServerFactory;
  }
}

describe('BoundServerInitializer', (): void => {
  it('starts once the server listens on the host and port, and closes it at finalize', async(): Promise<void> => {
    const servers = new ServerFactory();
    const initializer = new BoundServerInitializer(servers.factory(), 0, '127.0.0.1');
    await initializer.handle();
    const address = servers.made!.address() as AddressInfo;
    expect(address.address).toBe('127.0.0.1');
    expect((await fetch(`http://127.0.0.1:${address.port}/`)).status).toBe(204);
    await initializer.finalize();
    expect(servers.made!.listening).toBe(false);
  });

  it('fails start-up naming the port and host when the port is taken', async(): Promise<void> => {
    const taken = new ServerFactory();
    const first = new BoundServerInitializer(taken.factory(), 0, '127.0.0.1');
    await first.handle();
    const { port } = taken.made!.address() as AddressInfo;
    try {
      const second = new ServerFactory();
      const error = await rejection(new BoundServerInitializer(second.factory(), port, '127.0.0.1').handle());
      expect((error as Error).message).toBe(`--port ${port} on 127.0.0.1 is in use by another process`);
    } finally {
      await first.finalize();
    }
  });

  it('fails start-up naming the host for an address it cannot bind', async(): Promise<void> => {
    const error = await rejection(new BoundServerInitializer(new ServerFactory().factory(), 0, '192.0.2.1').handle());
    expect((error as Error).message).toMatch(/^cannot listen on --port 0 --host 192\.0\.2\.1: /u);
  });

  it('finalizes quietly when it never listened', async(): Promise<void> => {
    await expect(new BoundServerInitializer(new ServerFactory().factory(), 0).finalize()).resolves.toBeUndefined();
  });
});
