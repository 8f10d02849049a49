import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HttpHandlerInput, HttpRequest } from '@solid/community-server';
import { EqualReadWriteLocker, HttpHandler, MemoryResourceLocker, RdfToQuadConverter } from '@solid/community-server';
import type { LdpWriteHandlerOptions } from '../../../../src/handlers/ldp/LdpWriteHandlerOptions';
import type { Agent } from '../../../../src/handlers/http/Agent';
import type { Operation } from '../../../../src/handlers/http/Operation';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import { RdfOrFileConverter } from '../../../../src/plugins/ldp/RdfOrFileConverter';
import type { AccessMode, WebAclAuthorizer } from '../../../../src/plugins/ldp/WebAclAuthorizer';
import type { ResourceChangeListener } from '../../../../src/storage/ResourceChangeListener';
import { ResourceFiles } from '../../../../src/storage/ResourceFiles';
import { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';
import { Skolemizer } from '../../../../src/storage/Skolemizer';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';
import type { HandlerServer } from './handlerServer';
import { serveHandler } from './handlerServer';

export const BASE = 'https://pod.example/';
export const DOCS = `${BASE}docs/`;
export const ALICE = 'https://alice.example/profile#me';

/** In the place of CSS's LDP handler: answers 299 and counts what it was left. */
export class CssStandIn extends HttpHandler {
  public readonly left: string[] = [];

  public async handle({ request, response }: HttpHandlerInput): Promise<void> {
    this.left.push(`${request.method} ${request.url}`);
    request.resume();
    response.writeHead(299).end();
  }
}

/** The change notifications the store gave, as `created <iri>`, `updated <iri>`, `deleted <iri>`. */
export class RecordedChanges implements ResourceChangeListener {
  public readonly events: string[] = [];

  public created(_container: string, iri: string): void {
    this.events.push(`created ${iri}`);
  }

  public updated(iri: string): void {
    this.events.push(`updated ${iri}`);
  }

  public deleted(_container: string | undefined, iri: string): void {
    this.events.push(`deleted ${iri}`);
  }
}

/** WebACL decisions in a test: the modes each WebID has on each resource (nothing unless listed). */
export class FixedAuthorizer {
  public readonly modes = new Map<string, AccessMode[]>();

  public async permissions(resource: string, agent: string | undefined): Promise<{ user: Set<AccessMode>; public: Set<AccessMode>; acl: string }> {
    return { user: new Set(this.modes.get(`${agent} ${resource}`) ?? []), public: new Set(), acl: `${resource}.acl` };
  }
}

export interface WriteHandlerRig {
  graphs: EmbeddedGraphs;
  options: LdpWriteHandlerOptions;
  css: CssStandIn;
  changes: RecordedChanges;
  authorizer: FixedAuthorizer;
  /** The agent the pipeline authenticated for the next requests. */
  agent: Agent;
  serve: (handler: HttpHandler) => Promise<HandlerServer>;
  stop: () => Promise<void>;
}

/**
 * An embedded store with the containers `docs/` and `docs/sub/`, the options the write handlers take
 * (a store that records its change notifications, a WebACL stand-in) and a server for one handler.
 */
export async function startWriteHandlerRig(): Promise<WriteHandlerRig> {
  const graphs = await startEmbeddedGraphs(BASE);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fedpod-ldp-write-'));
  await graphs.put(DOCS, []);
  await graphs.put(`${DOCS}sub/`, [], DOCS);
  const changes = new RecordedChanges();
  const css = new CssStandIn();
  const authorizer = new FixedAuthorizer();
  const servers: HandlerServer[] = [];
  const rig: WriteHandlerRig = {
    graphs,
    css,
    changes,
    authorizer,
    agent: { webId: ALICE },
    options: {
      baseUrl: BASE,
      store: new ResourceGraphStore(graphs.client, new Skolemizer(BASE), changes),
      files: new ResourceFiles(dataDir),
      fallback: css,
      maxBodyBytes: 2000,
      locker: new EqualReadWriteLocker(new MemoryResourceLocker()),
      converter: new RdfOrFileConverter(new RdfToQuadConverter(), new JsonLdParser(BASE, new DocumentLoader(BASE))),
      authorizer: authorizer as unknown as WebAclAuthorizer,
    },
    serve: async(handler): Promise<HandlerServer> => {
      const server = await serveHandler(handler, (_request: HttpRequest, operation: Operation): void => operation.authenticated(rig.agent));
      servers.push(server);
      return server;
    },
    stop: async(): Promise<void> => {
      await Promise.all(servers.map(async(server): Promise<void> => server.close()));
      await graphs.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return rig;
}
