import type { Agent } from '../http/Agent';

/** Decides whether an agent may read a resource, as a GET of it would be judged. */
export interface ReadDecider {
  mayRead: (iri: string, agent: Agent) => Promise<boolean>;
}

/**
 * Where components that judge reads outside a request (notification subscriptions) find the
 * pipeline's rules. The pipeline attaches itself at construction: it cannot be handed to them
 * directly, since they are reached from its own routes (a cycle Components.js refuses).
 */
export class ReadDecisions implements ReadDecider {
  private decider?: ReadDecider;

  public attach(decider: ReadDecider): void {
    this.decider = decider;
  }

  public async mayRead(iri: string, agent: Agent): Promise<boolean> {
    if (!this.decider) {
      throw new Error('No request pipeline is attached to decide reads.');
    }
    return this.decider.mayRead(iri, agent);
  }
}
