import { arrayParameter } from '../../../../src/handlers/mastodon/MastodonNotificationsHandler';

describe('arrayParameter', () => {
  it('reads Mastodon\'s name[] form, the bare name and comma-separated values', () => {
    expect(arrayParameter(new URLSearchParams('types[]=mention&types[]=favourite'), 'types')).toEqual([ 'mention', 'favourite' ]);
    expect(arrayParameter(new URLSearchParams('types=mention,reblog'), 'types')).toEqual([ 'mention', 'reblog' ]);
    expect(arrayParameter(new URLSearchParams('types[]=&other=x'), 'types')).toEqual([]);
  });
});
