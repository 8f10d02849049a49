import type { Json } from '../activitypub/ActivityJson';
import type { OutboxService } from '../activitypub/outbound/OutboxService';
import type { MediaRecord } from '../media/MediaStore';
import type { MastodonAccount } from './AccountEntity';
import type { MastodonAccounts } from './MastodonAccounts';
import { plainTextToHtml } from './StatusText';

/** What PATCH /api/v1/accounts/update_credentials changes; what is left out stays. */
export interface ProfileChanges {
  displayName?: string;
  note?: string;
  locked?: boolean;
  discoverable?: boolean;
  fields?: { name: string; value: string }[];
  /** An uploaded image (MediaStore), already described. */
  avatar?: MediaRecord;
  header?: MediaRecord;
}

/**
 * A local user's profile, changed as the outbox changes it: one Update of the actor (the
 * editable keys of UpdateSentEffect), stored and delivered to the followers as any profile change.
 */
export class MastodonProfiles {
  public constructor(
    private readonly outbox: OutboxService,
    private readonly accounts: MastodonAccounts,
  ) {}

  public async update(username: string, changes: ProfileChanges): Promise<MastodonAccount> {
    const actor = this.accounts.urls.actor(username);
    const image = (record: MediaRecord): Json => ({ type: 'Image', mediaType: record.mediaType, url: record.url });
    const object: Json = {
      id: actor,
      ...changes.displayName === undefined ? {} : { name: changes.displayName },
      ...changes.note === undefined ? {} : { summary: changes.note === '' ? null : plainTextToHtml(changes.note) },
      ...changes.locked === undefined ? {} : { manuallyApprovesFollowers: changes.locked },
      ...changes.discoverable === undefined ? {} : { discoverable: changes.discoverable },
      ...changes.fields === undefined ? {} : { attachment: changes.fields.map((field): Json =>
        ({ type: 'PropertyValue', name: field.name, value: field.value })) },
      ...changes.avatar ? { icon: image(changes.avatar) } : {},
      ...changes.header ? { image: image(changes.header) } : {},
    };
    await this.outbox.post(username, { type: 'Update', object });
    return this.accounts.accountOf(actor);
  }
}
