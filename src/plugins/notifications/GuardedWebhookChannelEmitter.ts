import type { NotificationEmitterInput } from '@solid/community-server';
import { getLoggerFor, NotificationEmitter } from '@solid/community-server';
import { SsrfGuard } from '../outbound/SsrfGuard';
import { messageOf } from '../../util/Errors';

/**
 * CSS's WebhookChannel2023 emitter behind the server's outbound guard: a subscriber chooses the URL
 * notifications are POSTed to, so without this anyone who may read a resource could make the server
 * send requests into its own network (the embedded store, a metadata service). Only public addresses
 * are reached unless `--allow-private-network`. The check resolves the host just before CSS's emitter
 * connects; CSS's fetch resolves it again, through the process-wide outbound guard
 * (src/plugins/outbound/ProcessOutboundGuard.ts), so a DNS answer that changed in between is refused
 * too. A refused notification is dropped and logged; the write it announces is not affected.
 */
export class GuardedWebhookChannelEmitter extends NotificationEmitter {
  protected readonly logger = getLoggerFor(this);
  private readonly guard: SsrfGuard;

  /**
   * @param source - CSS's WebhookEmitter.
   * @param allowPrivateNetwork - Let notifications reach loopback and private addresses.
   */
  public constructor(private readonly source: NotificationEmitter, allowPrivateNetwork = false) {
    super();
    this.guard = new SsrfGuard(allowPrivateNetwork);
  }

  public override async canHandle(input: NotificationEmitterInput): Promise<void> {
    await this.source.canHandle(input);
  }

  public async handle(input: NotificationEmitterInput): Promise<void> {
    const target = (input.channel as { sendTo?: unknown }).sendTo;
    try {
      await this.guard.check(String(target));
    } catch (error: unknown) {
      this.logger.warn(`Webhook notification of ${input.channel.id} not sent: ${messageOf(error)}`);
      return;
    }
    await this.source.handle(input);
  }
}
