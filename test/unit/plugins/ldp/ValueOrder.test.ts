import type { Quad } from '@rdfjs/types';
import { ActivityStreamsSerializer } from '../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import { VALUE_POSITION, withValuePositions } from '../../../../src/plugins/ldp/ValueOrder';

const BASE = 'http://localhost:3000/';
const QUESTION = `${BASE}objects/q1`;
const AS_NAME = 'https://www.w3.org/ns/activitystreams#name';

describe('ValueOrder', (): void => {
  const loader = new DocumentLoader(BASE);
  const parser = new JsonLdParser(BASE, loader);
  const serializer = new ActivityStreamsSerializer(loader);

  /** The quads as a store may list them: here with the options' names in alphabetical order. */
  function storeOrder(quads: Quad[]): Quad[] {
    const nameOf = (quad: Quad): string => quads.find((entry): boolean => entry.subject.equals(quad.object) &&
      entry.predicate.value === AS_NAME)?.object.value ?? '';
    return [ ...quads ].sort((first, second): number => nameOf(first).localeCompare(nameOf(second)));
  }

  it.each([ 'oneOf', 'anyOf' ])('reads a Question\'s %s back in the order it was written', async(property): Promise<void> => {
    const question = { '@context': 'https://www.w3.org/ns/activitystreams', id: QUESTION, type: 'Question', content: 'Which?',
      [property]: [ 'zebra', 'apple', 'mango' ].map((name): unknown => ({ type: 'Note', name })) };
    const quads = await parser.toQuads(question, QUESTION, { fediverse: true });
    const json = await serializer.toJson(storeOrder(quads), QUESTION);
    expect((json[property] as { name: string }[]).map((option): string => option.name)).toEqual([ 'zebra', 'apple', 'mango' ]);
    // The position is how it is stored, not part of the option.
    expect(JSON.stringify(json)).not.toContain('position');
  });

  it('reads a post\'s attachments back in order, also where jsonld.js compacts them (a focal point is a list)', async(): Promise<void> => {
    const note = { '@context': [ 'https://www.w3.org/ns/activitystreams', { toot: 'http://joinmastodon.org/ns#',
      focalPoint: { '@container': '@list', '@id': 'toot:focalPoint' }}], id: QUESTION, type: 'Note',
    attachment: [ 'zebra', 'apple', 'mango' ].map((name): unknown => ({ type: 'Image', name, url: `${BASE}${name}.png`, focalPoint: [ 0, 0.5 ]})) };
    const quads = await parser.toQuads(note, QUESTION, { fediverse: true });
    const json = await serializer.toJson(storeOrder(quads), QUESTION);
    expect((json.attachment as { name: string }[]).map((attachment): string => attachment.name)).toEqual([ 'zebra', 'apple', 'mango' ]);
    expect(JSON.stringify(json)).not.toContain('position');
  });

  it('marks the options of an embedded Question and leaves other values alone', (): void => {
    const create = { type: 'Create', to: [ 'a', 'b' ], object: { type: 'Question', oneOf: [{ name: 'x' }, 'y' ]}};
    expect(withValuePositions(create)).toEqual({ type: 'Create', to: [ 'a', 'b' ],
      object: { type: 'Question', oneOf: [{ name: 'x', [VALUE_POSITION]: 0 }, 'y' ]}});
  });

  it('leaves LDP documents as they are', async(): Promise<void> => {
    const quads = await parser.toQuads({ '@context': 'https://www.w3.org/ns/activitystreams', id: QUESTION, type: 'Question',
      oneOf: [{ type: 'Note', name: 'x' }]}, QUESTION);
    expect(quads.some((quad): boolean => quad.predicate.value === VALUE_POSITION)).toBe(false);
  });
});
