/** Small HTTP helpers for the embedded store tests (Node's global fetch, keep-alive). */

export const ADMIN_AUTH = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

export interface SimpleResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers: Headers;
}

export async function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; auth?: string | null } = {},
): Promise<SimpleResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== null) {
    headers.authorization = init.auth ?? ADMIN_AUTH;
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: await response.text(),
    headers: response.headers,
  };
}

export async function createDataset(baseUrl: string, name: string, type = 'tdb2'): Promise<SimpleResponse> {
  return request(`${baseUrl}/$/datasets`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `dbName=${encodeURIComponent(name)}&dbType=${type}`,
  });
}

export async function sparqlUpdate(datasetUrl: string, update: string): Promise<SimpleResponse> {
  return request(datasetUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/sparql-update' },
    body: update,
  });
}

/** SELECT via POST /{ds} (form), returning the JSON bindings. */
export async function select(datasetUrl: string, query: string): Promise<Record<string, { value: string; type: string }>[]> {
  const response = await request(datasetUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
    body: new URLSearchParams({ query }).toString(),
  });
  if (response.status !== 200) {
    throw new Error(`SELECT failed with ${response.status}: ${response.body}`);
  }
  return (JSON.parse(response.body) as { results: { bindings: Record<string, { value: string; type: string }>[] } }).results.bindings;
}
