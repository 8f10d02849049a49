import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FlagSpec } from '../../../src/cli/FlagSpec';
import { defaultOf, flagProblem, yargsOption } from '../../../src/cli/FlagSpec';
import { SERVER_FLAGS, STORE_FLAGS } from '../../../src/cli/Flags';

const PORT: FlagSpec = { name: 'port', type: 'number', env: 'PORT', default: 3000, range: [ 1, 65535 ], describe: 'HTTP port' };

describe('FlagSpec', (): void => {
  it('takes the environment variable over the default, typed as the flag', (): void => {
    expect(defaultOf(PORT, {})).toBe(3000);
    expect(defaultOf(PORT, { PORT: '8080' })).toBe(8080);
    const flag: FlagSpec = { name: 'metrics', type: 'boolean', env: 'M', default: false, describe: 'x' };
    expect(defaultOf(flag, { M: 'true' })).toBe(true);
    expect(defaultOf(flag, { M: 'false' })).toBe(false);
    expect(defaultOf({ name: 'x', type: 'string', env: 'X', default: 'a', describe: 'x' }, { X: '' })).toBe('a');
  });

  it('gives yargs the type, the default and help that names the variable', (): void => {
    expect(yargsOption(PORT, { PORT: '81' })).toEqual({ type: 'number', default: 81, describe: 'HTTP port [env PORT]' });
  });

  it.each([
    [ PORT, Number.NaN, '--port must be a whole number from 1 to 65535 (got something that is not a number)' ],
    [ PORT, 99999, '--port must be a whole number from 1 to 65535 (got 99999)' ],
    [ PORT, 1.5, '--port must be a whole number from 1 to 65535 (got 1.5)' ],
    [ SERVER_FLAGS.find((flag) => flag.name === 'base-url')!, 'not-a-url', '--base-url must be a URL (http or https), got "not-a-url"' ],
    [ SERVER_FLAGS.find((flag) => flag.name === 'redis-url')!, 'http://127.0.0.1:6379', '--redis-url must be a redis or rediss URL, got "http://127.0.0.1:6379"' ],
    [ STORE_FLAGS.find((flag) => flag.name === 'log-level')!, 'loud', '--log-level must be one of error, warn, info, debug (got "loud")' ],
  ])('names the flag and what it takes: %o = %p', (spec, value, message): void => {
    expect(flagProblem(spec, value)).toBe(message);
  });

  it('accepts good values and leaves an empty URL (not set) alone', (): void => {
    expect(flagProblem(PORT, 443)).toBeUndefined();
    expect(flagProblem(SERVER_FLAGS.find((flag) => flag.name === 'sparql-endpoint')!, '')).toBeUndefined();
    expect(flagProblem(SERVER_FLAGS.find((flag) => flag.name === 'sparql-endpoint')!, 'http://fuseki:3030/')).toBeUndefined();
  });

  it('declares each flag once, and each config variable once', (): void => {
    const names = SERVER_FLAGS.map((flag) => flag.name);
    expect(new Set(names).size).toBe(names.length);
    const variables = SERVER_FLAGS.map((flag) => flag.variable).filter(Boolean);
    expect(new Set(variables).size).toBe(variables.length);
  });

  it('sets only config variables that Fedpod declares or CSS owns', (): void => {
    const declared = new Set((JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'config', 'parts', 'variables.json'), 'utf8')) as
      { '@graph': { '@id': string }[] })['@graph'].map((variable): string => variable['@id']));
    for (const variable of SERVER_FLAGS.map((flag) => flag.variable).filter((name): name is string => name !== undefined)) {
      expect(declared.has(variable) || variable.startsWith('urn:solid-server:default:variable:')).toBe(true);
    }
  });

  it('reads the owner WebIDs and the retry delay from their flags or the environment variables that set them', (): void => {
    const owner = SERVER_FLAGS.find((flag) => flag.name === 'owner-webid')!;
    const retry = SERVER_FLAGS.find((flag) => flag.name === 'retry-base-delay')!;
    expect(defaultOf(owner, { FEDPOD_OWNER_WEBID: 'https://a.example/#me' })).toBe('https://a.example/#me');
    expect(defaultOf(owner, {})).toBe('');
    expect(defaultOf(retry, { FEDPOD_RETRY_BASE_DELAY: '500' })).toBe(500);
    expect(defaultOf(retry, {})).toBe(30000);
    expect(flagProblem(retry, -1)).toBe('--retry-base-delay must be a whole number from 0 to 86400000 (got -1)');
    expect(yargsOption(owner, {}).describe).toContain('[env FEDPOD_OWNER_WEBID]');
    expect(owner.variable).toBe('urn:fedpod:default:variable:ownerWebIds');
    expect(retry.variable).toBe('urn:fedpod:default:variable:retryBaseDelay');
  });
});
