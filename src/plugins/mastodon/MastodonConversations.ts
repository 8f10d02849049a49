import { DataFactory } from 'n3';
import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';
import type { SparqlClient } from '../../storage/SparqlClient';
import { sparqlIri, sparqlLiteral } from '../../storage/SparqlTerms';
import { FEDPOD_NS, RDF_TYPE } from '../../storage/StoreVocabulary';
import { AS_NS, PUBLIC_FORMS } from '../activitypub/ActivityVocabulary';
import type { MastodonAccount } from './AccountEntity';
import type { MastodonAccounts } from './MastodonAccounts';
import type { MastodonRecords, TimelineQuery } from './MastodonRecords';
import { recordNotFound } from './MastodonRecords';
import type { MastodonStatuses, Reader } from './MastodonStatuses';
import type { MastodonStatus } from './StatusEntity';

const { literal } = DataFactory;

/** Mastodon's Conversation entity. */
export interface MastodonConversation {
  id: string;
  unread: boolean;
  accounts: MastodonAccount[];
  last_status: MastodonStatus;
}

/** What a user did to a conversation: read it up to a status, or removed it while that status was its last. */
interface ConversationState {
  readId?: string;
  removedId?: string;
}

export interface MastodonConversationsOptions {
  client: SparqlClient;
  dataDir: string;
  accounts: MastodonAccounts;
  statuses: MastodonStatuses;
  records: MastodonRecords;
}

/** How many of the newest direct posts a listing reads (the conversations are grouped from them). */
const RECENT_DIRECT = 400;
/** How far up a thread its root is looked for. */
const THREAD_DEPTH = 40;


interface DirectPost {
  object: string;
  actor: string;
  time: Date;
  recipients: Set<string>;
}

/**
 * Direct conversations (Mastodon's `/api/v1/conversations`): the direct posts (addressed to neither
 * Public nor a followers collection) in the user's inbox and outbox, grouped by thread (the root of
 * their `inReplyTo` chain, whose id is the conversation's), each shown only as the user may read it.
 * Only what reached the user's own collections is read, so only participants ever see a
 * conversation. Reading and removing are kept per user in `<data-dir>/mastodon/conversations/`: a
 * removed conversation comes back with its next post, as on Mastodon.
 */
export class MastodonConversations {
  private readonly options: MastodonConversationsOptions;
  private readonly states: FileKeyValueStorage<Record<string, ConversationState>>;

  public constructor(options: MastodonConversationsOptions) {
    this.options = options;
    this.states = new FileKeyValueStorage(options.dataDir, 'mastodon/conversations');
  }

  /** A page of the user's conversations, the most recently active first; paged by their last status's id. */
  public async list(username: string, query: TimelineQuery): Promise<MastodonConversation[]> {
    const all = await this.all(username);
    const inPage = all.filter((conversation): boolean => {
      const time = new Date(conversation.last_status.created_at);
      return (!query.before || time < query.before) && (!query.after || time > query.after);
    });
    const page = query.ascending ? inPage.slice(-query.limit) : inPage.slice(0, query.limit);
    return page;
  }

  /** The conversation whose last status is this object, if the user has it (for the `direct` stream). */
  public async withStatus(username: string, object: string): Promise<MastodonConversation | undefined> {
    return (await this.all(username)).find((conversation): boolean => conversation.last_status.uri === object);
  }

  public async markRead(username: string, id: string): Promise<MastodonConversation> {
    const conversation = await this.get(username, id);
    await this.setState(username, id, { readId: conversation.last_status.id });
    return { ...conversation, unread: false };
  }

  public async remove(username: string, id: string): Promise<void> {
    const conversation = await this.get(username, id);
    await this.setState(username, id, { removedId: conversation.last_status.id });
  }

  private async get(username: string, id: string): Promise<MastodonConversation> {
    const conversation = (await this.all(username)).find((candidate): boolean => candidate.id === id);
    if (!conversation) {
      throw recordNotFound();
    }
    return conversation;
  }

  private async setState(username: string, id: string, change: ConversationState): Promise<void> {
    const states = (await this.states.get(username)) ?? {};
    await this.states.set(username, { ...states, [id]: { ...states[id], ...change }});
  }

