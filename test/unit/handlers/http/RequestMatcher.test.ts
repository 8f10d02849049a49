import { isRequestMatcher } from '../../../../src/handlers/http/RequestMatcher';

describe('RequestMatcher', (): void => {
  describe('isRequestMatcher', (): void => {
    it('tells a handler with an accepts function from one without', (): void => {
      expect(isRequestMatcher({ accepts: (): boolean => true })).toBe(true);
      expect(isRequestMatcher({})).toBe(false);
      expect(isRequestMatcher({ accepts: true })).toBe(false);
    });
  });
});
