import { main } from '../../../src/cli/main';

/** What main writes and the code it exits with, for these arguments (exit stops it, as it would the process). */
async function run(args: string[]): Promise<{ out: string; err: string; code?: string | number | null }> {
  let out = '';
  let err = '';
  let code: string | number | null | undefined;
  // Standard output and error, and the exit, are how the command line answers.
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array): boolean => {
    out += String(chunk);
    return true;
  });
  jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array): boolean => {
    err += String(chunk);
    return true;
  });
  const log = jest.spyOn(console, 'log').mockImplementation((...parts: unknown[]): void => {
    out += `${parts.join(' ')}\n`;
  });
  const error = jest.spyOn(console, 'error').mockImplementation((...parts: unknown[]): void => {
    err += `${parts.join(' ')}\n`;
  });
  jest.spyOn(process, 'exit').mockImplementation((exitCode?: string | number | null): never => {
    code = exitCode;
    throw new Error('exited');
  });
  try {
    main(args);
  } catch {
    // Stopped by exit.
  }
  await new Promise((resolve): void => {
    setImmediate(resolve);
  });
  log.mockRestore();
  error.mockRestore();
  jest.restoreAllMocks();
  return { out, err, code };
}

describe('main', (): void => {
  it('lists its commands in --help and exits with 0', async(): Promise<void> => {
    const answer = await run([ '--help' ]);
    expect(answer.code).toBe(0);
    for (const command of [ 'fedpod start', 'fedpod store', 'fedpod webhooks', 'fedpod export', 'fedpod import' ]) {
      expect(answer.out).toContain(command);
    }
    expect(answer.out).toContain('--port');
  });

  it('names the webhooks commands when none is given, exiting with 1', async(): Promise<void> => {
    const answer = await run([ 'webhooks' ]);
    expect(answer.code).toBe(1);
    expect(answer.err).toContain('Name a webhooks command: generate, list, revoke or dead-letters');
  });

  it('refuses unknown flags', async(): Promise<void> => {
    const answer = await run([ 'store', '--no-such-flag' ]);
    expect(answer.code).toBe(1);
    expect(answer.err).toContain('Unknown argument');
  });

  it('requires where export writes and where import reads, and says how in their --help', async(): Promise<void> => {
    expect((await run([ 'export' ])).err).toContain('Missing required argument: out');
    expect((await run([ 'import' ])).err).toContain('Missing required argument: in');
    const help = await run([ 'import', '--help' ]);
    expect(help.code).toBe(0);
    for (const flag of [ '--in', '--force', '--batch-size', '--sparql-endpoint', '--dataset', '--data-dir' ]) {
      expect(help.out).toContain(flag);
    }
  });

  it('requires the user and action of webhooks generate', async(): Promise<void> => {
    const answer = await run([ 'webhooks', 'generate', '--user', 'alice' ]);
    expect(answer.code).toBe(1);
    expect(answer.err).toContain('Missing required argument: action');
  });
});
