import { InboundActivityEffect } from '../../../../../src/plugins/activitypub/inbound/InboundActivityEffect';

/** The smallest effect: one that does nothing, keeping the base class's appliesTo. */
class QuietEffect extends InboundActivityEffect {
  public readonly types = [ 'Listen' ];
  public async apply(): Promise<void> {
    // Nothing to do.
  }
}

describe('InboundActivityEffect', (): void => {
  it('applies to every activity of its types unless an effect says otherwise', (): void => {
    const effect = new QuietEffect();
    expect(effect.appliesTo({ type: 'Listen' })).toBe(true);
    expect(effect.appliesTo({})).toBe(true);
  });
});
