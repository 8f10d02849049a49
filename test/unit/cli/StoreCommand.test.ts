import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runStore } from '../../../src/cli/StoreCommand';

describe('StoreCommand', (): void => {
  let dataDir: string;
  let said: string[];
  let exited: Promise<string | number | null | undefined>;

  beforeEach((): void => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'fedpod-store-command-'));
    said = [];
    // The command speaks on stdout and ends the process: both are what is checked.
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array): boolean => said.push(String(chunk)) > 0);
    exited = new Promise((resolve): void => {
      jest.spyOn(process, 'exit').mockImplementation((code?: string | number | null): never => {
        resolve(code);
        return undefined as never;
      });
    });
  });

  afterEach((): void => {
    jest.restoreAllMocks();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the embedded store on the port and data directory given, until SIGTERM ends it with code 0', async(): Promise<void> => {
    const signalListeners = process.listeners('SIGINT');
    await runStore({ 'log-format': 'pretty', host: '127.0.0.1', 'store-port': 0, 'data-dir': dataDir, 'sparql-user': 'admin',
      'sparql-password': 'secret', 'anonymous-access': 'none' });
    expect(said).toHaveLength(1);
    const match = /^\[fedpod\] embedded store listening on (http:\/\/127\.0\.0\.1:\d+)\S* \(data in (.+)\)\n$/u.exec(said[0]);
    expect(match).not.toBeNull();
    expect(match![2]).toBe(path.join(dataDir, 'store'));
    // It answers HTTP; without credentials it lets nothing through.
    const answer = await fetch(`${match![1]}/`);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    process.emit('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${match![1]}/`)).rejects.toThrow();
    // Only the SIGINT listener this command added is left: remove it.
    for (const listener of process.listeners('SIGINT')) {
      if (!signalListeners.includes(listener)) {
        process.off('SIGINT', listener);
      }
    }
  });
});
