import { redisReconnectDelay } from '../../../src/util/RedisReconnect';

describe('redisReconnectDelay', (): void => {
  it('doubles from 100 ms and stops growing at 2 s', (): void => {
    expect([ 1, 2, 3, 4, 5, 6, 50 ].map(redisReconnectDelay)).toEqual([ 100, 200, 400, 800, 1600, 2000, 2000 ]);
  });

  it('waits the shortest time for a first or a nonsensical attempt number', (): void => {
    expect(redisReconnectDelay(0)).toBe(100);
    expect(redisReconnectDelay(-3)).toBe(100);
  });
});
