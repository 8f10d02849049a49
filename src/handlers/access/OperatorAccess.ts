import type { OperatorSecret } from '../../plugins/operator/OperatorSecret';
import { FedpodHttpError } from '../../util/HttpErrors';
import type { AccessPolicy } from './AccessPolicy';
import type { Operation } from '../http/Operation';

/**
 * The operator routes: only a request with `Authorization: Bearer <this run's operator secret>`
 * (OperatorSecret, read from the data directory by the operator's commands). Anyone else gets 404,
 * as if there were nothing there.
 */
export class OperatorAccess implements AccessPolicy {
  public constructor(private readonly secret: OperatorSecret) {}

  public async authorize({ request, target }: Operation): Promise<void> {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    if (!token || !this.secret.matches(token)) {
      throw new FedpodHttpError(404, 'not_found', `No resource at ${target.path}`);
    }
  }
}
