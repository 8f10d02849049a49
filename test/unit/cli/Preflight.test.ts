import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageError } from '../../../src/cli/Console';
import type { FlagSpec } from '../../../src/cli/FlagSpec';
import type { Backend } from '../../../src/cli/Setups';
import { checkConfigFile, checkFlags, checkPortFree, checkReachable, chooseBackend } from '../../../src/cli/Preflight';
import { configFileOf, ROOT } from '../../../src/cli/Setups';
import { rejection } from '../../support/rejection';

async function listening(): Promise<Server> {
  const server = createServer((socket): void => {
    socket.end();
  });
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  return server;
}

async function close(server: Server): Promise<void> {
  await new Promise<void>((resolve): void => {
    server.close((): void => resolve());
  });
}

describe('Preflight', (): void => {
  describe('checkFlags', (): void => {
    const specs: FlagSpec[] = [
      { name: 'port', type: 'number', describe: 'Port', range: [ 1, 65535 ]},
      { name: 'log-format', type: 'string', describe: 'Format', choices: [ 'json', 'pretty' ]},
    ];

    it('passes valid and absent values', (): void => {
      expect((): void => checkFlags(specs, { port: 3000, 'log-format': 'pretty' })).not.toThrow();
      expect((): void => checkFlags(specs, {})).not.toThrow();
    });

    it('throws the first problem as a UsageError', (): void => {
      expect((): void => checkFlags(specs, { port: 0, 'log-format': 'xml' })).toThrow(UsageError);
      expect((): void => checkFlags(specs, { port: 0, 'log-format': 'xml' })).toThrow(/^--port must be a whole number from 1 to 65535/u);
      expect((): void => checkFlags(specs, { port: 80, 'log-format': 'xml' })).toThrow('--log-format must be one of json, pretty (got "xml")');
    });
  });

  describe('checkReachable', (): void => {
    it('resolves when the URL\'s host and port take a connection', async(): Promise<void> => {
      const server = await listening();
      try {
        const { port } = server.address() as AddressInfo;
        await expect(checkReachable('redis-url', ` redis://127.0.0.1:${port} `)).resolves.toBeUndefined();
      } finally {
        await close(server);
      }
    });

    it('names the flag, the address and the reason when nothing listens', async(): Promise<void> => {
      const server = await listening();
      const { port } = server.address() as AddressInfo;
      await close(server);
      const error = await rejection(checkReachable('sparql-endpoint', `http://127.0.0.1:${port}/sparql`));
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toBe(`--sparql-endpoint http://127.0.0.1:${port}/sparql: cannot reach 127.0.0.1:${port} (ECONNREFUSED)`);
    });
  });

  describe('checkPortFree', (): void => {
    it('resolves for a port nothing listens on, and names the flag for a busy one', async(): Promise<void> => {
      const server = await listening();
      const { port } = server.address() as AddressInfo;
      try {
        const busy = await rejection(checkPortFree('port', port, '127.0.0.1'));
        expect(busy).toBeInstanceOf(UsageError);
        expect((busy as Error).message).toBe(`--port ${port} on 127.0.0.1 is in use by another process`);
      } finally {
        await close(server);
      }
      await expect(checkPortFree('port', port, '127.0.0.1')).resolves.toBeUndefined();
    });

    it('names the host for an address that cannot be bound', async(): Promise<void> => {
      const error = await rejection(checkPortFree('port', 0, '192.0.2.1'));
      expect((error as Error).message).toBe('--port 0 --host 192.0.2.1: EADDRNOTAVAIL');
    });
  });

  describe('checkConfigFile', (): void => {
    it('passes a file that exists and refuses one that does not, listing the setups', (): void => {
      const dir = mkdtempSync(path.join(tmpdir(), 'fedpod-preflight-'));
      try {
        const file = path.join(dir, 'my.json');
        writeFileSync(file, '{}');
        expect((): void => checkConfigFile('my.json', file)).not.toThrow();
        expect((): void => checkConfigFile('nope', path.join(dir, 'nope'))).toThrow(new UsageError(
          '--config nope: no such config (activitypub, ldp, ldp-sparql, ldp-wac, or a path to a config file)'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
  describe('chooseBackend', (): void => {
    const named = configFileOf('activitypub');
    const ownRedis = path.join(ROOT, 'test', 'fixtures', 'config', 'activitypub-short-lock-wait.json');
    const url = 'redis://127.0.0.1:6379';

    it('takes redis with a Redis URL and local without, as --redis-url alone always chose', (): void => {
      expect(chooseBackend(undefined, url, named)).toBe('redis');
      expect(chooseBackend(undefined, '', named)).toBe('local');
      expect(chooseBackend('', '  ', named)).toBe('local');
    });

    it('takes the one --backend names, and no other name', (): void => {
      expect(chooseBackend('redis', url, named)).toBe('redis');
      expect(chooseBackend('local', '', named)).toBe('local');
      expect((): Backend => chooseBackend('memory', '', named)).toThrow(new UsageError('--backend must be one of local, redis (got "memory")'));
    });

    it('refuses the redis backend without a Redis URL, and a Redis URL the local backend would ignore', (): void => {
      expect((): Backend => chooseBackend('redis', '', named)).toThrow(new UsageError('--backend redis: give its Redis with --redis-url (REDIS_URL)'));
      expect((): Backend => chooseBackend('local', url, named)).toThrow(UsageError);
      expect((): Backend => chooseBackend('local', url, named)).toThrow(/--backend local: queues, locks and change counters stay in this process .* --redis-url would be ignored/u);
    });

    it('takes the backend a config imports itself; --backend may repeat it, not contradict it', (): void => {
      expect(chooseBackend(undefined, url, ownRedis)).toBe('redis');
      expect(chooseBackend('redis', url, ownRedis)).toBe('redis');
      expect((): Backend => chooseBackend('local', url, ownRedis)).toThrow(/--backend local: the config imports the redis backend/u);
      expect((): Backend => chooseBackend(undefined, '', ownRedis))
        .toThrow(new UsageError('the config imports the redis backend: give its Redis with --redis-url (REDIS_URL)'));
    });
  });
});