  /** Every conversation of the user's recent direct posts, newest activity first. */
  private async all(username: string): Promise<MastodonConversation[]> {
    const { accounts, statuses, records } = this.options;
    const me = accounts.urls.actor(username);
    const reader: Reader = { iri: me, username };
    const posts = await this.directPosts(username);
    const roots = await this.rootsOf(posts.map((post): string => post.object));
    const states = (await this.states.get(username)) ?? {};
    const groups = new Map<string, { posts: DirectPost[]; last?: MastodonStatus }>();
    // Newest first: the first post of a group the user may read is its last status.
    for (const post of posts) {
      const root = roots.get(post.object) ?? post.object;
      const group = groups.get(root) ?? { posts: []};
      groups.set(root, group);
      group.posts.push(post);
      if (!group.last) {
        const status = await statuses.shown(post.object, reader, post.time);
        if (status?.visibility === 'direct') {
          group.last = status;
        }
      }
    }
    const conversations: MastodonConversation[] = [];
    const memo = new Map<string, Promise<MastodonAccount>>();
    for (const [ root, group ] of groups) {
      if (!group.last) {
        continue;
      }
      const id = await records.idOf(root, group.posts.at(-1)!.time);
      const state = states[id] ?? {};
      if (state.removedId === group.last.id) {
        continue;
      }
      const participants = new Set<string>();
      for (const post of group.posts) {
        for (const actor of [ post.actor, ...post.recipients ]) {
          participants.add(actor);
        }
      }
      participants.delete(me);
      const others = await Promise.all([ ...participants ].map(async(actor): Promise<MastodonAccount> => accounts.accountOf(actor, memo)));
      conversations.push({ id, unread: group.last.account.uri !== me && state.readId !== group.last.id, accounts: others,
        last_status: group.last });
    }
    return conversations;
  }

  /** The user's newest direct posts (Creates addressed to no Public and no followers collection), with who wrote and got them. */
  private async directPosts(username: string): Promise<DirectPost[]> {
    const { urls } = this.options.accounts;
    const as = (name: string): string => sparqlIri(`${AS_NS}${name}`);
    const publics = [ ...PUBLIC_FORMS ].filter((form): boolean => form.includes(':')).map((form): string => sparqlIri(form));
    const rows = await this.options.client.select(`SELECT ?item ?object ?actor ?t WHERE {
  VALUES ?g { ${sparqlIri(urls.collection(username, 'inbox'))} ${sparqlIri(urls.collection(username, 'outbox'))} }
  GRAPH ?g { ?g ${as('items')} ?item . ?item ${sparqlIri(`${FEDPOD_NS}addedAt`)} ?added }
  GRAPH ?item { ?item ${sparqlIri(RDF_TYPE)} ${as('Create')} ; ${as('object')} ?object ; ${as('actor')} ?actor
    OPTIONAL { ?item ${as('published')} ?published } }
  FILTER NOT EXISTS { GRAPH ?item { ?item ${as('to')}|${as('cc')}|${as('audience')} ?wide
    FILTER(?wide IN (${publics.join(', ')}) || STRENDS(STR(?wide), ${sparqlLiteral(literal('/followers'))})) } }
  BIND(COALESCE(?published, ?added) AS ?t)
} ORDER BY DESC(?t) LIMIT ${RECENT_DIRECT}`);
    const posts = new Map<string, DirectPost>();
    for (const row of rows) {
      if (!posts.has(row.item.value)) {
        posts.set(row.item.value, { object: row.object.value, actor: row.actor.value, time: new Date(row.t.value), recipients: new Set() });
      }
    }
    if (posts.size > 0) {
      const recipients = await this.options.client.select(`SELECT ?item ?r WHERE {
  VALUES ?item { ${[ ...posts.keys() ].map(sparqlIri).join(' ')} }
  GRAPH ?item { ?item ${as('to')}|${as('cc')} ?r } FILTER(isIRI(?r)) }`);
      for (const row of recipients) {
        posts.get(row.item.value)?.recipients.add(row.r.value);
      }
    }
    // A post received twice (to the inbox and the outbox of a user writing to themselves) counts once.
    const byObject = new Map<string, DirectPost>();
    for (const post of posts.values()) {
      if (!byObject.has(post.object)) {
        byObject.set(post.object, post);
      }
    }
    return [ ...byObject.values() ];
  }

  /** The root of each object's thread: the furthest `inReplyTo` ancestor known here (itself when it replies to nothing). */
  private async rootsOf(objects: readonly string[]): Promise<Map<string, string>> {
    const parents = new Map<string, string | undefined>();
    let unknown = [ ...new Set(objects) ];
    for (let depth = 0; depth < THREAD_DEPTH && unknown.length > 0; depth += 1) {
      const rows = await this.options.client.select(`SELECT ?o ?parent WHERE { VALUES ?o { ${unknown.map(sparqlIri).join(' ')} }
  GRAPH ?o { ?o ${sparqlIri(`${AS_NS}inReplyTo`)} ?parent } FILTER(isIRI(?parent)) }`);
      for (const iri of unknown) {
        parents.set(iri, undefined);
      }
      for (const row of rows) {
        parents.set(row.o.value, row.parent.value);
      }
      unknown = [ ...new Set(rows.map((row): string => row.parent.value)) ].filter((parent): boolean => !parents.has(parent));
    }
    const roots = new Map<string, string>();
    for (const object of objects) {
      let root = object;
      const seen = new Set<string>();
      while (parents.get(root) && !seen.has(root)) {
        seen.add(root);
        root = parents.get(root)!;
      }
      roots.set(object, root);
    }
    return roots;
  }
}
