import type { Representation, RepresentationConverterArgs } from '@solid/community-server';
import {
  APPLICATION_JSON,
  BaseTypedRepresentationConverter,
  BasicRepresentation,
  getSingleItem,
  INTERNAL_ERROR,
} from '@solid/community-server';
import { errorAnswer } from './http/HttpUtil';

/**
 * CSS's errors as JSON in Fedpod's one shape, `{ "error", "message" }` (CSS's own converter writes
 * `name`, `statusCode`, `errorCode` and a stack), so a client reads the same error whichever handler
 * refused its request. A 500 keeps its details in the log.
 */
export class JsonErrorConverter extends BaseTypedRepresentationConverter {
  public constructor() {
    super(INTERNAL_ERROR, APPLICATION_JSON);
  }

  public async handle({ representation }: RepresentationConverterArgs): Promise<Representation> {
    const error = await getSingleItem(representation.data);
    return new BasicRepresentation(JSON.stringify(errorAnswer(error).body), representation.metadata, APPLICATION_JSON);
  }
}
