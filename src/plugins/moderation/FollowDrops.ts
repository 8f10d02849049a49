import type { Collections } from '../../storage/Collections';
import type { AccountStore } from '../accounts/AccountStore';
import { ActorUrls } from '../activitypub/ActorUrls';

/**
 * Removes every actor `dropped` names from the local accounts' followers and following (a suspended
 * domain's, or one suspended remote account); how many follows were dropped, both ways counted.
 */
export async function dropFollowsOf(options: { baseUrl: string; accounts: AccountStore; collections: Collections },
  dropped: (actor: string) => boolean): Promise<number> {
  const urls = new ActorUrls(options.baseUrl);
  let count = 0;
  for (const username of await options.accounts.list()) {
    for (const name of [ 'followers', 'following' ] as const) {
      const collection = urls.collection(username, name);
      for (const actor of await options.collections.all(collection)) {
        if (dropped(actor)) {
          await options.collections.remove(collection, actor);
          count += 1;
        }
      }
    }
  }
  return count;
}
