import { Initializer } from '@solid/community-server';
import type { AccountImports } from './AccountImports';

/**
 * At start-up: runs the imports' queue, so imports accepted before a stop or a crash go on where
 * they stopped. The queue factory closes the queue at shutdown.
 */
export class AccountImportWorker extends Initializer {
  public constructor(private readonly imports: AccountImports, private readonly concurrency = 2) {
    super();
  }

  public async handle(): Promise<void> {
    this.imports.queue.process(async(job): Promise<void> => this.imports.run(job.data.id), this.concurrency);
  }
}
