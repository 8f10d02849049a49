import type { Server } from 'node:http';
import type { WebSocketHandler } from '@solid/community-server';
import { createErrorMessage, getLoggerFor, guardStream, ServerConfigurator } from '@solid/community-server';
import { WebSocketServer } from 'ws';

/**
 * CSS's WebSocketServerConfigurator, with each socket paused until its handler has taken it: a
 * client may send its first messages (the Mastodon streaming API's subscriptions) as soon as the
 * socket is open, while the WebSocket handlers are still finding which of them it is for (one reads
 * its channel storage) and no listener would get them. Every upgrade goes to `handler`.
 */
export class PausingWebSocketServerConfigurator extends ServerConfigurator {
  protected readonly logger = getLoggerFor(this);

  public constructor(private readonly handler: WebSocketHandler) {
    super();
  }

  public async handle(server: Server): Promise<void> {
    const webSocketServer = new WebSocketServer({ noServer: true });
    server.on('upgrade', (upgradeRequest, socket, head): void => {
      webSocketServer.handleUpgrade(upgradeRequest, socket, head, (webSocket): void => {
        webSocket.pause();
        this.handler.handleSafe({ upgradeRequest: guardStream(upgradeRequest), webSocket }).catch((error: unknown): void => {
          this.logger.error(`Something went wrong handling a WebSocket connection: ${createErrorMessage(error)}`);
          webSocket.send(`There was an error opening this WebSocket: ${createErrorMessage(error)}`);
          webSocket.close();
        }).finally((): void => {
          webSocket.resume();
        });
      });
    });
  }
}
