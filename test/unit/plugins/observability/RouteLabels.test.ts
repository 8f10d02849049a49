import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { RouteLabels } from '../../../../src/plugins/observability/RouteLabels';

describe('RouteLabels', (): void => {
  it('keeps the matched route template per request', (): void => {
    const first = new IncomingMessage(new Socket());
    const second = new IncomingMessage(new Socket());
    expect(RouteLabels.get(first)).toBeUndefined();
    RouteLabels.set(first, '/objects/:id');
    RouteLabels.set(second, '/webhooks/:secret');
    expect(RouteLabels.get(first)).toBe('/objects/:id');
    expect(RouteLabels.get(second)).toBe('/webhooks/:secret');
    RouteLabels.set(first, '/actors/:user');
    expect(RouteLabels.get(first)).toBe('/actors/:user');
  });
});
