import type { Collections } from '../../../storage/Collections';
import { idOf, typeOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/** The collection of a local object that records each kind of reaction, by activity type. */
export const REACTION_COLLECTIONS: Readonly<Record<string, string>> = {
  Like: 'likes',
  Announce: 'shares',
  Dislike: 'dislikes',
  // Pleroma's, Akkoma's and Misskey's emoji reactions (the emoji is the activity's `content`).
  EmojiReact: 'reactions',
};

/**
 * Like, Announce, Dislike and EmojiReact of a local object: the activity joins the object's `likes`,
 * `shares`, `dislikes` or `reactions` collection (`<object>/likes`...). Reactions to other servers'
 * objects are only kept in the inbox.
 */
export class ReactionReceivedEffect extends InboundActivityEffect {
  public readonly types = Object.keys(REACTION_COLLECTIONS);
  private readonly base: string;

  public constructor(baseUrl: string, private readonly collections: Collections) {
    super();
    this.base = new ActorUrls(baseUrl).base;
  }

  public async apply({ activity, now }: ReceivedActivity): Promise<void> {
    const objectId = idOf(activity.object);
    const collection = REACTION_COLLECTIONS[typeOf(activity) ?? ''];
    if (objectId?.startsWith(this.base) && collection) {
      await this.collections.add(`${objectId}/${collection}`, activity.id as string, now);
    }
  }
}
