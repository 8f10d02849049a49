import type { WebhookAction } from './WebhookAction';

/** The configured webhook actions, by name. Two actions with one name are a configuration error. */
export class WebhookActionRegistry {
  private readonly actions = new Map<string, WebhookAction>();

  /**
   * @param actions - The actions contributed by config.
   */
  public constructor(actions: WebhookAction[] = []) {
    for (const action of actions) {
      if (!/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/u.test(action.name)) {
        throw new Error(`Invalid webhook action name ${JSON.stringify(action.name)}`);
      }
      if (this.actions.has(action.name)) {
        throw new Error(`Two webhook actions are named ${action.name}`);
      }
      this.actions.set(action.name, action);
    }
  }

  public get(name: string): WebhookAction | undefined {
    return this.actions.get(name);
  }

  public has(name: string): boolean {
    return this.actions.has(name);
  }

  /** Names of every registered action, sorted. */
  public get names(): string[] {
    return [ ...this.actions.keys() ].sort();
  }
}
