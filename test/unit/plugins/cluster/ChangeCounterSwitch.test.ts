import type { ChangeCounter } from '../../../../src/plugins/cluster/ChangeCounter';
import { ChangeCounterSwitch } from '../../../../src/plugins/cluster/ChangeCounterSwitch';

function namedCounter(name: string, calls: string[]): ChangeCounter {
  return {
    read: async(): Promise<string> => {
      calls.push(`${name} read`);
      return name;
    },
    bump: async(): Promise<void> => {
      calls.push(`${name} bump`);
    },
  };
}

describe('ChangeCounterSwitch', (): void => {
  it.each([
    [ 'redis://127.0.0.1:6379', 'redis' ],
    [ '', 'file' ],
  ])('with the Redis URL %j uses the %s counter', async(url, expected): Promise<void> => {
    const calls: string[] = [];
    const counter = new ChangeCounterSwitch(url, namedCounter('redis', calls), namedCounter('file', calls));
    expect(await counter.read()).toBe(expected);
    await counter.bump();
    expect(calls).toEqual([ `${expected} read`, `${expected} bump` ]);
  });
});
