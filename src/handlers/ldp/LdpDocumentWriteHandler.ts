import type { Conditions, HttpHandler, ReadWriteLocker } from '@solid/community-server';
import type { WebAclAuthorizer } from '../../plugins/ldp/WebAclAuthorizer';
import type { ResourceFiles } from '../../storage/ResourceFiles';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { Operation, OperationInput } from '../http/Operation';
import { conditionsOf, containerOf, documentTarget } from './LdpDocumentWrites';
import { LdpPaths } from './LdpPaths';
import type { LdpWriteHandlerOptions } from './LdpWriteHandlerOptions';

/** What a write did: a new document (201), a changed or removed one (205), or nothing, left to CSS. */
export type DocumentWriteOutcome = 'created' | 'changed' | 'css';

/**
 * The shape Fedpod's writes of one document share: under CSS's lock of the resource, the write
 * decides from the stored state whether it is one it serves; if not, the lock is released and CSS's
 * LDP handler (which takes the lock itself) gets the request, its body unread. CSS's answers: 201
 * with Location for a new document, 205 otherwise, no body.
 */
export abstract class LdpDocumentWriteHandler extends JsonHttpHandler {
  protected readonly paths: LdpPaths;
  protected readonly store: ResourceGraphs;
  protected readonly files: ResourceFiles;
  protected readonly locker: ReadWriteLocker;
  protected readonly fallback: HttpHandler;
  protected readonly authorizer?: WebAclAuthorizer;
  protected readonly maxBodyBytes: number;

  /** @param options - `fallback` is required here: CSS's LDP handler, for the requests a handler leaves to it. */
  protected constructor(options: LdpWriteHandlerOptions) {
    super();
    if (!options.fallback) {
      throw new Error(`${new.target.name} needs CSS's LDP handler as its fallback.`);
    }
    this.paths = new LdpPaths(options.baseUrl);
    this.store = options.store;
    this.files = options.files;
    this.locker = options.locker;
    this.fallback = options.fallback;
    this.authorizer = options.authorizer;
    this.maxBodyBytes = options.maxBodyBytes ?? 1_048_576;
  }

  protected async serve(input: OperationInput): Promise<void> {
    const { request, response, operation } = input;
    const iri = documentTarget(this.paths, operation.target)!;
    const conditions = await conditionsOf(request);
    const outcome = await this.locker.withWriteLock({ path: iri }, async(): Promise<DocumentWriteOutcome> =>
      this.write(operation, iri, containerOf(iri), conditions));
    if (outcome === 'css') {
      await this.fallback.handleSafe(input);
      return;
    }
    // A DELETE's body, if any, was never read: drop it.
    request.resume();
    if (outcome === 'created') {
      response.writeHead(201, { location: iri, 'content-length': '0' });
    } else {
      response.writeHead(205, { 'content-length': '0' });
    }
    response.end();
  }

  /**
   * The write itself, under the lock, for the request of `operation`: `iri` is the document, `parent` its container, `conditions`
   * the request's preconditions (undefined without). Answers 'css' before reading the body.
   */
  protected abstract write(operation: Operation, iri: string, parent: string, conditions: Conditions | undefined):
  Promise<DocumentWriteOutcome>;
}
