/**
 * Jest globalTeardown of the "integration" project: stops the shared servers
 * by PID, kills anything a test left running, and deletes the run's data
 * (logs stay until a later run prunes them; FEDPOD_TEST_KEEP_TMP=1 keeps all).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getGlobalServers, setGlobalServers } from './global-state';
import { isAlive, killByPid, removeRunData } from './processes';

interface PidRecord {
  pid: number;
  start: number;
  name: string;
}

export default async function globalTeardown(): Promise<void> {
  const servers = getGlobalServers();
  if (servers === undefined) return;
  const began = Date.now();
  await Promise.allSettled([servers.virtuoso?.stop(), servers.fuseki?.stop(), servers.redis?.stop()]);
  await killLeftovers(servers.runDir);
  if (process.env.FEDPOD_TEST_KEEP_TMP !== '1') removeRunData(servers.runDir);
  process.stderr.write(`[fedpod-test] servers stopped in ${((Date.now() - began) / 1000).toFixed(1)} s; logs in ${servers.runDir}/logs\n`);
  setGlobalServers(undefined);
}

/** Processes some test started and never stopped (their watchdog would get them too). */
async function killLeftovers(runDir: string): Promise<void> {
  const pidsDir = path.join(runDir, 'pids');
  if (!fs.existsSync(pidsDir)) return;
  const records = fs
    .readdirSync(pidsDir)
    .flatMap((file) => readRecord(path.join(pidsDir, file)))
    .filter((r) => isAlive(r.pid, r.start));
  for (const r of records) {
    process.stderr.write(`[fedpod-test] ${r.name} (pid ${r.pid}) was left running by a test: stopping it\n`);
  }
  await Promise.allSettled(records.map((r) => killByPid(r.pid, { start: r.start, graceMs: 5_000 })));
}

function readRecord(file: string): PidRecord[] {
  try {
    return [JSON.parse(fs.readFileSync(file, 'utf8')) as PidRecord];
  } catch {
    return []; // removed meanwhile, or half-written by a process that died
  }
}
