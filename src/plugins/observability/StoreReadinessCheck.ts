import type { SparqlClient } from '../../storage/SparqlClient';
import type { ReadinessCheck } from './ReadinessCheck';

/** Ready when the triple store answers a trivial ASK. */
export class StoreReadinessCheck implements ReadinessCheck {
  public readonly applies = true;

  /**
   * @param client - The server's SPARQL client.
   * @param name - Key in the readiness answer.
   */
  public constructor(
    private readonly client: SparqlClient,
    public readonly name = 'store',
  ) {}

  public async check(): Promise<void> {
    await this.client.ask('ASK {}');
  }
}
