import type { DatasetRegistry } from './DatasetRegistry';
import type { StoreAnswer, StoreOperation } from './InProcessStores';
import type { ResponseSender } from './ResponseSender';
import type { SparqlProtocolHandler } from './SparqlProtocolHandler';

const NO_PARAMS = new URLSearchParams();

/**
 * Runs the operations a client of this process sends without HTTP (InProcessStores), with the
 * answers the HTTP face would give: the same query formats, statuses and error texts. No
 * credentials are checked: only code of this process can send them. close() waits for the
 * operations under way, after which new ones get 503.
 */
export class DirectOperations {
  private readonly running = new Set<Promise<StoreAnswer>>();
  private closed = false;

  public constructor(
    private readonly registry: DatasetRegistry,
    private readonly sparql: SparqlProtocolHandler,
    private readonly sender: ResponseSender,
  ) {}

  public async run(operation: StoreOperation): Promise<StoreAnswer> {
    if (this.closed) {
      return { status: 503, contentType: 'text/plain; charset=utf-8', body: 'Error 503: store is stopping\n' };
    }
    const answer = this.answer(operation);
    this.running.add(answer);
    try {
      return await answer;
    } finally {
      this.running.delete(answer);
    }
  }

  public async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([ ...this.running ]);
  }

  private async answer(operation: StoreOperation): Promise<StoreAnswer> {
    try {
      const dataset = this.registry.get(operation.dataset);
      if (!dataset) {
        return this.text(404, `Error 404: No such dataset: /${operation.dataset}`);
      }
      if (operation.kind === 'update') {
        await dataset.update(operation.text);
        return { status: 204, body: '' };
      }
      const { contentType, body } = this.sparql.answer(dataset, operation.text, operation.accept, NO_PARAMS);
      return { status: 200, contentType, body };
    } catch (error: unknown) {
      const { status, message } = this.sender.errorAnswer(error);
      return this.text(status, message);
    }
  }

  private text(status: number, message: string): StoreAnswer {
    return { status, contentType: 'text/plain; charset=utf-8', body: `${message}\n` };
  }
}
