import type { Agent } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A bound on the keep-alive connections left idle across every host of one or more agents. Node's
 * agent bounds idle sockets per host only; a server that delivers to thousands of hosts and keeps
 * each connection for half a minute would otherwise hold thousands of file descriptors. Past the
 * bound, the connection idle longest is closed.
 */
export class IdleSocketCap {
  /** Idle sockets, the one idle longest first (a Set keeps insertion order). */
  private readonly idle = new Set<Socket>();
  private readonly watched = new WeakSet<Socket>();

  public constructor(private readonly maxIdle: number) {}

  /** Counts the sockets `agent` keeps idle. */
  public watch(agent: Agent): void {
    // Registered after the agent's own listener, which either keeps the socket or destroys it.
    agent.on('free', (socket: Socket): void => this.freed(socket));
  }

  /** A socket was given to a request: it is busy, not idle. */
  public taken(socket: Socket): void {
    this.idle.delete(socket);
  }

  /** How many sockets are idle now. */
  public get size(): number {
    return this.idle.size;
  }

  private freed(socket: Socket): void {
    this.idle.delete(socket);
    if (socket.destroyed) {
      return;
    }
    this.idle.add(socket);
    if (!this.watched.has(socket)) {
      this.watched.add(socket);
      socket.once('close', (): void => {
        this.idle.delete(socket);
      });
    }
    for (const oldest of this.idle) {
      if (this.idle.size <= this.maxIdle) {
        break;
      }
      this.idle.delete(oldest);
      oldest.destroy();
    }
  }
}
