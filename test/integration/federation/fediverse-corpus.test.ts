/**
 * Activities captured by other fediverse implementations (test/fixtures/fediverse, each file's source
 * in its SOURCES-*.md), delivered one by one, signed as their software signs, into a user's inbox on
 * a real server. Each must end one of two ways, never silently and never with a 5xx: accepted and
 * then readable in the inbox with its properties, or refused with a 4xx and a JSON reason (at once,
 * or after acceptance as a dead letter with its reason, counted by the queue metrics).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signingHabitOf, startFediverseWorld, type FediverseWorld } from '../../support/fediverse-world';
import { repairIri } from '../../../src/util/Iris';

const CORPUS = path.join(__dirname, '..', '..', 'fixtures', 'fediverse');

interface Fixture { software: string; file: string; text: string }

/** Every activity of the corpus: `<software>/<name>.json` (objects, in `objects/`, are not delivered). */
function corpus(): Fixture[] {
  return fs.readdirSync(CORPUS, { withFileTypes: true }).filter((entry) => entry.isDirectory()).flatMap((folder) =>
    fs.readdirSync(path.join(CORPUS, folder.name)).filter((file) => file.endsWith('.json')).sort().map((file) => ({
      software: folder.name, file, text: fs.readFileSync(path.join(CORPUS, folder.name, file), 'utf8') })));
}

type Json = Record<string, unknown>;
type Outcome = 'stored' | 'refused' | 'dead letter';

/** An id as the server keeps it: ids a store would refuse are repaired (repairIri). */
const idOf = (value: unknown): string | undefined => {
  const id = typeof value === 'string' ? value :
    value && typeof value === 'object' && !Array.isArray(value) && typeof (value as Json).id === 'string' ? (value as Json).id as string : undefined;
  return id === undefined ? undefined : repairIri(id);
};
const firstType = (value: unknown): unknown => Array.isArray(value) ? value[0] : value;

describe('captured activities of other fediverse servers, delivered to an inbox', () => {
  const fixtures = corpus();
  let server: FedpodServer;
  let world: FediverseWorld;
  let alice: { token: string; webId: string };
  const outcomes = new Map<string, Outcome>();
  /** Activity ids already delivered: some captures share an id (one activity, processed once). */
  const delivered = new Set<string>();

  beforeAll(async() => {
    world = await startFediverseWorld();
    server = await startFedpod({ config: 'activitypub', allowPrivateNetwork: true, extraArgs: [ '--metrics' ] });
    const signup = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', email: 'alice@example.com', password: 'correct horse' }) });
    expect(signup.status).toBe(201);
    alice = await signup.json() as { token: string; webId: string };
  });

  afterAll(async() => {
    await server?.stop();
    await world?.close();
    console.log(`fediverse corpus: ${[ ...outcomes.values() ].filter((outcome) => outcome === 'stored').length} stored, ` +
      `${[ ...outcomes.values() ].filter((outcome) => outcome === 'refused').length} refused, ` +
      `${[ ...outcomes.values() ].filter((outcome) => outcome === 'dead letter').length} dead letters, of ${fixtures.length}`);
  });

  async function deadLetters(): Promise<number> {
    const metrics = await (await fetch(`${server.baseUrl}metrics`)).text();
    const line = metrics.split('\n').find((entry) => entry.startsWith('fedpod_queue_dead_letters_total{') && entry.includes('queue="ap-inbox"'));
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  async function inbox(): Promise<Json[]> {
    const answer = await fetch(`${alice.webId}/inbox?page=true`, { headers: { accept: 'application/activity+json',
      authorization: `Bearer ${alice.token}` } });
    expect(answer.status).toBe(200);
    return (await answer.json() as { orderedItems: Json[] }).orderedItems;
  }

  it('holds activities of many implementations', () => {
    expect(new Set(fixtures.map((fixture) => fixture.software.replace(/-x$/u, ''))).size).toBeGreaterThanOrEqual(15);
    expect(fixtures.length).toBeGreaterThanOrEqual(120);
  });

  it.each(corpus().map((fixture): [string, Fixture] => [ `${fixture.software}/${fixture.file}`, fixture ]))('%s', async(name, fixture) => {
    const text = world.rewrite(fixture.text);
    const activity = JSON.parse(text) as Json;
    const actor = idOf(Array.isArray(activity.actor) ? activity.actor[0] : activity.actor);
    expect(actor).toBeDefined();
    const before = await deadLetters();
    const inboxUrl = `${alice.webId}/inbox`;
    const answer = await fetch(inboxUrl, { method: 'POST', body: text,
      headers: world.sign(inboxUrl, text, actor!, signingHabitOf(fixture.software)) });
    expect(answer.status).toBeLessThan(500);
    if (answer.status !== 202) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      const reason = await answer.json() as Json;
      expect(typeof reason.error).toBe('string');
      expect(typeof reason.message).toBe('string');
      outcomes.set(name, 'refused');
      return;
    }
    const { id } = await answer.json() as { id: string };
    const repeated = delivered.has(id);
    delivered.add(id);
    const outcome = await eventually(async() => {
      if ((await inbox()).some((item) => idOf(item) === id)) return 'stored' as const;
      return await deadLetters() > before ? 'dead letter' as const : undefined;
    }, 20_000, 100);
    outcomes.set(name, outcome);
    if (outcome === 'dead letter' || repeated) {
      return;
    }
    // Readable back: its type, its object, and the object's content, warning and tags.
    const item = (await inbox()).find((entry) => idOf(entry) === id)!;
    expect(firstType(item.type)).toBe(firstType(activity.type));
    const sent = activity.object;
    if (sent && typeof sent === 'object' && !Array.isArray(sent) && idOf(sent) && item.object && typeof item.object === 'object') {
      const sentObject = sent as Json;
      const read = item.object as Json;
      expect(idOf(read)).toBe(idOf(sentObject));
      if (typeof sentObject.content === 'string') expect(read.content).toBe(sentObject.content);
      if (typeof sentObject.sensitive === 'boolean') expect(read.sensitive).toBe(sentObject.sensitive);
      const tagTypes = (value: unknown): unknown[] => (Array.isArray(value) ? value : value ? [ value ] : [])
        .map((tag) => firstType((tag as Json).type)).sort();
      if (sentObject.tag) expect(tagTypes(read.tag)).toEqual(tagTypes(sentObject.tag));
    } else if (idOf(sent)) {
      expect(idOf(item.object)).toBe(idOf(sent));
    }
    // A Group's (or any sender's) Announce of an activity from its own server: that activity is received too.
    if (firstType(activity.type) === 'Announce' && sent && typeof sent === 'object' && !Array.isArray(sent) &&
      idOf((sent as Json).actor) && idOf(sent) && new URL(idOf(sent)!).origin === new URL(actor!).origin) {
      const inner = idOf(sent)!;
      const received = await eventually(async() => {
        const answer = await fetch(`${server.baseUrl}remote?id=${encodeURIComponent(inner)}`, { headers: {
          accept: 'application/activity+json', authorization: `Bearer ${alice.token}` } });
        return answer.status === 200 ? await answer.json() as Json : undefined;
      }, 20_000, 100);
      expect(firstType(received.type)).toBe(firstType((sent as Json).type));
    }
  });

  it('stored nearly all of them', () => {
    const stored = [ ...outcomes.values() ].filter((outcome) => outcome === 'stored').length;
    expect(outcomes.size).toBe(fixtures.length);
    expect(stored).toBeGreaterThanOrEqual(Math.floor(fixtures.length * 0.95));
  });
});
