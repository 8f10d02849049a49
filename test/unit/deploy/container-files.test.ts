import { readFileSync } from 'node:fs';
import { SERVER_FLAGS } from '../../../src/cli/Flags';
import * as path from 'node:path';
import { parse } from 'yaml';

// Facts about Dockerfile, .dockerignore and docker-compose.yml that break a deployment when they
// drift from the code. Docker cannot run here: scripts/container-smoke.sh follows the
// Dockerfile's steps without it.

const ROOT = path.join(__dirname, '..', '..', '..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: unknown };
  volumes?: (string | { type?: string; source?: string })[];
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

interface Instruction {
  op: string;
  args: string;
}

/** Environment of a service, from either of Compose's two forms (map or KEY=value list). */
function environmentOf(service: ComposeService): Record<string, string> {
  const env: Record<string, string> = {};
  if (Array.isArray(service.environment)) {
    for (const entry of service.environment) {
      const at = entry.indexOf('=');
      env[at < 0 ? entry : entry.slice(0, at)] = at < 0 ? '' : entry.slice(at + 1);
    }
  } else {
    for (const [ name, value ] of Object.entries(service.environment ?? {})) {
      env[name] = value === null ? '' : String(value);
    }
  }
  return env;
}

/** Dockerfile stages: the instructions after each FROM, continuation lines joined, comments dropped. */
function dockerfileStages(text: string): Instruction[][] {
  const joined = text.split('\n').filter((line): boolean => !line.trim().startsWith('#'))
    .join('\n').replace(/\\\n/gu, ' ');
  const stages: Instruction[][] = [];
  for (const line of joined.split('\n').map((entry): string => entry.trim()).filter(Boolean)) {
    const [ , op, args ] = /^(\S+)\s*(.*)$/u.exec(line)!;
    if (op.toUpperCase() === 'FROM') {
      stages.push([]);
    } else {
      stages.at(-1)!.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

/** COPY sources and whether they come from the build context (no --from). */
function copySources(stage: Instruction[]): { source: string; fromContext: boolean }[] {
  return stage.filter(({ op }): boolean => op === 'COPY').flatMap(({ args }): { source: string; fromContext: boolean }[] => {
    const words = args.split(/\s+/u);
    const fromContext = !words.some((word): boolean => word.startsWith('--from='));
    return words.filter((word): boolean => !word.startsWith('--')).slice(0, -1)
      .map((source): { source: string; fromContext: boolean } => ({ source, fromContext }));
  });
}

/**
 * Whether .dockerignore keeps a context path, as Docker decides: patterns match whole paths
 * (`*`, `?` within a segment, `**` across), a match on a parent directory covers what is below
 * it, `!` re-includes, the last matching pattern wins.
 */
function keptByDockerignore(ignoreText: string, file: string): boolean {
  const candidates = file.split('/').map((_, index, parts): string => parts.slice(0, index + 1).join('/'));
  let kept = true;
  for (const raw of ignoreText.split('\n').map((line): string => line.trim())) {
    if (raw === '' || raw.startsWith('#')) {
      continue;
    }
    const negated = raw.startsWith('!');
    const pattern = path.posix.normalize(negated ? raw.slice(1) : raw).replace(/^\/+/u, '');
    const source = pattern.split('**').map((part): string => part.replace(/[.+^${}()|\\]/gu, '\\$&')
      .replace(/\*/gu, '[^/]*').replace(/\?/gu, '[^/]')).join('.*');
    const regex = new RegExp(`^${source}$`, 'u');
    if (candidates.some((candidate): boolean => regex.test(candidate))) {
      kept = negated;
    }
  }
  return kept;
}

describe('container files', (): void => {
  const compose = parse(read('docker-compose.yml')) as ComposeFile;
  const services = compose.services;
  const fedpodEntry = Object.entries(services).find(([ , service ]): boolean => service.build !== undefined);
  // The variables the command line reads: each flag's (src/cli/Flags.ts), and those read directly.
  const binEnv = new Set([ ...SERVER_FLAGS.map((flag): string | undefined => flag.env).filter((name): name is string => Boolean(name)),
    ...[ 'src/cli/Console.ts', 'src/cli/StartCommand.ts' ].flatMap((file): string[] =>
      [ ...read(file).matchAll(/process\.env\.([A-Z0-9_]+)/gu) ].map((match): string => match[1])) ]);
  const packageFiles = (JSON.parse(read('package.json')) as { files: string[] }).files;
  const stages = dockerfileStages(read('Dockerfile'));
  const runtime = stages.at(-1)!;

  it('has a Fedpod service built from this directory', (): void => {
    expect(fedpodEntry).toBeDefined();
    expect(binEnv.size).toBeGreaterThan(5);
  });

  describe('docker-compose.yml, the Fedpod service', (): void => {
    const [ fedpodName, fedpod ] = fedpodEntry!;
    const env = environmentOf(fedpod);

    it('sets only run-time variables that the command line reads', (): void => {
      const ours = Object.keys(env).filter((name): boolean =>
        /^(?:FEDPOD|SPARQL)_/u.test(name) || [ 'REDIS_URL', 'SERVICE_HOME_URL', 'PORT' ].includes(name));
      expect(ours.length).toBeGreaterThan(5);
      expect(ours.filter((name): boolean => !binEnv.has(name))).toEqual([]);
    });

    it('points SPARQL_ENDPOINT and REDIS_URL at services of the file', (): void => {
      for (const name of [ 'SPARQL_ENDPOINT', 'REDIS_URL' ]) {
        expect(env[name]).toMatch(/^[a-z]+:\/\/[^$]/u);
        const host = new URL(env[name]).hostname;
        expect({ name, host, defined: host in services && host !== fedpodName }).toEqual({ name, host, defined: true });
      }
    });

    it('uses the store\'s admin password as SPARQL_PASSWORD', (): void => {
      const store = services[new URL(env.SPARQL_ENDPOINT).hostname];
      expect(env.SPARQL_PASSWORD).toBeTruthy();
      expect(environmentOf(store).ADMIN_PASSWORD).toBe(env.SPARQL_PASSWORD);
    });

    it('waits for the store and Redis to be healthy, and both have health checks', (): void => {
      const dependsOn = fedpod.depends_on as Record<string, { condition?: string }>;
      for (const name of [ new URL(env.SPARQL_ENDPOINT).hostname, new URL(env.REDIS_URL).hostname ]) {
        expect({ name, condition: dependsOn[name]?.condition }).toEqual({ name, condition: 'service_healthy' });
        expect(services[name].healthcheck?.test).toBeDefined();
      }
    });

    it('keeps its data in a named volume at the image\'s data directory', (): void => {
      const mount = (fedpod.volumes ?? []).find((volume): boolean => typeof volume === 'string' && volume.endsWith(':/data'));
      expect(mount).toBeDefined();
      expect(env.FEDPOD_DATA_DIR ?? '/data').toBe('/data');
    });
  });

  it('runs Redis with an fsync on every write (what makes a queued job durable)', (): void => {
    const redis = Object.values(services).find((service): boolean => service.image?.startsWith('redis:') === true);
    const command = Array.isArray(redis?.command) ? redis!.command.join(' ') : String(redis?.command);
    expect(command).toMatch(/--appendonly yes\b/u);
    expect(command).toMatch(/--appendfsync always\b/u);
  });

  it('declares every named volume that a service mounts', (): void => {
    const declared = Object.keys(compose.volumes ?? {});
    const used = Object.values(services).flatMap((service): string[] => (service.volumes ?? [])
      .map((volume): string => (typeof volume === 'string' ? volume.split(':')[0] : volume.source ?? ''))
      .filter((source): boolean => /^[\w-]+$/u.test(source)));
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((name): boolean => !declared.includes(name))).toEqual([]);
  });

  describe('Dockerfile', (): void => {
    it('has a build stage and a runtime stage', (): void => {
      expect(stages.length).toBeGreaterThanOrEqual(2);
    });

    it('copies every directory of package.json "files" into the runtime stage', (): void => {
      const copied = new Set(copySources(runtime).map(({ source }): string => path.posix.basename(source)));
      expect(packageFiles.filter((entry): boolean => !copied.has(entry))).toEqual([]);
    });

    it('runs as a user that is not root', (): void => {
      const users = runtime.filter(({ op }): boolean => op === 'USER').map(({ args }): string => args.split(':')[0]);
      expect(users.length).toBeGreaterThan(0);
      expect([ 'root', '0' ]).not.toContain(users.at(-1));
    });

    it('starts `node bin/fedpod.js start` and checks /healthz', (): void => {
      const exec = (op: string): string[] =>
        JSON.parse(runtime.find((instruction): boolean => instruction.op === op)?.args ?? '[]') as string[];
      expect([ ...exec('ENTRYPOINT'), ...exec('CMD') ]).toEqual([ 'node', 'bin/fedpod.js', 'start' ]);
      expect(runtime.find(({ op }): boolean => op === 'HEALTHCHECK')?.args).toContain('/healthz');
    });

    it('copies nothing from the context that .dockerignore leaves out', (): void => {
      const ignore = read('.dockerignore');
      const sources = stages.flatMap(copySources).filter(({ fromContext }): boolean => fromContext)
        .map(({ source }): string => path.posix.normalize(source));
      expect(sources).toEqual(expect.arrayContaining([ 'package.json', 'src' ]));
      expect(sources.filter((source): boolean => !keptByDockerignore(ignore, source))).toEqual([]);
      // And the context leaves out what must never reach an image.
      expect([ 'node_modules', 'data', '.git', 'dist' ].filter((entry): boolean => keptByDockerignore(ignore, entry)))
        .toEqual([]);
    });
  });
});
