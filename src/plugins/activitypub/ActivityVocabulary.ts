/** ActivityStreams terms Fedpod's ActivityPub code relies on. */
export const AS_NS = 'https://www.w3.org/ns/activitystreams#';
export const AS_PUBLIC = `${AS_NS}Public`;
/** Forms of the Public collection peers send. */
export const PUBLIC_FORMS = new Set([ AS_PUBLIC, 'as:Public', 'Public' ]);

export const ACTIVITY_TYPES = new Set([
  'Accept', 'Add', 'Announce', 'Arrive', 'Block', 'Create', 'Delete', 'Dislike', 'Flag', 'Follow', 'Ignore',
  'Invite', 'Join', 'Leave', 'Like', 'Listen', 'Move', 'Offer', 'Question', 'Read', 'Reject', 'Remove',
  'TentativeAccept', 'TentativeReject', 'Travel', 'Undo', 'Update', 'View',
]);

/** Question is both: as a bare object posted to the outbox it is wrapped in a Create, like Note. */
export const WRAPPED_IN_CREATE = new Set([ 'Question' ]);

export const ADDRESS_FIELDS = [ 'to', 'cc', 'bto', 'bcc', 'audience' ] as const;
export const PRIVATE_ADDRESS_FIELDS = [ 'bto', 'bcc' ] as const;
