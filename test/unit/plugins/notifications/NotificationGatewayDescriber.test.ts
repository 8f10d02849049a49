import { NotificationGatewayDescriber } from '../../../../src/plugins/notifications/NotificationGatewayDescriber';

describe('NotificationGatewayDescriber', (): void => {
  it('names the gateway under the base URL as the storage\'s solid:notificationGateway', async(): Promise<void> => {
    for (const base of [ 'https://pod.example/', 'https://pod.example' ]) {
      const quads = await new NotificationGatewayDescriber(base).handle({ path: 'https://pod.example/pods/alice/' });
      expect(quads.map((entry): string[] => [ entry.subject.value, entry.predicate.value, entry.object.value ])).toEqual([
        [ 'https://pod.example/pods/alice/', 'http://www.w3.org/ns/solid/terms#notificationGateway', 'https://pod.example/.notifications/gateway/' ],
      ]);
    }
  });
});
