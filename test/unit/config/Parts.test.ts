import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

type Json = Record<string, unknown>;
const ROOT = join(__dirname, '../../..');
const PARTS = join(ROOT, 'config', 'parts');

/** Every setup: the named ones and the test fixtures. */
const SETUPS = [
  ...readdirSync(join(ROOT, 'config')).filter((name): boolean => name.endsWith('.json')).map((name): string => join('config', name)),
  ...readdirSync(join(ROOT, 'test', 'fixtures', 'config')).filter((name): boolean => name.endsWith('.json'))
    .map((name): string => join('test', 'fixtures', 'config', name)),
];

/** The backend parts: `fedpod start` loads one with a setup that imports none itself. */
const BACKEND_PARTS = [ 'local', 'redis' ].map((name): string => join('config', 'parts', 'backend', `${name}.json`));

/** The Fedpod files a setup loads: itself and what it imports, directly or not. */
function filesOf(setup: string, seen = new Set<string>()): Set<string> {
  if (!seen.has(setup)) {
    seen.add(setup);
    const config = JSON.parse(readFileSync(join(ROOT, setup), 'utf8')) as Json;
    for (const imported of (config.import ?? []) as string[]) {
      if (imported.startsWith('fedpod:')) {
        filesOf(imported.slice('fedpod:'.length), seen);
      }
    }
  }
  return seen;
}

/** The ids a file gives parameters to (a type or any value): a mere reference, `{ "@id" }`, gives none. */
function definedIds(file: string): Set<string> {
  const ids = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
    } else if (value && typeof value === 'object') {
      const object = value as Json;
      if (typeof object['@id'] === 'string' && Object.keys(object).some((key): boolean => key !== '@id' && key !== 'comment')) {
        ids.add(object['@id']);
      }
      Object.values(object).forEach(walk);
    }
  };
  walk((JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Json)['@graph']);
  return ids;
}

function partFiles(dir = PARTS): string[] {
  return readdirSync(dir).flatMap((name): string[] => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return partFiles(path);
    }
    return name.endsWith('.json') ? [ path ] : [];
  });
}

/** Keys given twice in one object of a JSON text (JSON.parse keeps the last one silently). */
function repeatedKeys(text: string): string[] {
  const repeated: string[] = [];
  const objects: Set<string>[] = [];
  const containers: ('{' | '[')[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') {
        end += text[end] === '\\' ? 2 : 1;
      }
      const isKey = containers.at(-1) === '{' && /^\s*:/u.test(text.slice(end + 1, end + 20));
      const key = text.slice(at + 1, end);
      if (isKey && objects.at(-1)!.has(key)) {
        repeated.push(key);
      } else if (isKey) {
        objects.at(-1)!.add(key);
      }
      at = end;
    } else if (char === '{' || char === '[') {
      containers.push(char);
      if (char === '{') {
        objects.push(new Set());
      }
    } else if (char === '}' || char === ']') {
      if (containers.pop() === '{') {
        objects.pop();
      }
    }
  }
  return repeated;
}

/** Every setup with each backend part it can be started with: its own, else each. */
const STARTS = SETUPS.flatMap((setup): [string, string][] => {
  const own = [ ...filesOf(setup) ].some((file): boolean => BACKEND_PARTS.includes(file));
  return own ? [[ setup, 'the backend part it imports' ]] : BACKEND_PARTS.map((part): [string, string] => [ setup, part ]);
});

