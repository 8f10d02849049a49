/**
 * POST preconditions on a container, as Community Solid Server evaluates them: against the
 * container's ETag (its modification date), 412 with `{ "error", "message" }` and nothing created
 * when one is false. Shared by the setups that take POSTs (ldp, ldp-wac).
 */

/** The bodies a POST may have: each takes its own path to the store (triples or a file). */
export const POST_BODIES: readonly { name: string; type: string; body: (marker: string) => string }[] = [
  { name: 'JSON-LD', type: 'application/ld+json',
    body: (marker) => JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note', content: marker }) },
  { name: 'Turtle', type: 'text/turtle', body: (marker) => `<> <https://www.w3.org/ns/activitystreams#content> ${JSON.stringify(marker)} .` },
  { name: 'a file', type: 'text/plain', body: (marker) => marker },
];

/**
 * POSTs each body into a new container in `parent` with true and false preconditions, and checks the
 * answers and that only the POSTs whose preconditions held created anything. `auth`: headers of an
 * agent who may create there. (A container of its own: its members' names would change the order of
 * the parent's pages, which other tests read.)
 */
export async function checkPostPreconditions(parent: string, auth: Record<string, string>): Promise<void> {
  const made = await fetch(parent, { method: 'POST', headers: { link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"',
    slug: `preconditions-${Date.now()}`, ...auth } });
  expect(made.status).toBe(201);
  const container = made.headers.get('location')!;
  const eTag = async(): Promise<string> => {
    const response = await fetch(container, { headers: { accept: 'application/ld+json', ...auth } });
    expect(response.status).toBe(200);
    return response.headers.get('etag')!;
  };
  let count = 0;
  for (const { name, type, body } of POST_BODIES) {
    const post = async(conditions: Record<string, string>): Promise<{ status: number; slug: string; json?: unknown }> => {
      const slug = `precondition-${Date.now()}-${count++}`;
      const response = await fetch(container, { method: 'POST', headers: { 'content-type': type, slug, ...conditions, ...auth },
        body: body(`${name} ${slug}`) });
      const text = await response.text();
      return { status: response.status, slug, json: response.status === 412 ? JSON.parse(text) as unknown : undefined };
    };
    const before = await eTag();
    expect(before).toMatch(/^"\d+-[^"]+"$/u);
    const refused = [
      await post({ 'if-match': '"0-text/turtle"' }),
      await post({ 'if-match': '"0-text/turtle", "1-text/turtle"' }),
      await post({ 'if-none-match': '*' }),
      await post({ 'if-none-match': before }),
      await post({ 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }),
    ];
    for (const answer of refused) {
      expect(`${name} ${answer.status}`).toBe(`${name} 412`);
      expect(answer.json).toEqual({ error: 'precondition_failed', message: expect.any(String) });
    }
    const created = [ await post({ 'if-match': before }) ];
    const after = await eTag();
    // A member added moves the container's date, so the ETag read before no longer holds.
    expect(after).not.toBe(before);
    const stale = await post({ 'if-match': before });
    expect(`${name} ${stale.status}`).toBe(`${name} 412`);
    refused.push(stale);
    created.push(
      await post({ 'if-match': `"0-text/turtle", ${after}` }),
      await post({ 'if-match': '*' }),
      await post({ 'if-none-match': '"0-text/turtle"' }),
    );
    for (const answer of created) {
      expect(`${name} ${answer.status}`).toBe(`${name} 201`);
    }
    // Nothing of a refused POST was written; every accepted one was.
    for (const { slug } of refused) {
      expect(`${slug} ${(await fetch(`${container}${slug}`, { headers: auth })).status}`).toBe(`${slug} 404`);
    }
    for (const { slug } of created) {
      expect(`${slug} ${(await fetch(`${container}${slug}`, { headers: auth })).status}`).toBe(`${slug} 200`);
    }
  }
}
