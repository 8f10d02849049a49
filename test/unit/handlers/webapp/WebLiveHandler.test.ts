import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperationInput } from '../../../../src/handlers/http/Operation';
import { WebLiveHandler } from '../../../../src/handlers/webapp/WebLiveHandler';
import type { WebSession } from '../../../../src/handlers/webapp/WebSession';
import type { MastodonStatuses, StatusFilter } from '../../../../src/plugins/mastodon/MastodonStatuses';
import type { MastodonStreaming, StreamClient } from '../../../../src/plugins/mastodon/MastodonStreaming';
import type { MastodonStatus } from '../../../../src/plugins/mastodon/StatusEntity';

const BASE = 'https://pod.example/';

/** A public post by `author` (a local username), as the streaming service sends it. */
function post(id: string, author: string, text: string): MastodonStatus {
  return { id, uri: `${BASE}objects/${id}`, created_at: '2026-03-04T05:06:07.000Z', content: `<p>${text}</p>`, visibility: 'public',
    account: { id: author, username: author, acct: author, display_name: author, uri: `${BASE}actors/${author}`, url: `${BASE}actors/${author}` },
    sensitive: false, spoiler_text: '', media_attachments: [], replies_count: 0, reblogs_count: 0, favourites_count: 0, reblog: null, poll: null,
    favourited: false, reblogged: false, bookmarked: false, filtered: []} as unknown as MastodonStatus;
}

describe('WebLiveHandler', (): void => {
  let server: Server;
  let url: string;
  const clients: StreamClient[] = [];
  const streaming = { add: (client: StreamClient): void => {
    clients.push(client);
  }, remove: (client: StreamClient): void => {
    clients.splice(clients.indexOf(client), 1);
  } } as unknown as MastodonStreaming;
  const session = { reader: async(): Promise<unknown> => ({ username: 'alice', webId: `${BASE}actors/alice`, formKey: 'k' }) } as unknown as WebSession;
  // Alice muted mallory; her own filter folds posts about boats.
  const filter: StatusFilter = { hides: async(author): Promise<boolean> => author === `${BASE}actors/mallory` };
  const statuses = { filtered: async(found: MastodonStatus[]): Promise<MastodonStatus[]> => found.map((status): MastodonStatus =>
    status.content.includes('boat') ? { ...status, filtered: [{ filter: { title: 'Boats' }}]} : status) } as unknown as MastodonStatuses;

  beforeAll(async(): Promise<void> => {
    const handler = new WebLiveHandler(BASE, session, streaming, statuses, filter);
    server = createServer((request, response): void => {
      const target = new URL(request.url!, 'http://localhost');
      void handler.handle({ request, response, operation: { target: { query: target.searchParams }}} as unknown as OperationInput);
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/web/live`;
  });

  afterAll(async(): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve): void => {
      server.close(resolve);
    });
  });

  it('refuses a stream a page does not show, and a hashtag that is none', async(): Promise<void> => {
    for (const query of [ '?stream=user', '?stream=list', '?stream=hashtag', '?stream=hashtag&tag=two%20words' ]) {
      const response = await fetch(`${url}${query}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_stream' });
    }
    expect(clients).toHaveLength(0);
  });

  it('subscribes to the page\'s stream beside the user\'s, and sends its posts as the page shows them: muted authors left out, filters folded', async():
  Promise<void> => {
    const controller = new AbortController();
    const response = await fetch(`${url}?stream=hashtag&tag=Harbour`, { signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async(wanted: string): Promise<void> => {
      while (!text.includes(wanted)) {
        const { value, done } = await reader.read();
        if (done) {
          throw new Error(`The stream ended before ${wanted}`);
        }
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil(': live');
    expect(clients).toHaveLength(1);
    expect([ ...clients[0].subscriptions ]).toEqual([ 'user', 'hashtag harbour' ]);

    // In order: the muted author's post, a filtered one, then a plain one; the last one's arrival means the others were handled.
    clients[0].send([ 'hashtag', 'harbour' ], 'update', JSON.stringify(post('m1', 'mallory', 'muted words')));
    clients[0].send([ 'hashtag', 'harbour' ], 'update', JSON.stringify(post('f1', 'bob', 'a boat')));
    await readUntil('"id":"f1"');
    clients[0].send([ 'hashtag', 'harbour' ], 'update', JSON.stringify(post('p1', 'bob', 'the pier')));
    clients[0].send([ 'user' ], 'update', JSON.stringify(post('h1', 'bob', 'at home')));
    await readUntil('"id":"h1"');
    await readUntil('"id":"p1"');
    const events = text.split('\n\n').filter((block): boolean => block.startsWith('event: status'))
      .map((block): { id: string; stream: string; html: string } => JSON.parse(block.split('\ndata: ')[1]) as { id: string; stream: string; html: string });
    expect(events.map((event): string => `${event.id} ${event.stream}`).sort()).toEqual([ 'f1 hashtag', 'h1 home', 'p1 hashtag' ]);
    expect(events.find((event): boolean => event.id === 'f1')!.html).toContain('<summary>Filtered: Boats</summary>');
    expect(events.find((event): boolean => event.id === 'p1')!.html).toContain('name="back" value="web/tags/harbour"');
    expect(text).not.toContain('muted words');

    controller.abort();
    await reader.cancel().catch((): void => undefined);
  });
});
