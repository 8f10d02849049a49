import type { NotificationChannel, NotificationEmitterInput, Representation } from '@solid/community-server';
import { NotificationEmitter } from '@solid/community-server';
import { GuardedWebhookChannelEmitter } from '../../../../src/plugins/notifications/GuardedWebhookChannelEmitter';

/** Stands for CSS's emitter: records what it was asked to send. */
class RecordingEmitter extends NotificationEmitter {
  public readonly sent: string[] = [];

  public async handle({ channel }: NotificationEmitterInput): Promise<void> {
    this.sent.push((channel as unknown as { sendTo: string }).sendTo);
  }
}

function input(sendTo: string): NotificationEmitterInput {
  const channel = { id: 'https://pod.example/.notifications/WebhookChannel2023/1', sendTo } as unknown as NotificationChannel;
  return { channel, representation: {} as Representation };
}

describe('GuardedWebhookChannelEmitter', (): void => {
  it('drops notifications to loopback and private addresses, and to other schemes', async(): Promise<void> => {
    const source = new RecordingEmitter();
    const emitter = new GuardedWebhookChannelEmitter(source);
    for (const target of [ 'http://127.0.0.1:3030/localData/update', 'http://10.0.0.8/hook', 'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd', 'http://user:pw@93.184.216.34/hook' ]) {
      await emitter.handle(input(target));
    }
    expect(source.sent).toEqual([]);
  });

  it('sends to public addresses, and to private ones when allowed', async(): Promise<void> => {
    const source = new RecordingEmitter();
    await new GuardedWebhookChannelEmitter(source).handle(input('http://93.184.216.34/hook'));
    await new GuardedWebhookChannelEmitter(source, true).handle(input('http://127.0.0.1:9/hook'));
    expect(source.sent).toEqual([ 'http://93.184.216.34/hook', 'http://127.0.0.1:9/hook' ]);
  });
});
