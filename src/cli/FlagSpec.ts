import type { Options } from 'yargs';

export type FlagValue = string | number | boolean | undefined;

/**
 * One command-line flag, declared once: its name, environment variable, default, help and what a
 * valid value is. The yargs option, the default read from the environment and the check before
 * start-up are all derived from it.
 */
export interface FlagSpec {
  /** The flag without dashes: `port` is `--port`. */
  name: string;
  type: 'string' | 'number' | 'boolean';
  /** The environment variable that sets it when the flag is not given. */
  env?: string;
  default?: FlagValue;
  describe: string;
  /** The values it takes, when they are a list. */
  choices?: string[];
  /** A whole number within these bounds. */
  range?: [ number, number ];
  /** A URL with one of these schemes (when not empty). */
  schemes?: string[];
  /** The config variable (config/parts/variables.json or CSS's) it sets as it is, when it sets one. */
  variable?: string;
}

/** The flag's value when it is not given: its environment variable's, else its default. */
export function defaultOf(spec: FlagSpec, env: NodeJS.ProcessEnv = process.env): FlagValue {
  const raw = spec.env ? env[spec.env] : undefined;
  if (raw === undefined || raw === '') {
    return spec.default;
  }
  switch (spec.type) {
    case 'boolean':
      return raw === 'true' || raw === '1';
    case 'number':
      return Number(raw);
    default:
      return raw;
  }
}

/** The yargs option of a flag. */
export function yargsOption(spec: FlagSpec, env: NodeJS.ProcessEnv = process.env): Options {
  const value = defaultOf(spec, env);
  return {
    type: spec.type,
    describe: `${spec.describe}${spec.env ? ` [env ${spec.env}]` : ''}`,
    ...value === undefined ? {} : { default: value },
    ...spec.choices ? { choices: spec.choices } : {},
  };
}

/** Why `value` is not a valid value of the flag, or undefined when it is. */
export function flagProblem(spec: FlagSpec, value: unknown): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (spec.range) {
    const [ min, max ] = spec.range;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      return `--${spec.name} must be a whole number from ${min} to ${max} (got ${typeof value === 'number' && !Number.isNaN(value) ? value : 'something that is not a number'})`;
    }
  }
  if (spec.schemes && typeof value === 'string' && value.trim() !== '') {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      return `--${spec.name} must be a URL (${spec.schemes.join(' or ')}), got ${JSON.stringify(value)}`;
    }
    if (!spec.schemes.includes(url.protocol.slice(0, -1))) {
      return `--${spec.name} must be a ${spec.schemes.join(' or ')} URL, got ${JSON.stringify(value)}`;
    }
  }
  if (spec.choices && !spec.choices.includes(String(value))) {
    return `--${spec.name} must be one of ${spec.choices.join(', ')} (got ${JSON.stringify(value)})`;
  }
  return undefined;
}
