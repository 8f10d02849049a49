import { join, resolve } from 'node:path';
import { say, useLogFormat } from './Console';

/** `fedpod store`: the embedded store alone, on its Fuseki-compatible HTTP face. */
export async function runStore(argv: Record<string, unknown>): Promise<void> {
  useLogFormat(argv['log-format']);
  const { runEmbeddedStore } = await import('../storage/embedded');
  const dataDir = resolve(String(argv['data-dir']));
  const running = await runEmbeddedStore({
    host: String(argv.host),
    port: Number(argv['store-port']),
    dataDir: join(dataDir, 'store'),
    user: String(argv['sparql-user']),
    password: String(argv['sparql-password']),
    anonymousAccess: argv['anonymous-access'] as 'none' | 'read' | 'all',
    rebuildAfterRemovals: Number(argv['store-rebuild-after-removals']),
  });
  const stop = async(): Promise<void> => {
    await running.stop();
    process.exit(0);
  };
  process.once('SIGTERM', (): void => void stop());
  process.once('SIGINT', (): void => void stop());
  say(`embedded store listening on ${running.url} (data in ${join(dataDir, 'store')})`);
}
