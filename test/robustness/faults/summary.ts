/**
 * The fault suite's one-line summary. Each robustness test file records its part in the run
 * directory (shared by the jest workers of one run); every file prints the line with the parts
 * known so far, so the file that finishes last prints the whole of it, e.g.
 *   robustness: 10 kills under load, 1,234 acknowledged writes, 0 lost; peer outage: 12/12 delivered; store and Redis restarts: recovered
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const PARTS = [ 'kills', 'peer', 'dependencies' ] as const;
export type Part = typeof PARTS[number];

interface KillsPart { kills: number; acknowledged: number; lost: number }

function dir(): string | undefined {
  const runDir = process.env.FEDPOD_TEST_RUN_DIR;
  return runDir === undefined || runDir === '' ? undefined : path.join(runDir, 'robustness');
}

function read(part: Part): unknown {
  const base = dir();
  if (base === undefined) return undefined;
  try {
    return JSON.parse(fs.readFileSync(path.join(base, `${part}.json`), 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Records a part; `kills` parts of several setups add up. Returns the line with every part known.
 * `text` is the part as it reads in the line (for `kills`, its numbers are used instead).
 */
export function recordPart(part: Part, text: string, numbers?: KillsPart): string {
  const base = dir();
  let value: unknown = { text };
  if (part === 'kills' && numbers !== undefined) {
    const before = read('kills') as KillsPart | undefined;
    value = before === undefined ? numbers :
      { kills: before.kills + numbers.kills, acknowledged: before.acknowledged + numbers.acknowledged, lost: before.lost + numbers.lost };
  }
  if (base !== undefined) {
    fs.mkdirSync(base, { recursive: true });
    fs.writeFileSync(path.join(base, `${part}.json`), JSON.stringify(value));
  }
  const texts: string[] = [];
  for (const name of PARTS) {
    const known = name === part && base === undefined ? value : read(name);
    if (known === undefined) continue;
    if (name === 'kills') {
      const k = known as KillsPart;
      texts.push(`${k.kills} kills under load, ${count(k.acknowledged)} acknowledged writes, ${count(k.lost)} lost`);
    } else {
      texts.push((known as { text: string }).text);
    }
  }
  return `robustness: ${texts.join('; ')}`;
}

/** Prints the line outside jest's console decoration, so it reads as one line in the run's output. */
export function printSummary(line: string): void {
  process.stdout.write(`\n${line}\n`);
}