describe('the config parts', (): void => {
  it.each(STARTS)('%s with %s: each component is defined in one file, so no list is assembled across files', (setup, backend): void => {
    const owners = new Map<string, string[]>();
    const files = new Set([ ...filesOf(setup), ...BACKEND_PARTS.includes(backend) ? filesOf(backend) : [] ]);
    expect(BACKEND_PARTS.filter((part): boolean => files.has(part))).toHaveLength(1);
    for (const file of files) {
      for (const id of definedIds(file)) {
        owners.set(id, [ ...owners.get(id) ?? [], file ]);
      }
    }
    const shared = [ ...owners ].filter(([ , files ]): boolean => files.length > 1);
    expect(shared).toEqual([]);
    // A sanity check of the walk itself: the request pipeline is found, in its one file.
    expect(owners.get('urn:fedpod:default:RequestPipeline')).toEqual([ join('config', 'parts', 'http', 'server.json') ]);
  });

  it.each(STARTS)('%s with %s: every Fedpod component it refers to is defined by a file it loads', (setup, backend): void => {
    // A part may refer to a component only another choice of a folder defines (LocalUserAccess is
    // defined with the OpenID provider, not without): Components.js then fails to build the setup.
    const files = new Set([ ...filesOf(setup), ...BACKEND_PARTS.includes(backend) ? filesOf(backend) : [] ]);
    const defined = new Set([ ...files ].flatMap((file): string[] => [ ...definedIds(file) ]));
    const missing = new Set<string>();
    const walk = (value: unknown, file: string): void => {
      if (Array.isArray(value)) {
        value.forEach((entry): void => walk(entry, file));
      } else if (value && typeof value === 'object') {
        const object = value as Json;
        const id = object['@id'];
        if (typeof id === 'string' && id.startsWith('urn:fedpod:') && !defined.has(id)) {
          missing.add(`${id} (in ${file})`);
        }
        Object.values(object).forEach((entry): void => walk(entry, file));
      }
    };
    for (const file of files) {
      walk((JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Json)['@graph'], file);
    }
    expect([ ...missing ]).toEqual([]);
  });

  it.each(SETUPS)('%s: imports one file of each folder that holds a choice', (setup): void => {
    const folders = [ 'accounts', 'activitypub', 'authorization', 'containers', 'identity', 'ldp-handlers', 'notifications',
      'sparql-endpoint', 'user-storage', 'webhooks', 'mastodon' ];
    const imported = ((JSON.parse(readFileSync(join(ROOT, setup), 'utf8')) as Json).import as string[])
      .filter((part): boolean => part.startsWith('fedpod:config/parts/'))
      .map((part): string => dirname(part.slice('fedpod:config/parts/'.length)));
    for (const folder of folders) {
      expect([ folder, imported.filter((dir): boolean => dir === folder).length ]).toEqual([ folder, 1 ]);
    }
  });

  it('defines in each backend part the components other parts use, and no other part defines them', (): void => {
    const [ local, redis ] = BACKEND_PARTS.map((part): Set<string> => definedIds(part));
    const others = [ ...SETUPS.filter((setup): boolean => setup.startsWith('config')),
      ...partFiles().map((file): string => relative(ROOT, file)).filter((file): boolean => !BACKEND_PARTS.includes(file)) ];
    const used = new Set(others.flatMap((file): string[] => [ ...readFileSync(join(ROOT, file), 'utf8')
      .matchAll(/"@id": "([^"]+)"/gu) ].map((match): string => match[1])));
    const shared = [ ...local ].filter((id): boolean => redis.has(id));
    expect(shared).toEqual(expect.arrayContaining([ 'urn:solid-server:default:ResourceLocker', 'urn:fedpod:default:JobQueueFactory',
      'urn:fedpod:default:RelationChanges', 'urn:fedpod:default:AclChanges', 'urn:fedpod:default:WebhookRevocations',
      'urn:fedpod:default:BackendReadinessCheck', 'urn:fedpod:default:BackendFinalizer' ]));
    // What only one backend has (its inner parts, such as the Redis locker) no other part refers to.
    const ownOnly = [ ...local, ...redis ].filter((id): boolean => !shared.includes(id));
    expect(ownOnly.filter((id): boolean => used.has(id))).toEqual([]);
    for (const file of others) {
      expect([ file, [ ...definedIds(file) ].filter((id): boolean => local.has(id) || redis.has(id)) ]).toEqual([ file, []]);
    }
  });

  it('gives no key twice in one object of a config file (JSON keeps only the last)', (): void => {
    const files = [ ...partFiles(), ...SETUPS.map((setup): string => join(ROOT, setup)) ];
    const repeated = files.flatMap((file): string[] => repeatedKeys(readFileSync(file, 'utf8'))
      .map((key): string => `${relative(ROOT, file)}: ${key}`));
    expect(repeated).toEqual([]);
    // The scan itself: it sees a repeated key, and not the same key in two objects.
    expect(repeatedKeys('{ "a": 1, "b": { "a": "x\\"", "c": [ { "a": 2 } ] }, "a": 3 }')).toEqual([ 'a' ]);
  });

  it('describes every part file in the README of its folder', (): void => {
    const undescribed = partFiles().filter((file): boolean => {
      const readme = join(dirname(file), 'README.md');
      let text = '';
      try {
        text = readFileSync(readme, 'utf8');
      } catch {
        return true;
      }
      return !text.includes(`\`${basename(file)}\``);
    }).map((file): string => relative(ROOT, file));
    expect(undescribed).toEqual([]);
  });
});
