import { getLoggerFor } from '@solid/community-server';
import { messageOf } from '../../../util/Errors';
import type { Json } from '../ActivityJson';
import { idOf, idsOf, isObject, typeOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import { PUBLIC_FORMS } from '../ActivityVocabulary';
import type { WebFingerResolver } from '../fetch/WebFingerResolver';
import { looksLikeHandle } from '../fetch/WebFingerResolver';
import { linkTagsInHtml, tagsInHtml } from './TextTags';

/** Objects whose text is scanned for mentions and hashtags. */
const COMPOSED_TYPES = new Set([ 'Note', 'Article', 'Question', 'Page' ]);
/** Most mentions resolved in one post, so that a post cannot make the server send hundreds of lookups; the rest stay text. */
const MAX_MENTIONS = 50;
/** Activities whose object may be given as a handle. */
const TO_ACTOR_TYPES = new Set([ 'Follow', 'Block' ]);

/**
 * What a server does with handles in what its users post, before the outbox stores anything:
 *
 * - a Follow (or Block) whose `object` is a handle (`acct:bob@host`, `@bob@host`) gets the actor's
 *   IRI instead, in `object` and wherever it is addressed; a handle that cannot be resolved refuses the
 *   post (the resolver's 400 / 422), so nothing is stored;
 * - a new or edited Note (Article, Question, Page): `@user`, `@user@host` and `#tag` in its `content` (and
 *   `contentMap`) become `Mention` and `Hashtag` entries of `tag`, linked in the HTML as Mastodon links
 *   them; a mention that cannot be resolved stays text. Every Mention of `tag` (the client's too) is
 *   addressed: in `cc` when the post is public, unlisted or for followers, in `to` when it is direct,
 *   on the Create and its object alike, so it is delivered and its addressee may read it (an edit keeps
 *   the audience the post had).
 */
export class OutboundHandles {
  protected readonly logger = getLoggerFor(this);
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly resolver: WebFingerResolver) {
    this.urls = new ActorUrls(baseUrl);
  }

  /** Completes an outgoing activity in place (see the class). */
  public async prepare(activity: Json, actor: string): Promise<void> {
    const type = typeOf(activity);
    if (type !== undefined && TO_ACTOR_TYPES.has(type) && typeof activity.object === 'string' && looksLikeHandle(activity.object)) {
      const handle = activity.object;
      const resolved = await this.resolver.resolve(handle);
      activity.object = resolved;
      for (const field of [ 'to', 'cc', 'bto', 'bcc', 'audience' ]) {
        if (activity[field] !== undefined) {
          activity[field] = idsOf(activity[field]).map((iri): string => (iri === handle ? resolved : iri));
        }
      }
      return;
    }
    if ((type === 'Create' || type === 'Update') && isObject(activity.object) && COMPOSED_TYPES.has(typeOf(activity.object) ?? '')) {
      await this.compose(activity, activity.object, actor);
    }
  }

  /**
   * Tags and links the post's text; a Create's mentioned actors are also addressed. An edit (Update) keeps
   * the audience the post had (ThreadAudience): addressing it here would narrow it to the mentioned.
   */
  private async compose(create: Json, object: Json, actor: string): Promise<void> {
    const tags: Json[] = Array.isArray(object.tag) ? [ ...object.tag as Json[] ] : isObject(object.tag) ? [ object.tag ] : [];
    const texts = [
      ...typeof object.content === 'string' ? [ object.content ] : [],
      ...isObject(object.contentMap) ? Object.values(object.contentMap).filter((value): value is string => typeof value === 'string') : [],
    ];
    const written = new Set<string>();
    const hashtags = new Map<string, string>();
    for (const text of texts) {
      const found = tagsInHtml(text);
      for (const { acct } of found.mentions) {
        written.add(acct);
      }
      for (const name of found.hashtags) {
        hashtags.set(name.toLowerCase(), hashtags.get(name.toLowerCase()) ?? name);
      }
    }
    // Resolved at once (each WebFinger lookup may wait for its server), a bounded number per post.
    const accts = [ ...written ].slice(0, MAX_MENTIONS);
    const actors = await Promise.all(accts.map(async(acct): Promise<string> => this.resolveMention(acct)));
    const links = new Map(accts.map((acct, index): [ string, string ] => [ acct, actors[index] ])
      .filter((entry): boolean => entry[1] !== ''));
    const hashtagHref = (name: string): string => `${this.urls.base}tags/${encodeURIComponent(name.toLowerCase())}`;
    const mentioned = new Set(tags.filter((tag): boolean => typeOf(tag) === 'Mention').map((tag): string | undefined => idOf(tag.href)));
    for (const [ acct, href ] of links) {
      if (!mentioned.has(href)) {
        mentioned.add(href);
        const local = this.urls.usernameOf(href);
        tags.push({ type: 'Mention', href, name: `@${local === undefined ? acct : `${local}@${this.resolver.host}`}` });
      }
    }
    const named = new Set(tags.filter((tag): boolean => typeOf(tag) === 'Hashtag' && typeof tag.name === 'string')
      .map((tag): string => (tag.name as string).replace(/^#/u, '').toLowerCase()));
    for (const [ key, name ] of hashtags) {
      if (!named.has(key)) {
        tags.push({ type: 'Hashtag', href: hashtagHref(name), name: `#${name}` });
      }
    }
    if (links.size > 0 || hashtags.size > 0) {
      const link = (html: string): string => linkTagsInHtml(html, { mentions: links, hashtag: hashtagHref });
      if (typeof object.content === 'string') {
        object.content = link(object.content);
      }
      if (isObject(object.contentMap)) {
        object.contentMap = Object.fromEntries(Object.entries(object.contentMap)
          .map(([ language, html ]): [ string, unknown ] => [ language, typeof html === 'string' ? link(html) : html ]));
      }
    }
    if (tags.length > 0) {
      object.tag = tags;
    }
    if (typeOf(create) === 'Create') {
      this.address(create, object, actor, [ ...mentioned ].filter((href): href is string => href !== undefined && href !== actor));
    }
  }

  /** The actor of a written mention, or '' when it cannot be resolved (the mention stays text). */
  private async resolveMention(acct: string): Promise<string> {
    try {
      return await this.resolver.resolve(acct);
    } catch (error: unknown) {
      this.logger.debug(`The mention @${acct} stays text: ${messageOf(error)}`);
      return '';
    }
  }

  /** Adds the mentioned actors to the audience: `cc` of a post others than they may read, `to` of a direct one. */
  private address(create: Json, object: Json, actor: string, mentioned: string[]): void {
    if (mentioned.length === 0) {
      return;
    }
    const followers = this.urls.collection(this.urls.usernameOf(actor) ?? '', 'followers');
    const addressed = (document: Json): string[] => [ 'to', 'cc', 'bto', 'bcc', 'audience' ].flatMap((field): string[] => idsOf(document[field]));
    const wide = [ ...addressed(create), ...addressed(object) ].some((iri): boolean => PUBLIC_FORMS.has(iri) || iri === followers);
    const field = wide ? 'cc' : 'to';
    for (const document of [ create, object ]) {
      const already = new Set(addressed(document));
      const missing = mentioned.filter((href): boolean => !already.has(href));
      if (missing.length > 0) {
        document[field] = [ ...idsOf(document[field]), ...missing ];
      }
    }
  }
}
