import { errnoOf, messageOf, statusOf } from '../../../src/util/Errors';
import { FedpodHttpError } from '../../../src/util/HttpErrors';

describe('Errors', (): void => {
  it('reads the message of an Error, and the string form of anything else thrown', (): void => {
    expect(messageOf(new Error('broken'))).toBe('broken');
    expect(messageOf('plain text')).toBe('plain text');
    expect(messageOf(42)).toBe('42');
    expect(messageOf(undefined)).toBe('undefined');
  });

  it('reads a system error code only when it is a string', (): void => {
    expect(errnoOf(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(errnoOf({ code: 7 })).toBeUndefined();
    expect(errnoOf(new Error('no code'))).toBeUndefined();
    expect(errnoOf(null)).toBeUndefined();
    expect(errnoOf('ENOENT')).toBeUndefined();
  });

  it('reads the status of an HTTP error, and nothing from other values', (): void => {
    expect(statusOf(new FedpodHttpError(409, 'conflict', 'taken'))).toBe(409);
    expect(statusOf({ statusCode: '500' })).toBeUndefined();
    expect(statusOf(new Error('plain'))).toBeUndefined();
    expect(statusOf(undefined)).toBeUndefined();
  });
});
