/** Small readers for ActivityStreams JSON, where a value may be a string, an object with an id, or an array. */
export type Json = Record<string, unknown>;

export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as Json).id === 'string') {
    return (value as Json).id as string;
  }
  return undefined;
}

export function idsOf(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [ value ];
  return values.map(idOf).filter((id): id is string => id !== undefined);
}

export function typeOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return undefined;
  }
  const type = (value as Json).type;
  if (typeof type === 'string') {
    return type;
  }
  return Array.isArray(type) && typeof type[0] === 'string' ? type[0] : undefined;
}

export function isObject(value: unknown): value is Json {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}
