import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mutes } from '../../../../src/plugins/moderation/Mutes';

describe('Mutes', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mutes-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('mutes per user, with or without notifications, until unmuted; another instance on the data directory sees it', async() => {
    const mutes = new Mutes(dir);
    await mutes.mute('alice', 'https://x.example/users/bob', false);
    const other = new Mutes(dir);
    expect(await other.isMuted('alice', 'https://x.example/users/bob')).toBe(true);
    expect(await other.isMuted('alice', 'https://x.example/users/bob', true)).toBe(false);
    expect(await other.isMuted('dave', 'https://x.example/users/bob')).toBe(false);
    await other.unmute('alice', 'https://x.example/users/bob');
    expect(await mutes.isMuted('alice', 'https://x.example/users/bob')).toBe(false);
  });

  it('counts a mute past its duration as none', async() => {
    const mutes = new Mutes(dir);
    const then = new Date(Date.now() - 120_000);
    await mutes.mute('alice', 'https://x.example/users/bob', true, 60, then);
    await mutes.mute('alice', 'https://x.example/users/carol', true, 3600);
    expect(await mutes.isMuted('alice', 'https://x.example/users/bob')).toBe(false);
    expect((await mutes.list('alice')).map((mute) => mute.actor)).toEqual([ 'https://x.example/users/carol' ]);
  });
});
