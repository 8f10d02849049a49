import type { HttpHandlerInput, ReadWriteLocker } from '@solid/community-server';
import { NOT_HANDLED } from '../NotHandled';
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { JsonLdParser } from '../../plugins/ldp/JsonLdParser';
import { generatedName, newResourceName } from '../../plugins/ldp/ResourceIds';
import type { ResourceGraphStore } from '../../storage/ResourceGraphStore';
import { DC_MODIFIED, LDP_RESOURCE, RDF_TYPE, XSD_DATETIME } from '../../storage/Vocabulary';
import { methodNotAllowed, notFound } from '../../util/HttpErrors';
import { mediaTypeOf, readBody } from '../HttpUtil';
import { JsonHttpHandler } from '../JsonHttpHandler';
import { AccessHeaders } from '../access/AccessHeaders';
import { ldpHeaders } from './LdpHeaders';
import { LdpPaths } from './LdpPaths';

const { namedNode, literal, quad } = DataFactory;

const JSON_TYPES = new Set([ 'application/ld+json', 'application/json', 'application/activity+json' ]);

/**
 * POST of JSON / JSON-LD into a container: parse, mint the IRI (Slug honoured), write data, metadata,
 * containment and the container's modification date in one update, answer 201 with Location.
 * Other media types and container creation (Link rel=type ldp:Container) go to CSS's pipeline.
 * The body is fully parsed before anything is written: a bad body changes nothing.
 */
export class LdpCreateHandler extends JsonHttpHandler {
  private readonly paths: LdpPaths;

  /**
   * @param baseUrl - Public base URL.
   * @param store - The resource graphs.
   * @param parser - JSON-LD parser.
   * @param locker - CSS's resource locker, so Slug-named creations never race CSS's own writes.
   * @param maxBodyBytes - Largest accepted body.
   */
  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphStore,
    private readonly parser: JsonLdParser,
    private readonly locker: ReadWriteLocker,
    private readonly maxBodyBytes = 1_048_576,
  ) {
    super();
    this.paths = new LdpPaths(baseUrl);
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (request.method !== 'POST' || !JSON_TYPES.has(mediaTypeOf(request.headers['content-type']))) {
      throw NOT_HANDLED;
    }
    const link = String(request.headers.link ?? '');
    if (/ldp#(?:Basic)?Container>\s*;\s*rel="?type/iu.test(link)) {
      throw NOT_HANDLED;
    }
    const target = this.paths.resolve(request);
    if (!target || this.paths.isReservedPath(target.path)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response }: HttpHandlerInput): Promise<void> {
    const target = this.paths.resolve(request)!;
    // Read and check the body first: a bad body answers 4xx with nothing written.
    const body = await readBody(request, this.maxBodyBytes);
    const document = this.parser.parseJson(body);
    const container = await this.findContainer(target.iri);
    const slug = request.headers.slug;
    const name = newResourceName(Array.isArray(slug) ? slug[0] : slug);
    let iri = `${container}${name}`;
    const now = new Date();
    if (slug) {
      // A client-chosen name may collide: check and write under CSS's lock for that resource.
      await this.locker.withWriteLock({ path: iri }, async(): Promise<void> => {
        if (await this.store.exists(iri) || await this.store.exists(`${iri}/`)) {
          iri = `${container}${name}-${generatedName()}`;
        }
        await this.write(container, iri, document, now);
      });
    } else {
      await this.write(container, iri, document, now);
    }
    response.writeHead(201, {
      location: iri,
      link: ldpHeaders(this.paths.baseUrl, false, AccessHeaders.of(request)).link as string[],
      'content-length': '0',
    });
    response.end();
  }

  private async write(container: string, iri: string, document: unknown, now: Date): Promise<void> {
    const data = await this.parser.toQuads(document, iri);
    const metadata: Quad[] = [
      quad(namedNode(iri), namedNode(RDF_TYPE), namedNode(LDP_RESOURCE)),
      quad(namedNode(iri), namedNode(DC_MODIFIED), literal(now.toISOString(), namedNode(XSD_DATETIME))),
    ];
    await this.store.createInContainer(container, iri, data, metadata, now);
  }

  private async findContainer(iri: string): Promise<string> {
    if (iri.endsWith('/')) {
      if (await this.store.exists(iri)) {
        return iri;
      }
      throw notFound(`No container at ${iri}`);
    }
    // `POST /notes` targets the container `/notes/`, without a redirect.
    if (await this.store.exists(`${iri}/`)) {
      return `${iri}/`;
    }
    if (await this.store.exists(iri)) {
      throw methodNotAllowed(`${iri} is not a container: POST creates resources in containers only.`, 'OPTIONS, HEAD, GET, PATCH, PUT, DELETE');
    }
    throw notFound(`No container at ${iri}`);
  }
}
