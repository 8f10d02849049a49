import { AudienceRules } from '../../../../src/plugins/activitypub/AudienceRules';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';
import { AS_USER, DocumentsStandIn } from '../activitypub/support';

export const BASE = 'https://pod.example/';
export const AS = 'https://www.w3.org/ns/activitystreams';
export const ALICE = `${BASE}actors/alice`;
export const BOB = `${BASE}actors/bob`;
export const BROWSER = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** Alice's outbox: a public Create, a followers-only Create (Bob follows), and a public Like; her liked and featured collections. */
export interface OutboxWorld {
  graphs: EmbeddedGraphs;
  documents: DocumentsStandIn;
  rules: AudienceRules;
}

export async function startOutboxWorld(): Promise<OutboxWorld> {
  const graphs = await startEmbeddedGraphs(BASE);
  const documents = new DocumentsStandIn();
  const posts: [string, string, Record<string, unknown>][] = [
    [ `${BASE}activities/1`, `${AS}#Public`, { type: 'Create', object: { id: `${BASE}objects/1`, type: 'Note', content: '<p>public words</p>' }}],
    [ `${BASE}activities/2`, `${ALICE}/followers`, { type: 'Create', object: { id: `${BASE}objects/2`, type: 'Note', content: '<p>for followers</p>' }}],
    [ `${BASE}activities/3`, `${AS}#Public`, { type: 'Like', object: 'https://r.example/notes/9' }],
  ];
  for (const [ index, [ iri, to, document ]] of posts.entries()) {
    await graphs.put(iri, [ [ `${AS}#actor`, ALICE, 'iri' ], [ `${AS}#to`, to, 'iri' ] ]);
    await graphs.collections.add(`${ALICE}/outbox`, iri, new Date(Date.UTC(2026, 0, index + 1)));
    documents.documents.set(iri, { id: iri, actor: ALICE, to, ...document });
  }
  await graphs.collections.add(`${ALICE}/followers`, BOB);
  await graphs.collections.add(`${ALICE}/following`, 'https://r.example/u/x');
  await graphs.collections.add(`${ALICE}/following`, 'https://r.example/u/y');
  await graphs.collections.add(`${ALICE}/liked`, 'https://r.example/notes/9');
  await graphs.collections.add(`${ALICE}/featured`, `${BASE}objects/1`);
  documents.documents.set(`${BASE}objects/1`, { id: `${BASE}objects/1`, type: 'Note', content: '<p>public words</p>' });
  return { graphs, documents, rules: new AudienceRules(graphs.resources, graphs.collections, BASE) };
}

/** GETs (or `method`s) a page from a handler served on `base` as a browser would, as `user` when given. */
export async function openPage(base: string, target: string, user?: string, method = 'GET'):
Promise<{ status: number; headers: Headers; html: string }> {
  const response = await fetch(`${base}${target}`, { method, headers: { accept: BROWSER, ...user ? { [AS_USER]: user } : {}}});
  return { status: response.status, headers: response.headers, html: await response.text() };
}
