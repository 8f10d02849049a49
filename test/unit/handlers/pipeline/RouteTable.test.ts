import { PublicAccess } from '../../../../src/handlers/access/PublicAccess';
import { Route } from '../../../../src/handlers/pipeline/Route';
import { RouteTable } from '../../../../src/handlers/pipeline/RouteTable';

describe('RouteTable', () => {
  const access = new PublicAccess();
  const inbox = new Route('inbox', [ '/actors/:user/inbox', '/inbox' ], access, undefined, [ 'POST' ]);
  const collection = new Route('collection', [ '/actors/:user/:collection' ], access);
  const object = new Route('object', [ '/objects/:id' ], access);
  const everything = new Route('everything', [ '/*' ], access);

  it('finds the most specific template whatever the order of the routes', () => {
    for (const routes of [ [ inbox, collection, object, everything ], [ everything, object, collection, inbox ] ]) {
      const table = new RouteTable('https://pod.example/', routes);
      expect(table.find('POST', '/actors/alice/inbox')).toEqual({ route: inbox, template: '/actors/:user/inbox', params: { user: 'alice' }});
      expect(table.find('GET', '/actors/alice/inbox')).toEqual({ route: collection, template: '/actors/:user/:collection', params: { user: 'alice', collection: 'inbox' }});
      expect(table.find('DELETE', '/objects/abc')?.route).toBe(object);
      expect(table.find('DELETE', '/objects/abc/deeper')?.route).toBe(everything);
      expect(table.find('POST', '/inbox')?.route).toBe(inbox);
    }
  });

  it('answers undefined where no route serves the method and path', () => {
    const table = new RouteTable('https://pod.example/', [ inbox ]);
    expect(table.find('GET', '/inbox')).toBeUndefined();
    expect(table.find('POST', '/somewhere')).toBeUndefined();
  });

  it('serves templates under the base URL\'s path', () => {
    const table = new RouteTable('https://pod.example/fedpod/', [ object ]);
    expect(table.find('GET', '/fedpod/objects/x')?.params).toEqual({ id: 'x' });
    expect(table.find('GET', '/objects/x')).toBeUndefined();
  });

  it('refuses a template registered twice for one method at start-up', () => {
    expect(() => new RouteTable('https://pod.example/', [ object, new Route('again', [ '/objects/:id' ], access) ]))
      .toThrow(/Route again: \/objects\/:id cannot be added/u);
  });
});
