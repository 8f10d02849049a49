import type { ResourceIdentifier, ResourceStore } from '@solid/community-server';
import { StoreInContainerAction } from '../../../../../src/plugins/webhooks/actions/StoreInContainerAction';
import type { WebhookActionInput } from '../../../../../src/plugins/webhooks/WebhookAction';
import { RDF_JSON, WEBHOOK_TERMS } from '../../../../../src/plugins/webhooks/WebhookVocabulary';
import { documentMetadata } from '../../../../../src/storage/ResourceGraphs';
import { RDF_TYPE } from '../../../../../src/storage/StoreVocabulary';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../../support/embeddedGraphs';

const BASE = 'https://pod.example/';

/**
 * CSS's resource store as far as the action uses it, over the same graphs: a container exists when
 * its metadata does, and setting one writes its metadata. `failures` makes the next creations throw.
 */
class ContainerStore {
  public creations = 0;
  public failures = 0;
  /** A creation that throws after another process made the container. */
  public raceWith?: () => Promise<void>;
  public constructor(private readonly graphs: EmbeddedGraphs) {}

  public view(): ResourceStore {
    return {
      hasResource: async(identifier: ResourceIdentifier): Promise<boolean> => this.graphs.resources.exists(identifier.path),
      setRepresentation: async(identifier: ResourceIdentifier): Promise<unknown> => {
        this.creations += 1;
        if (this.raceWith) {
          await this.raceWith();
          throw new Error('already made');
        }
        if (this.failures > 0) {
          this.failures -= 1;
          throw new Error('store refused');
        }
        await this.graphs.resources.write(identifier.path, undefined, documentMetadata(identifier.path, new Date()));
        return [];
      },
    } as unknown as ResourceStore;
  }
}

function input(username: string, jobId: string, data: unknown): WebhookActionInput {
  return { user: `${BASE}actors/${username}`, username, data, jobId, receivedAt: '2026-06-01T10:00:00.000Z' };
}

describe('StoreInContainerAction (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let counter = 0;
  let username: string;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach((): void => {
    counter += 1;
    username = `user${counter}`;
  });

  /** The payload resource's value for `predicate`. */
  async function valueOf(iri: string, predicate: string): Promise<string | undefined> {
    return (await graphs.resources.readData(iri)).find((entry): boolean => entry.subject.value === iri &&
      entry.predicate.value === predicate)?.object.value;
  }

  it('keeps the posted JSON as a payload named after the job, in the user\'s container made on first use', async(): Promise<void> => {
    const containers = new ContainerStore(graphs);
    const action = new StoreInContainerAction(BASE, graphs.resources, containers.view());
    expect(action.name).toBe('store-in-container');
    const container = `${BASE}webhook-data/${username}/`;
    expect(action.containerOf(username)).toBe(container);
    await action.run(input(username, 'wh-1', { temperature: 21.5, tags: [ 'a' ]}));
    const iri = `${container}wh-1`;
    expect(await graphs.resources.children(container)).toEqual([ iri ]);
    expect(await valueOf(iri, RDF_TYPE)).toBe(WEBHOOK_TERMS.WebhookPayload);
    expect(await valueOf(iri, WEBHOOK_TERMS.user)).toBe(`${BASE}actors/${username}`);
    expect(await valueOf(iri, WEBHOOK_TERMS.job)).toBe('wh-1');
    expect(new Date((await valueOf(iri, WEBHOOK_TERMS.received))!).toISOString()).toBe('2026-06-01T10:00:00.000Z');
    const data = (await graphs.resources.readData(iri)).find((entry): boolean => entry.predicate.value === WEBHOOK_TERMS.data)!;
    expect(JSON.parse(data.object.value)).toEqual({ temperature: 21.5, tags: [ 'a' ]});
    expect((data.object as { datatype: { value: string } }).datatype.value).toBe(RDF_JSON);
    expect(await graphs.resources.exists(container)).toBe(true);
    expect(containers.creations).toBe(1);
  });

  it('writes one resource for a job run twice, and makes the container once for many jobs', async(): Promise<void> => {
    const containers = new ContainerStore(graphs);
    const action = new StoreInContainerAction(BASE, graphs.resources, containers.view());
    await Promise.all([ 'wh-a', 'wh-b', 'wh-c' ].map(async(jobId): Promise<void> => action.run(input(username, jobId, jobId))));
    await action.run(input(username, 'wh-a', 'again'));
    const container = action.containerOf(username);
    expect((await graphs.resources.children(container)).sort()).toEqual([ 'wh-a', 'wh-b', 'wh-c' ].map((id): string => `${container}${id}`));
    const data = (await graphs.resources.readData(`${container}wh-a`)).filter((entry): boolean => entry.predicate.value === WEBHOOK_TERMS.data);
    expect(data.map((entry): unknown => JSON.parse(entry.object.value))).toEqual([ 'again' ]);
    expect(containers.creations).toBe(1);
  });

  it.each([
    [ 'null', null, null ],
    [ 'a number', 7, 7 ],
    [ 'an array', [ 1, 'two' ], [ 1, 'two' ]],
    [ 'nothing at all', undefined, null ],
  ])('keeps %s as posted', async(what, posted, kept): Promise<void> => {
    const action = new StoreInContainerAction(BASE, graphs.resources, new ContainerStore(graphs).view());
    await action.run(input(username, 'wh-x', posted));
    const iri = `${action.containerOf(username)}wh-x`;
    expect(JSON.parse((await valueOf(iri, WEBHOOK_TERMS.data))!)).toEqual(kept);
  });

  it('does not make a container that exists, and takes one another process made meanwhile', async(): Promise<void> => {
    const containers = new ContainerStore(graphs);
    const container = `${BASE}webhook-data/${username}/`;
    await graphs.resources.write(container, undefined, documentMetadata(container, new Date()));
    await new StoreInContainerAction(BASE, graphs.resources, containers.view()).run(input(username, 'wh-1', 1));
    expect(containers.creations).toBe(0);

    const racing = new ContainerStore(graphs);
    const other = `${BASE}webhook-data/${username}-raced/`;
    racing.raceWith = async(): Promise<void> => graphs.resources.write(other, undefined, documentMetadata(other, new Date()));
    await new StoreInContainerAction(BASE, graphs.resources, racing.view()).run(input(`${username}-raced`, 'wh-1', 1));
    expect(await graphs.resources.children(other)).toEqual([ `${other}wh-1` ]);
  });

  it('fails the job when the container cannot be made, and tries again on the next job', async(): Promise<void> => {
    const containers = new ContainerStore(graphs);
    containers.failures = 1;
    const action = new StoreInContainerAction(BASE, graphs.resources, containers.view());
    await expect(action.run(input(username, 'wh-1', 1))).rejects.toThrow('store refused');
    expect(await graphs.resources.children(action.containerOf(username))).toEqual([]);
    await action.run(input(username, 'wh-2', 2));
    expect(await graphs.resources.children(action.containerOf(username))).toEqual([ `${action.containerOf(username)}wh-2` ]);
    expect(containers.creations).toBe(2);
  });

  it('puts the data root where configured, and escapes names into one path segment', async(): Promise<void> => {
    const action = new StoreInContainerAction('https://pod.example', graphs.resources, new ContainerStore(graphs).view(), 'hooks/in', 'keep');
    expect(action.name).toBe('keep');
    expect(action.containerOf('a b')).toBe('https://pod.example/hooks/in/a%20b/');
    await action.run(input(username, 'wh/1?x', 'odd'));
    expect(await graphs.resources.children(action.containerOf(username))).toEqual([ `${action.containerOf(username)}wh%2F1%3Fx` ]);
  });
});
