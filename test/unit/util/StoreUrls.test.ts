import { storeUrlsOf } from '../../../src/util/StoreUrls';

describe('StoreUrls', (): void => {
  describe('storeUrlsOf', (): void => {
    it('uses a /sparql endpoint for queries and updates, with no admin URL', (): void => {
      expect(storeUrlsOf('http://virtuoso:8890/sparql', 'ignored')).toEqual({
        queryUrl: 'http://virtuoso:8890/sparql', updateUrl: 'http://virtuoso:8890/sparql', adminUrl: '' });
      expect(storeUrlsOf('http://virtuoso:8890/sparql/', 'ignored').queryUrl).toBe('http://virtuoso:8890/sparql/');
    });

    it('reads anything else as a Fuseki-style base, the dataset\'s /query and /update under it', (): void => {
      const expected = { queryUrl: 'http://fuseki:3030/fedpod/query', updateUrl: 'http://fuseki:3030/fedpod/update', adminUrl: 'http://fuseki:3030/' };
      expect(storeUrlsOf('http://fuseki:3030', 'fedpod')).toEqual(expected);
      expect(storeUrlsOf('http://fuseki:3030/', 'fedpod')).toEqual(expected);
      expect(storeUrlsOf('http://host/store/sparqlish', 'ds')).toEqual({ queryUrl: 'http://host/store/sparqlish/ds/query',
        updateUrl: 'http://host/store/sparqlish/ds/update', adminUrl: 'http://host/store/sparqlish/' });
    });

    it('refuses an endpoint that is not a URL', (): void => {
      expect((): unknown => storeUrlsOf('/sparql', 'ds')).toThrow();
      expect((): unknown => storeUrlsOf('', 'ds')).toThrow();
    });
  });
});
