import { createServer } from 'node:net';

// Ports already handed out by this process: the OS may offer a just-closed
// port again, and two servers of one test must never get the same one.
const handedOut = new Set<number>();

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (listen on 0, close).
 * Another process may still grab it before the caller binds it; the
 * ephemeral range is large enough that this is rare.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await askKernelForPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('freePort: the kernel kept offering ports already handed out');
}

function askKernelForPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('freePort: unexpected server address'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

/** True when nothing accepts connections on 127.0.0.1:port right now. */
export async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.close(() => resolve(true));
    });
  });
}
