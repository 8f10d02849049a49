import type { ReadWriteLocker } from '@solid/community-server';
import type { Collections } from '../../../storage/Collections';
import { documentMetadata, type ResourceGraphs } from '../../../storage/ResourceGraphs';
import { ACTIVITYSTREAMS_CONTEXT_URL } from '../../ldp/Contexts';
import type { JsonLdParser } from '../../ldp/JsonLdParser';
import { generatedName } from '../../ldp/ResourceIds';
import type { DeliveryScheduler } from '../DeliveryScheduler';
import { PermanentJobError } from '../../queue/PermanentJobError';
import type { Json } from '../ActivityJson';
import { idOf, isObject, typeOf } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import { ActorUrls } from '../ActorUrls';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/** The options of a poll, as a list whatever form it was stored in. */
function optionsOf(value: unknown): Json[] {
  return (Array.isArray(value) ? value : value === undefined ? [] : [ value ]).filter(isObject);
}

/**
 * Votes in a local poll (a Question), sent as Mastodon sends them: a Create of a Note with the chosen
 * option's `name`, no `content`, `inReplyTo` the Question. Each option's voters are a collection
 * (`<question>/votes/<the option's name, percent-encoded>`: the options are a set, in no stored
 * order; and all of them `<question>/voters`), so a vote counts once however often
 * it is delivered; the Question's `replies.totalItems` per option and `votersCount` are then
 * recounted from them and stored, as Mastodon serves them. A single-choice poll (`oneOf`) takes one
 * option per voter, a multiple-choice one (`anyOf`) one vote per option; a vote for an option the
 * poll does not have, a second choice, or a vote after `endTime` or `closed` is refused (a dead
 * letter with the reason). Votes of one poll are counted one at a time (under the locker). After
 * each vote, an Update of the poll with its counts goes to the servers of its remote voters.
 */
export class QuestionVoteReceivedEffect extends InboundActivityEffect {
  public readonly types = [ 'Create' ];
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly activities: ActivityRepository,
    private readonly store: ResourceGraphs,
    private readonly parser: JsonLdParser,
    private readonly collections: Collections,
    private readonly locker?: ReadWriteLocker,
    private readonly delivery?: DeliveryScheduler,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public override appliesTo(activity: Json): boolean {
    const vote = activity.object;
    return isObject(vote) && typeof vote.name === 'string' && vote.content === undefined &&
      (idOf(vote.inReplyTo)?.startsWith(this.urls.url('objects')) ?? false);
  }

  public async apply({ activity, sender, now }: ReceivedActivity): Promise<void> {
    const vote = activity.object as Json;
    const questionId = idOf(vote.inReplyTo)!;
    const count = async(): Promise<void> => this.count(questionId, vote.name as string, sender, now);
    if (this.locker) {
      await this.locker.withWriteLock({ path: `urn:fedpod:poll:${encodeURIComponent(questionId)}` }, count);
    } else {
      await count();
    }
  }

  private async count(questionId: string, choice: string, voter: string, now: Date): Promise<void> {
    const question = await this.activities.read(questionId);
    if (!question || typeOf(question) !== 'Question') {
      // A named reply to something that is not a poll: nothing to count.
      return;
    }
    const refuse = (why: string): PermanentJobError => new PermanentJobError(`Vote of ${voter} in ${questionId} refused: ${why}`);
    const closed = typeof question.closed === 'string' || question.closed === true ||
      (typeof question.endTime === 'string' && Date.parse(question.endTime) <= now.getTime());
    if (closed) {
      throw refuse('the poll is closed');
    }
    const multiple = question.anyOf !== undefined;
    const options = optionsOf(question.anyOf ?? question.oneOf);
    if (!options.some((option): boolean => option.name === choice)) {
      throw refuse(`it has no option ${JSON.stringify(choice)}`);
    }
    const voters = `${questionId}/voters`;
    const votesFor = (name: unknown): string => `${questionId}/votes/${encodeURIComponent(String(name))}`;
    const chosen = votesFor(choice);
    if (!multiple && await this.collections.contains(voters, voter) && !await this.collections.contains(chosen, voter)) {
      throw refuse('a single-choice poll takes one option per voter');
    }
    await this.collections.add(chosen, voter, now);
    await this.collections.add(voters, voter, now);
    const counts = await Promise.all(options.map(async(option): Promise<number> => this.collections.count(votesFor(option.name))));
    options.forEach((option, n): void => {
      option.replies = { type: 'Collection', totalItems: counts[n] };
    });
    question[multiple ? 'anyOf' : 'oneOf'] = options;
    question.votersCount = await this.collections.count(voters);
    const data = await this.parser.toQuads(question, questionId, { fediverse: true });
    await this.store.write(questionId, this.urls.url('objects'), documentMetadata(questionId, now), data);
    await this.sendCounts(question, voters, now);
  }

  /**
   * An Update of the poll with its new counts, to the servers of its remote voters (as Mastodon
   * sends it), so that they show the results. The voters are blind copies: no voter's server learns
   * who else voted. Local voters read the poll here.
   */
  private async sendCounts(question: Json, voters: string, now: Date): Promise<void> {
    const author = idOf(question.attributedTo);
    const username = author === undefined ? undefined : this.urls.usernameOf(author);
    if (!this.delivery || username === undefined) {
      return;
    }
    const remote = (await this.collections.all(voters)).filter((voter): boolean => !voter.startsWith(this.urls.base));
    if (remote.length === 0) {
      return;
    }
    const id = this.urls.url('activity', { id: generatedName(now) });
    const update: Json = { '@context': ACTIVITYSTREAMS_CONTEXT_URL, id, type: 'Update', actor: author,
      published: now.toISOString(), object: question.id, bcc: remote };
    for (const field of [ 'to', 'cc' ]) {
      if (question[field] !== undefined) {
        update[field] = question[field];
      }
    }
    const data = await this.parser.toQuads(update, id, { fediverse: true });
    await this.store.write(id, this.urls.url('activities'), documentMetadata(id, now), data);
    await this.delivery.schedule(update, username, remote);
  }
}
