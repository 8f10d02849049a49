import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CounterWatch } from '../../../../src/plugins/cluster/CounterWatch';
import { FileChangeCounter } from '../../../../src/plugins/cluster/FileChangeCounter';

describe('CounterWatch (on a FileChangeCounter)', (): void => {
  let dataDir: string;

  beforeEach((): void => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-counter-watch-'));
  });

  afterEach((): void => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says the counter moved on the first read, then only when another watcher bumped it', async(): Promise<void> => {
    const here = new CounterWatch(new FileChangeCounter(dataDir, 'things'));
    const there = new CounterWatch(new FileChangeCounter(dataDir, 'things'));
    expect(await here.moved()).toBe(true);
    expect(here.value).toBe('0');
    expect(await here.moved()).toBe(false);
    await there.bump();
    expect(await here.moved()).toBe(true);
    expect(await here.moved()).toBe(false);
    // Its own bump forgets the value: the next read moves.
    await here.bump();
    expect(here.value).toBeUndefined();
    expect(await here.moved()).toBe(true);
  });

  it('reads once for the callers that ask while a read is under way', async(): Promise<void> => {
    const counter = new FileChangeCounter(dataDir, 'things');
    const read = jest.spyOn(counter, 'read');
    const watch = new CounterWatch(counter);
    // The first to see the new value is told; the cache it drops is the others' too.
    expect(await Promise.all([ watch.moved(), watch.moved(), watch.moved() ])).toEqual([ true, false, false ]);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('never moves without a counter', async(): Promise<void> => {
    const watch = new CounterWatch();
    expect(await watch.moved()).toBe(false);
    await watch.bump();
    expect(await watch.moved()).toBe(false);
  });

  it('counts in generation every change it learns of: a move read, a bump, a change starting here', async(): Promise<void> => {
    const here = new CounterWatch(new FileChangeCounter(dataDir, 'things'));
    const there = new CounterWatch(new FileChangeCounter(dataDir, 'things'));
    const start = here.generation;
    await here.moved();
    expect(here.generation).toBe(start + 1);
    await here.moved();
    expect(here.generation).toBe(start + 1);
    await there.bump();
    await here.moved();
    expect(here.generation).toBe(start + 2);
    here.changing();
    expect(here.generation).toBe(start + 3);
    // A bump counts before the counter is written: reads under way meanwhile are stale.
    const bumping = here.bump();
    expect(here.generation).toBe(start + 4);
    await bumping;

    const alone = new CounterWatch();
    await alone.bump();
    alone.changing();
    expect(await alone.moved()).toBe(false);
    expect(alone.generation).toBe(2);
  });
});
