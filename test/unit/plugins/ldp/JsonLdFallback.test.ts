import { DataFactory } from 'n3';
import type { JsonObject } from '../../../../src/plugins/ldp/Contexts';
import { ACTIVITYSTREAMS_CONTEXT_URL } from '../../../../src/plugins/ldp/Contexts';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { compactWithJsonLd } from '../../../../src/plugins/ldp/JsonLdFallback';

const { blankNode, literal, namedNode, quad } = DataFactory;

const AS = 'https://www.w3.org/ns/activitystreams#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const NOTE = 'https://pod.example/objects/n1';
const STEPS = 'https://vocab.example/steps';
const loader = new DocumentLoader();

describe('compactWithJsonLd', (): void => {
  it('compacts one node with the context, without the context in the result', async(): Promise<void> => {
    const compacted = await compactWithJsonLd([
      quad(namedNode(NOTE), namedNode(`${RDF}type`), namedNode(`${AS}Note`)),
      quad(namedNode(NOTE), namedNode(`${AS}content`), literal('hi')),
    ], ACTIVITYSTREAMS_CONTEXT_URL, NOTE, loader);
    expect(compacted).toEqual({ id: NOTE, type: 'Note', content: 'hi' });
  });

  // An RDF list is one of the shapes the fast compactor leaves to jsonld.js.
  it('compacts an RDF list as a list, in order', async(): Promise<void> => {
    const head = blankNode('l1');
    const rest = blankNode('l2');
    const compacted = await compactWithJsonLd([
      quad(namedNode(NOTE), namedNode(STEPS), head),
      quad(head, namedNode(`${RDF}first`), namedNode('https://pod.example/a')),
      quad(head, namedNode(`${RDF}rest`), rest),
      quad(rest, namedNode(`${RDF}first`), namedNode('https://pod.example/b')),
      quad(rest, namedNode(`${RDF}rest`), namedNode(`${RDF}nil`)),
    ], ACTIVITYSTREAMS_CONTEXT_URL, NOTE, loader);
    expect(compacted.id).toBe(NOTE);
    const list = (compacted[STEPS] as JsonObject)['@list'] as JsonObject[];
    expect(list.map((item): unknown => item.id)).toEqual([ 'https://pod.example/a', 'https://pod.example/b' ]);
  });

  it('puts the root first and the other top-level nodes in @included', async(): Promise<void> => {
    const other = 'https://pod.example/objects/other';
    const shared = blankNode('shared');
    const compacted = await compactWithJsonLd([
      quad(namedNode(NOTE), namedNode(`${AS}content`), literal('root')),
      quad(namedNode(other), namedNode(`${AS}content`), literal('other')),
      quad(namedNode(NOTE), namedNode(`${AS}tag`), shared),
      quad(namedNode(other), namedNode(`${AS}tag`), shared),
    ], ACTIVITYSTREAMS_CONTEXT_URL, NOTE, loader);
    expect(compacted).toMatchObject({ id: NOTE, content: 'root' });
    const included = compacted['@included'] as JsonObject[];
    expect(included.map((node): unknown => node.id)).toContain(other);
    expect(included.some((node): boolean => node.id === NOTE)).toBe(false);
  });

  it('embeds a blank node referenced once where it is referenced (an attachment with a list), not one referenced twice', async(): Promise<void> => {
    const attachment = blankNode('att');
    const head = blankNode('f1');
    const rest = blankNode('f2');
    const shared = blankNode('shared');
    const compacted = await compactWithJsonLd([
      quad(namedNode(NOTE), namedNode(`${AS}attachment`), attachment),
      quad(attachment, namedNode(`${RDF}type`), namedNode(`${AS}Image`)),
      quad(attachment, namedNode(`${AS}url`), namedNode('https://pod.example/a.png')),
      quad(attachment, namedNode(STEPS), head),
      quad(head, namedNode(`${RDF}first`), literal('0.5')),
      quad(head, namedNode(`${RDF}rest`), rest),
      quad(rest, namedNode(`${RDF}first`), literal('-0.5')),
      quad(rest, namedNode(`${RDF}rest`), namedNode(`${RDF}nil`)),
      quad(namedNode(NOTE), namedNode(`${AS}tag`), shared),
      quad(attachment, namedNode(`${AS}tag`), shared),
      quad(shared, namedNode(`${AS}name`), literal('twice')),
    ], ACTIVITYSTREAMS_CONTEXT_URL, NOTE, loader);
    const embedded = compacted.attachment as JsonObject;
    expect(embedded).toMatchObject({ type: 'Image', url: 'https://pod.example/a.png' });
    expect(embedded.id).toBeUndefined();
    expect(((embedded[STEPS] as JsonObject)['@list'] as unknown[])).toEqual([ '0.5', '-0.5' ]);
    // The node referenced twice stays a top-level node with its label.
    expect(compacted['@included']).toEqual([ expect.objectContaining({ name: 'twice' }) ]);
  });

  it('names the root even when nothing is said of it', async(): Promise<void> => {
    const compacted = await compactWithJsonLd([
      quad(namedNode('https://pod.example/a'), namedNode(`${AS}content`), literal('a')),
      quad(namedNode('https://pod.example/b'), namedNode(`${AS}content`), literal('b')),
    ], ACTIVITYSTREAMS_CONTEXT_URL, NOTE, loader);
    expect(compacted.id).toBe(NOTE);
    expect((compacted['@included'] as JsonObject[]).map((node): unknown => node.id).sort())
      .toEqual([ 'https://pod.example/a', 'https://pod.example/b' ]);
  });

  it('refuses a context the loader may not load', async(): Promise<void> => {
    await expect(compactWithJsonLd([ quad(namedNode(NOTE), namedNode(`${AS}content`), literal('x')) ],
      'https://remote.example/context.jsonld', NOTE, loader)).rejects.toThrow();
  });

  it('embeds a named node referenced once with its id (a received Create\'s Note), never one named by url', async(): Promise<void> => {
    const create = 'https://remote.example/activities/c1';
    const page = 'https://remote.example/@alice/1';
    const attachment = blankNode('att');
    const head = blankNode('f1');
    const compacted = await compactWithJsonLd([
      quad(namedNode(create), namedNode(`${RDF}type`), namedNode(`${AS}Create`)),
      quad(namedNode(create), namedNode(`${AS}object`), namedNode(NOTE)),
      quad(namedNode(NOTE), namedNode(`${RDF}type`), namedNode(`${AS}Note`)),
      quad(namedNode(NOTE), namedNode(`${AS}url`), namedNode(page)),
      quad(namedNode(page), namedNode(`${AS}name`), literal('a page, not the note')),
      quad(namedNode(NOTE), namedNode(`${AS}attachment`), attachment),
      quad(attachment, namedNode(STEPS), head),
      quad(head, namedNode(`${RDF}first`), literal('0.5')),
      quad(head, namedNode(`${RDF}rest`), namedNode(`${RDF}nil`)),
    ], ACTIVITYSTREAMS_CONTEXT_URL, create, loader);
    const note = compacted.object as JsonObject;
    expect(note).toMatchObject({ id: NOTE, type: 'Note', url: page });
    expect(((note.attachment as JsonObject)[STEPS] as JsonObject)['@list']).toEqual([ '0.5' ]);
    expect(compacted['@included']).toEqual([ expect.objectContaining({ id: page }) ]);
  });
});
