import { OperatorFormKey } from '../../../../src/handlers/moderation/OperatorFormKey';

describe('OperatorFormKey', () => {
  const keys = new OperatorFormKey();

  it('takes the key of the session only', () => {
    const form = new URLSearchParams({ csrf: keys.keyOf('session-a') });
    expect(() => keys.check('session-a', form)).not.toThrow();
    expect(() => keys.check('session-b', form)).toThrow(expect.objectContaining({ statusCode: 403 }));
    expect(() => keys.check('session-a', new URLSearchParams())).toThrow(expect.objectContaining({ statusCode: 403 }));
    expect(keys.field('session-a')).toContain(`value="${keys.keyOf('session-a')}"`);
  });
});
