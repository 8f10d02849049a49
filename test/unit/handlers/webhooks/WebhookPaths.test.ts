import { WebhookPaths } from '../../../../src/handlers/webhooks/WebhookPaths';
import type { OperationTarget } from '../../../../src/handlers/http/Operation';
import { Operation } from '../../../../src/handlers/http/Operation';

/** The target as the pipeline parses it. */
function at(url: string): OperationTarget {
  return Operation.parseTarget('https://pod.example', url)!;
}

describe('WebhookPaths', (): void => {
  const CONTAINER = 'https://pod.example/pod/webhooks/';
  const paths = new WebhookPaths('https://pod.example/pod/');

  it('gives the IRI of the container, with or without its slash, and of anything under it', (): void => {
    expect(paths.match(at('/pod/webhooks/'), CONTAINER)).toBe(CONTAINER);
    expect(paths.match(at('/pod/webhooks'), CONTAINER)).toBe('https://pod.example/pod/webhooks');
    expect(paths.match(at('/pod/webhooks/abc?x=1'), CONTAINER)).toBe(`${CONTAINER}abc`);
  });

  it('judges the canonical path, so other spellings of the container are claimed too', (): void => {
    expect(paths.match(at('/pod/%77ebhooks/abc'), CONTAINER)).toBe(`${CONTAINER}abc`);
    expect(paths.match(at('/pod//webhooks/abc'), CONTAINER)).toBe(`${CONTAINER}abc`);
  });

  it('leaves every other path alone', (): void => {
    for (const url of [ '/pod/webhooksx', '/pod/webhooks-old/x', '/pod/', '/webhooks/x', '/pod/actors/alice' ]) {
      expect({ url, match: paths.match(at(url), CONTAINER) }).toEqual({ url, match: undefined });
    }
  });
});
