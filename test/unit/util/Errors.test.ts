import { errnoOf, messageOf, statusOf, withoutStackFrames } from '../../../src/util/Errors';
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

  describe('withoutStackFrames', (): void => {
    it('makes errors without frames while the work runs, and with them again after', async(): Promise<void> => {
      const inside = await withoutStackFrames(async(): Promise<Error> => {
        await Promise.resolve();
        return new Error('made inside');
      });
      expect(inside.stack).toBe('Error: made inside');
      expect(new Error('made after').stack).toContain('\n    at ');
    });

    it('puts the limit back when the work fails', async(): Promise<void> => {
      const limit = Error.stackTraceLimit;
      await expect(withoutStackFrames(async(): Promise<never> => {
        throw new Error('failed inside');
      })).rejects.toThrow('failed inside');
      expect(Error.stackTraceLimit).toBe(limit);
    });
  });
});
