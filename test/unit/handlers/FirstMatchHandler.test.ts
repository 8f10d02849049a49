import type { HttpHandlerInput, HttpRequest, HttpResponse } from '@solid/community-server';
import { HttpHandler } from '@solid/community-server';
import { FirstMatchHandler } from '../../../src/handlers/FirstMatchHandler';
import { NOT_HANDLED } from '../../../src/handlers/http/NotHandled';
import type { RequestMatcher } from '../../../src/handlers/http/RequestMatcher';
import { HostMetaHandler } from '../../../src/handlers/discovery/HostMetaHandler';
import { NodeInfoHandler } from '../../../src/handlers/discovery/NodeInfoHandler';
import { WebFingerHandler } from '../../../src/handlers/discovery/WebFingerHandler';
import { call, get } from './discovery/support';
import { InMemoryAccountStoreFake } from './support/InMemoryAccountStore';
import type { OperationInput } from '../../../src/handlers/http/Operation';
import { operationInput } from './support/operations';

/** A handler that takes the requests for one path, telling so through canHandle only. */
class PathHandler extends HttpHandler {
  public readonly served: string[] = [];

  public constructor(protected readonly path: string) {
    super();
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (request.url !== this.path) {
      throw NOT_HANDLED;
    }
  }

  public async handle({ request }: HttpHandlerInput): Promise<void> {
    this.served.push(request.url!);
  }
}

/** The same, telling so synchronously as well; canHandle is counted. */
class MatchingPathHandler extends PathHandler implements RequestMatcher {
  public canHandleCalls = 0;

  public accepts({ request }: HttpHandlerInput): boolean {
    return request.url === this.path;
  }

  public override async canHandle(input: HttpHandlerInput): Promise<void> {
    this.canHandleCalls += 1;
    await super.canHandle(input);
  }
}

function input(url: string): OperationInput {
  return operationInput({ url, method: 'POST', headers: {}} as unknown as HttpRequest, {} as HttpResponse);
}

describe('FirstMatchHandler', () => {
  const matching = new MatchingPathHandler('/inbox');
  const plain = new PathHandler('/webhooks/x');
  const handler = new FirstMatchHandler([ matching, plain ]);

  beforeEach(() => {
    matching.canHandleCalls = 0;
    matching.served.length = 0;
    plain.served.length = 0;
  });

  it('lets the first handler that takes a request handle it, asking a RequestMatcher synchronously', async () => {
    const webhook = input('/webhooks/x');
    await handler.canHandle(webhook);
    await handler.handle(webhook);
    const inbox = input('/inbox');
    await handler.handleSafe(inbox);
    expect(plain.served).toEqual([ '/webhooks/x' ]);
    expect(matching.served).toEqual([ '/inbox' ]);
    expect(matching.canHandleCalls).toBe(0);
  });

  it('hands the chosen handler the very input it was given, the pipeline\'s operation with it', async () => {
    const seen: HttpHandlerInput[] = [];
    const recording = new (class extends PathHandler {
      public override async handle(given: HttpHandlerInput): Promise<void> {
        seen.push(given);
      }
    })('/x');
    const given = input('/x');
    await new FirstMatchHandler([ plain, recording ]).handleSafe(given);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(given);
    expect((seen[0] as OperationInput).operation.target.path).toBe('/x');
  });

  it('refuses with NOT_HANDLED when no handler takes the request', async () => {
    await expect(handler.canHandle(input('/elsewhere'))).rejects.toBe(NOT_HANDLED);
    expect(matching.canHandleCalls).toBe(0);
  });

  it('takes the members of a nested FirstMatchHandler into its own list, in their place', async () => {
    const last = new PathHandler('/inbox');
    const outer = new FirstMatchHandler([ handler, last ]);
    await outer.handleSafe(input('/inbox'));
    await outer.handleSafe(input('/webhooks/x'));
    // The nested list's member wins over the later one: the order of the lists is kept.
    expect(matching.served).toEqual([ '/inbox' ]);
    expect(last.served).toEqual([]);
    expect(plain.served).toEqual([ '/webhooks/x' ]);
    // No nested dispatcher: the outer one asks the matcher itself, synchronously, as its own member.
    const spied = jest.spyOn(handler, 'canHandle');
    await outer.handleSafe(input('/inbox'));
    expect(spied).not.toHaveBeenCalled();
  });
});

describe('FirstMatchHandler over the discovery handlers (as config/parts/activitypub/components/discovery.json)', (): void => {
  const BASE = 'http://localhost:3000/';
  const store = new InMemoryAccountStoreFake(BASE, [ 'alice' ]);
  const discovery = new FirstMatchHandler([
    new WebFingerHandler(BASE, store),
    new NodeInfoHandler(BASE, store),
    new HostMetaHandler(BASE),
  ]);

  it('routes each path to its handler and refuses the rest with NOT_HANDLED', async(): Promise<void> => {
    const webfinger = `/.well-known/webfinger?resource=${encodeURIComponent('acct:alice@localhost:3000')}`;
    expect((await get(discovery, webfinger)).json().subject).toBe('acct:alice@localhost:3000');
    expect((await get(discovery, '/.well-known/nodeinfo')).json().links).toHaveLength(1);
    expect(((await get(discovery, '/nodeinfo/2.1')).json().usage as { users: { total: number }}).users.total).toBe(1);
    expect((await get(discovery, '/.well-known/host-meta')).body).toContain('rel="lrdd"');
    expect((await get(discovery, '/.well-known/host-meta.json')).json().links).toHaveLength(1);
    await expect(call(discovery, '/actors/alice')).resolves.toBeUndefined();
    await expect(call(discovery, '/.well-known/solid')).resolves.toBeUndefined();
  });
});
