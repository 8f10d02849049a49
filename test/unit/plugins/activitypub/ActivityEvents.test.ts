import { ActivityEvents, type ActivityEvent } from '../../../../src/plugins/activitypub/ActivityEvents';

describe('ActivityEvents', () => {
  const event: ActivityEvent = { activity: { id: 'https://a.example/activities/1', type: 'Like' }, box: 'inbox', usernames: [ 'alice' ]};

  it('tells every listener, without waiting for them', async() => {
    const events = new ActivityEvents();
    const seen: string[] = [];
    let finish!: () => void;
    events.listen(async(received) => {
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      seen.push(`slow ${received.usernames.join()}`);
    });
    events.listen(async(received) => {
      seen.push(`fast ${received.box}`);
    });
    events.emit(event);
    await new Promise((resolve) => setImmediate(resolve));
    // emit returned, and the other listener ran, while the slow one was still at work.
    expect(seen).toEqual([ 'fast inbox' ]);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([ 'fast inbox', 'slow alice' ]);
  });

  it('keeps a failing listener\'s error from the emitter and from the others', async() => {
    const events = new ActivityEvents();
    const seen: string[] = [];
    events.listen(async() => {
      throw new Error('store down');
    });
    events.listen(async() => {
      seen.push('second');
    });
    expect(() => events.emit(event)).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([ 'second' ]);
  });

  it('tells nobody of an activity that reached no local user', async() => {
    const events = new ActivityEvents();
    const listener = jest.fn(async() => undefined);
    events.listen(listener);
    events.emit({ ...event, usernames: []});
    expect(listener).not.toHaveBeenCalled();
  });
});
