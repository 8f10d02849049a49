import { getLoggerFor, Initializer } from '@solid/community-server';
import { HttpTransport } from './HttpTransport';

const DATASET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/u;

/**
 * Creates the dataset on a Fuseki-style server at start-up when it is missing (the store starts with
 * no dataset). Sends a TDB2 assembler with the union default graph on, so that a plain
 * `SELECT * WHERE { ?s ?p ?o }` finds what Fedpod stores in named graphs; falls back to the
 * form (`dbName`, `dbType`) for servers that take no assembler. Does nothing when `adminUrl` is
 * empty (a plain SPARQL endpoint such as Virtuoso has no admin protocol).
 */
export class StoreDatasetInitializer extends Initializer {
  protected readonly logger = getLoggerFor(this);
  private readonly transport = new HttpTransport(4);

  /**
   * @param adminUrl - Base URL of the Fuseki-style server (ending in /), or empty.
   * @param dataset - Dataset name.
   * @param user - Admin user.
   * @param password - Admin password.
   */
  public constructor(
    private readonly adminUrl: string,
    private readonly dataset: string,
    private readonly user = 'admin',
    private readonly password = 'admin',
  ) {
    super();
  }

  public async handle(): Promise<void> {
    if (!this.adminUrl) {
      return;
    }
    try {
      await this.ensureDataset();
    } finally {
      this.transport.close();
    }
  }

  private async ensureDataset(): Promise<void> {
    if (!DATASET_NAME.test(this.dataset)) {
      throw new Error(`Invalid dataset name ${JSON.stringify(this.dataset)}: use letters, digits, - and _`);
    }
    const base = this.adminUrl.endsWith('/') ? this.adminUrl : `${this.adminUrl}/`;
    const existing = await this.send('GET', `${base}$/datasets/${this.dataset}`);
    if (existing.status === 200) {
      this.logger.info(`Dataset ${this.dataset} exists on the store`);
      return;
    }
    if (existing.status === 401 || existing.status === 403) {
      throw new Error(`The triple store refused the credentials for user ${this.user} (${existing.status})`);
    }
    let created = await this.send('POST', `${base}$/datasets`, this.assembler(), 'text/turtle');
    if (created.status >= 400 && created.status !== 409) {
      // Fuseki 5 (and the embedded store) take no uploaded description: the form is their usual way, not a fault.
      this.logger.info(`The store took no assembler (${created.status}); creating ${this.dataset} by form`);
      created = await this.send('POST', `${base}$/datasets`,
        `dbName=${encodeURIComponent(this.dataset)}&dbType=tdb2`, 'application/x-www-form-urlencoded');
    }
    if (created.status >= 300 && created.status !== 409) {
      throw new Error(`Could not create dataset ${this.dataset}: ${created.status} ${created.body.slice(0, 300)}`);
    }
    this.logger.info(created.status === 409 ?
      `Dataset ${this.dataset} was created meanwhile by another process` :
      `Created dataset ${this.dataset}`);
  }

  private assembler(): string {
    const name = this.dataset;
    return `@prefix fuseki: <http://jena.apache.org/fuseki#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix tdb2: <http://jena.apache.org/2016/tdb#> .
<#service> rdf:type fuseki:Service ;
  fuseki:name "${name}" ;
  fuseki:endpoint [ fuseki:operation fuseki:query ; fuseki:name "query" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:query ; fuseki:name "sparql" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:update ; fuseki:name "update" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:gsp-rw ; fuseki:name "data" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:query ] ;
  fuseki:endpoint [ fuseki:operation fuseki:update ] ;
  fuseki:dataset <#dataset> .
<#dataset> rdf:type tdb2:DatasetTDB2 ;
  tdb2:location "databases/${name}" ;
  tdb2:unionDefaultGraph true .
`;
  }

  private async send(method: 'GET' | 'POST', url: string, body?: string, contentType?: string):
  Promise<{ status: number; body: string }> {
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${this.user}:${this.password}`).toString('base64')}`,
      accept: 'application/json',
    };
    if (contentType) {
      headers['content-type'] = contentType;
    }
    return this.transport.send({ method, url, headers, body });
  }
}
