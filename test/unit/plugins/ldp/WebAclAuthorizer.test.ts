import { WebAclAuthorizer } from '../../../../src/plugins/ldp/WebAclAuthorizer';
import type { ChangeCounter } from '../../../../src/plugins/cluster/ChangeCounter';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const ACL = 'http://www.w3.org/ns/auth/acl#';
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const FOAF_AGENT = 'http://xmlns.com/foaf/0.1/Agent';
const OWNER = 'https://id.example/owner#me';
const FRIEND = 'https://id.example/friend#me';
const STRANGER = 'https://id.example/stranger#me';

/** The triples of one acl:Authorization. */
function rule(id: string, who: [string, string][], modes: string[], accessTo: string[], defaults: string[] = []): [string, string, string][] {
  return [
    [ id, TYPE, `${ACL}Authorization` ],
    ...who.map(([ predicate, value ]): [string, string, string] => [ id, `${ACL}${predicate}`, value ]),
    ...modes.map((mode): [string, string, string] => [ id, `${ACL}mode`, `${ACL}${mode}` ]),
    ...accessTo.map((target): [string, string, string] => [ id, `${ACL}accessTo`, target ]),
    ...defaults.map((target): [string, string, string] => [ id, `${ACL}default`, target ]),
  ];
}

/** A counter in memory, as two nodes would share one in Redis. */
class SharedCounter implements ChangeCounter {
  public value = 0;
  public async read(): Promise<string> {
    return String(this.value);
  }

  public async bump(): Promise<void> {
    this.value += 1;
  }
}

describe('WebAclAuthorizer (on the embedded store)', () => {
  let graphs: EmbeddedGraphs;

  beforeAll(async() => {
    graphs = await startEmbeddedGraphs(BASE);
    await graphs.putTriples(`${BASE}.acl`, [
      ...rule(`${BASE}.acl#public`, [[ 'agentClass', FOAF_AGENT ]], [ 'Read' ], [ BASE ], [ BASE ]),
      ...rule(`${BASE}.acl#owner`, [[ 'agent', OWNER ]], [ 'Read', 'Write', 'Control' ], [ BASE ], [ BASE ]),
    ]);
    await graphs.putTriples(`${BASE}private/.acl`, [
      ...rule(`${BASE}private/.acl#owner`, [[ 'agent', OWNER ]], [ 'Read', 'Write', 'Control' ], [ `${BASE}private/` ], [ `${BASE}private/` ]),
      ...rule(`${BASE}private/.acl#friends`, [[ 'agentClass', `${ACL}AuthenticatedAgent` ]], [ 'Append' ], [], [ `${BASE}private/` ]),
      ...rule(`${BASE}private/.acl#app`, [[ 'agent', FRIEND ], [ 'origin', 'https://app.example' ]], [ 'Read' ], [], [ `${BASE}private/` ]),
    ]);
  });

  afterAll(async() => {
    await graphs.stop();
  });

  async function modes(authorizer: WebAclAuthorizer, resource: string, agent?: string, origin?: string): Promise<string> {
    const found = await authorizer.permissions(resource, agent, origin);
    return `${[ ...found.user ].sort().join(',')} | ${[ ...found.public ].sort().join(',')} | ${found.acl}`;
  }

  it('applies the nearest ACL: the root\'s defaults to what has none of its own, acl:Write with acl:Append', async() => {
    const authorizer = new WebAclAuthorizer(BASE, graphs.resources);
    expect(await modes(authorizer, `${BASE}notes/a`)).toBe(`read | read | ${BASE}.acl`);
    expect(await modes(authorizer, `${BASE}notes/a`, OWNER)).toBe(`append,control,read,write | read | ${BASE}.acl`);
    expect(await modes(authorizer, BASE, STRANGER)).toBe(`read | read | ${BASE}.acl`);
  });

  it('lets a container\'s own ACL replace its ancestors\' (accessTo for itself, default below)', async() => {
    const authorizer = new WebAclAuthorizer(BASE, graphs.resources);
    expect(await modes(authorizer, `${BASE}private/`)).toBe(` |  | ${BASE}private/.acl`);
    expect(await modes(authorizer, `${BASE}private/`, OWNER)).toBe(`append,control,read,write |  | ${BASE}private/.acl`);
    expect(await modes(authorizer, `${BASE}private/x`, STRANGER)).toBe(`append |  | ${BASE}private/.acl`);
    expect(await modes(authorizer, `${BASE}private/x`)).toBe(` |  | ${BASE}private/.acl`);
  });

  it('honours acl:origin for requests that send one', async() => {
    const authorizer = new WebAclAuthorizer(BASE, graphs.resources);
    expect(await modes(authorizer, `${BASE}private/x`, FRIEND, 'https://app.example')).toContain('append,read |');
    expect(await modes(authorizer, `${BASE}private/x`, FRIEND, 'https://evil.example')).toMatch(/^append \|/u);
    expect(await modes(authorizer, `${BASE}private/x`, FRIEND)).toContain('append,read |');
  });

  it('decides from its cache, and drops it on every node when an ACL changes', async() => {
    const counter = new SharedCounter();
    const first = new WebAclAuthorizer(BASE, graphs.resources, counter);
    const second = new WebAclAuthorizer(BASE, graphs.resources, counter);
    expect(await modes(second, `${BASE}shared/doc`)).toBe(`read | read | ${BASE}.acl`);
    const readData = jest.spyOn(graphs.resources, 'readData');
    await modes(second, `${BASE}shared/doc`);
    expect(readData).not.toHaveBeenCalled();
    await graphs.putTriples(`${BASE}shared/.acl`, rule(`${BASE}shared/.acl#none`, [[ 'agent', OWNER ]], [ 'Read' ], [], [ `${BASE}shared/` ]));
    await first.changed();
    expect(await modes(second, `${BASE}shared/doc`)).toBe(` |  | ${BASE}shared/.acl`);
    expect(readData).toHaveBeenCalled();
    readData.mockRestore();
  });

  it('does not keep an ACL read while an ACL changed, even without a counter', async() => {
    const authorizer = new WebAclAuthorizer(BASE, graphs.resources);
    const gated = `${BASE}gated/.acl`;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached!: () => void;
    const held = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const readData = graphs.resources.readData.bind(graphs.resources);
    const spy = jest.spyOn(graphs.resources, 'readData').mockImplementation(async(iri: string) => {
      const answer = await readData(iri);
      if (iri === gated) {
        // Read before the change below, answered after it.
        reached();
        await gate;
      }
      return answer;
    });
    const first = modes(authorizer, `${BASE}gated/doc`);
    await held;
    await graphs.putTriples(gated, rule(`${gated}#owner`, [[ 'agent', OWNER ]], [ 'Read' ], [], [ `${BASE}gated/` ]));
    await authorizer.changed();
    release();
    // The answer under way may be either; what it read is not kept.
    await first;
    spy.mockRestore();
    expect(await modes(authorizer, `${BASE}gated/doc`, OWNER)).toBe(`read |  | ${gated}`);
  });
});
