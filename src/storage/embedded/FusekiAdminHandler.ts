import type { BasicAuthGuard } from './BasicAuthGuard';
import type { DatasetDescriptor, DatasetType } from './DatasetRegistry';
import { DatasetRegistry } from './DatasetRegistry';
import { FedpodHttpError } from '../../util/HttpErrors';
import type { RequestBodyReader } from './RequestBodyReader';
import type { ResponseSender } from './ResponseSender';
import type { StoreRequestContext } from './StoreRequestContext';

const DATASETS = '/$/datasets';

/**
 * The subset of Fuseki's admin API ("/$/...") that deployment scripts use to
 * create, list and delete datasets, answering in Fuseki's JSON shapes so existing
 * tooling works unchanged. Assembler (Turtle) bodies are refused with 400: only
 * the dbName/dbType form is supported.
 */
export class FusekiAdminHandler {
  public constructor(
    private readonly registry: DatasetRegistry,
    private readonly guard: BasicAuthGuard,
    private readonly bodyReader: RequestBodyReader,
    private readonly sender: ResponseSender,
  ) {}

  public async handle(context: StoreRequestContext): Promise<void> {
    const { path, request, response } = context;
    const method = request.method ?? 'GET';
    if (path === DATASETS || path === `${DATASETS}/`) {
      if (method === 'GET' || method === 'HEAD') {
        this.sender.json(response, 200, { datasets: this.registry.list().map((descriptor): object => this.describe(descriptor)) });
        return;
      }
      if (method === 'POST') {
        await this.create(context);
        return;
      }
      throw new FedpodHttpError(405, 'method_not_allowed', `Method ${method} not allowed on ${DATASETS}`, { allow: 'GET, HEAD, POST' });
    }
    if (path.startsWith(`${DATASETS}/`)) {
      const name = this.nameFrom(path.slice(DATASETS.length + 1));
      if (method === 'GET' || method === 'HEAD') {
        const descriptor = this.registry.describe(name);
        if (!descriptor) {
          throw new FedpodHttpError(404, 'not_found', `No such dataset: /${name}`);
        }
        this.sender.json(response, 200, this.describe(descriptor));
        return;
      }
      if (method === 'DELETE') {
        this.requireWrite(context);
        if (!await this.registry.delete(name)) {
          throw new FedpodHttpError(404, 'not_found', `No such dataset: /${name}`);
        }
        this.sender.empty(response, 200);
        return;
      }
      throw new FedpodHttpError(405, 'method_not_allowed', `Method ${method} not allowed on a dataset`, { allow: 'GET, HEAD, DELETE' });
    }
    if (path === '/$/server' && (method === 'GET' || method === 'HEAD')) {
      this.sender.json(response, 200, {
        version: 'fedpod-embedded-oxigraph',
        datasets: this.registry.list().map((descriptor): object => this.describe(descriptor)),
      });
      return;
    }
    throw new FedpodHttpError(404, 'not_found', `Not found: ${path}`);
  }

  private async create(context: StoreRequestContext): Promise<void> {
    this.requireWrite(context);
    const contentType = (context.request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const body = await this.bodyReader.readText(context.request);
    if (contentType !== '' && contentType !== 'application/x-www-form-urlencoded') {
      throw new FedpodHttpError(400, 'bad_request', 'Only the dbName/dbType form is supported; assembler configurations are not');
    }
    // Fuseki also takes the parameters in the query string.
    const params = new URLSearchParams(body.length > 0 ? body : context.search);
    const rawName = params.get('dbName');
    if (!rawName) {
      throw new FedpodHttpError(400, 'bad_request', 'Missing dbName');
    }
    const name = rawName.startsWith('/') ? rawName.slice(1) : rawName;
    if (!DatasetRegistry.isValidName(name)) {
      throw new FedpodHttpError(400, 'bad_request', `Invalid dataset name "${rawName}" (letters, digits, "_", "-", "." only)`);
    }
    const type = this.typeFrom(params.get('dbType'));
    if (!await this.registry.create(name, type)) {
      throw new FedpodHttpError(409, 'conflict', `Dataset /${name} already exists`);
    }
    this.sender.empty(context.response, 200);
  }

  /** tdb/tdb1/tdb2 are all durable here; absent means durable too (the safe default). */
  private typeFrom(dbType: string | null): DatasetType {
    switch ((dbType ?? 'tdb2').toLowerCase()) {
      case 'tdb':
      case 'tdb1':
      case 'tdb2':
        return 'tdb2';
      case 'mem':
        return 'mem';
      default:
        throw new FedpodHttpError(400, 'bad_request', `Unsupported dbType "${String(dbType)}" (use tdb2 or mem)`);
    }
  }

  private nameFrom(segment: string): string {
    let name = segment.endsWith('/') ? segment.slice(0, -1) : segment;
    try {
      name = decodeURIComponent(name);
    } catch {
      throw new FedpodHttpError(400, 'bad_request', 'Malformed dataset name');
    }
    return name.startsWith('/') ? name.slice(1) : name;
  }

  private requireWrite(context: StoreRequestContext): void {
    if (!this.guard.permits(context.auth, true)) {
      throw new FedpodHttpError(401, 'unauthorized', 'Unauthorized');
    }
  }

  /** Fuseki's dataset description. */
  private describe(descriptor: DatasetDescriptor): object {
    return {
      'ds.name': `/${descriptor.name}`,
      'ds.state': true,
      'ds.type': descriptor.type,
      'ds.services': [
        { 'srv.type': 'query', 'srv.description': 'SPARQL Query', 'srv.endpoints': [ 'query', 'sparql', '' ]},
        { 'srv.type': 'update', 'srv.description': 'SPARQL Update', 'srv.endpoints': [ 'update', '' ]},
        { 'srv.type': 'gsp-rw', 'srv.description': 'Graph Store Protocol', 'srv.endpoints': [ 'data', '' ]},
        { 'srv.type': 'gsp-r', 'srv.description': 'Graph Store Protocol (Read)', 'srv.endpoints': [ 'get' ]},
      ],
    };
  }
}
