import type { StoreQueries } from '../../storage/StoreQueries';
import type { ReadinessCheck } from './ReadinessCheck';

/** Ready when the triple store answers a trivial query. */
export class StoreReadinessCheck implements ReadinessCheck {
  public readonly applies = true;

  /**
   * @param client - The server's store.
   * @param name - Key in the readiness answer.
   */
  public constructor(
    private readonly client: StoreQueries,
    public readonly name = 'store',
  ) {}

  public async check(): Promise<void> {
    await this.client.probe();
  }
}
