import { Readable } from 'node:stream';
import { basename } from 'node:path';
import { pack, type Pack } from 'tar-stream';
import type { Collections } from '../../storage/Collections';
import type { Json } from '../activitypub/ActivityJson';
import { idOf } from '../activitypub/ActivityJson';
import type { ActivityRepository } from '../activitypub/ActivityRepository';
import type { ActorProfiles } from '../activitypub/ActorProfiles';
import { ActorUrls } from '../activitypub/ActorUrls';
import { bookmarksOf } from '../mastodon/MastodonStatuses';
import type { MediaStore } from '../media/MediaStore';

const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';

export interface AccountArchiveOptions {
  baseUrl: string;
  profiles: ActorProfiles;
  collections: Collections;
  activities: ActivityRepository;
  media: MediaStore;
}

/** Writes one entry of known size, waiting while the archive's reader is behind. */
async function entry(archive: Pack, name: string, size: number, body: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
  await new Promise<void>((resolve, reject): void => {
    const sink = archive.entry({ name, size }, (error): void => (error ? reject(error) : resolve()));
    void (async(): Promise<void> => {
      for await (const chunk of body) {
        if (!sink.write(chunk)) {
          await new Promise<void>((drained): void => {
            sink.once('drain', drained);
          });
        }
      }
      // Streamx's end() takes an optional last chunk; none here.
      sink.end(null);
    })().catch(reject);
  });
}

/**
 * A user's archive, as Mastodon's "Request your archive" gives it: a tar of `actor.json` (their
 * actor document), `outbox.json` (their activities, newest first, as an ActivityStreams
 * OrderedCollection, with the objects they created embedded), `likes.json` and `bookmarks.json`
 * (the IRIs liked and bookmarked) and `media/` (the files of their posts' attachments), made while
 * it is sent so that no copy of it is kept.
 */
export class AccountArchive {
  private readonly urls: ActorUrls;

  public constructor(private readonly options: AccountArchiveOptions) {
    this.urls = new ActorUrls(options.baseUrl);
  }

  /** The archive's bytes; an error while it is made ends the stream with that error. */
  public archive(username: string): Readable {
    const archive = pack();
    this.fill(username, archive).then((): void => archive.finalize(), (error: Error): void => {
      archive.destroy(error);
    });
    return Readable.from(archive);
  }

  private async fill(username: string, archive: Pack): Promise<void> {
    const { profiles, collections, activities } = this.options;
    const actor = this.urls.actor(username);
    const json = async(name: string, value: unknown): Promise<void> => {
      const bytes = Buffer.from(JSON.stringify(value, null, 2));
      await entry(archive, name, bytes.length, [ bytes ]);
    };
    await json('actor.json', await profiles.read(actor) ?? { id: actor });
    const outbox = this.urls.collection(username, 'outbox');
    const iris = (await collections.all(outbox)).reverse();
    const stored = await activities.readMany(iris);
    const items: Json[] = [];
    for (const iri of iris) {
      const activity = stored.get(iri);
      if (activity) {
        items.push(await this.embedObject(activity, actor));
      }
    }
    await json('outbox.json', { '@context': AS_CONTEXT, id: outbox, type: 'OrderedCollection', totalItems: items.length, orderedItems: items });
    for (const [ name, collection ] of [[ 'likes.json', this.urls.collection(username, 'liked') ], [ 'bookmarks.json', bookmarksOf(actor) ]]) {
      const list = (await collections.all(collection)).reverse();
      await json(name, { '@context': AS_CONTEXT, type: 'OrderedCollection', totalItems: list.length, orderedItems: list });
    }
    await this.mediaOf(items, actor, archive);
  }

  /** The activity with its object read in, when the object is the user's own and stored here. */
  private async embedObject(activity: Json, actor: string): Promise<Json> {
    if (typeof activity.object !== 'string' || !activity.object.startsWith(this.urls.base)) {
      return activity;
    }
    const object = await this.options.activities.read(activity.object);
    return object && idOf(object.attributedTo) === actor ? { ...activity, object } : activity;
  }

  /** The user's own uploads attached to their posts, as `media/<file>`. */
  private async mediaOf(items: Json[], actor: string, archive: Pack): Promise<void> {
    const seen = new Set<string>();
    for (const item of items) {
      const object = item.object as Json | undefined;
      const attachments = object && typeof object === 'object' ? [ object.attachment ].flat() : [];
      for (const attachment of attachments as unknown[]) {
        const url = typeof attachment === 'object' && attachment ? idOf((attachment as Json).url) : undefined;
        if (!url || seen.has(url)) {
          continue;
        }
        seen.add(url);
        const found = await this.options.media.recordOf(url);
        if (found?.file && found.record.owner === actor) {
          await entry(archive, `media/${basename(new URL(url).pathname)}`, found.file.size, this.options.media.open(found.file.name));
        }
      }
    }
  }
}
