/**
 * Fails when a new way for the server to make a request appears outside the outbound guard:
 * - in src/: any HTTP client (the global fetch, http(s).request/get, an Agent, net/tls connections,
 *   undici, node-fetch, cross-fetch, got, axios, ws, rdf-dereference, jose's remote key sets, the
 *   Solid token verifier, web-push's sendNotification) outside the modules listed below, each with why it may;
 * - in the named setups as compiled: a component of CSS that fetches on a request (client ID
 *   documents, Solid token verification, agent groups, remote JSON-LD contexts, the OpenID provider,
 *   webhook notifications) that is not Fedpod's guarded replacement or behind one.
 * When this fails: make the new request through OutboundGuard (src/plugins/outbound/) or RemoteFetcher,
 * add it to the table of docs/robustness.md#outbound-requests, and only then, if it truly cannot be
 * reached by a request, list it here with the reason.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../../../..');
const SRC = join(ROOT, 'src');

/** Modules that may make requests, and why. */
const ALLOWED: Record<string, string> = {
  'src/plugins/outbound/GuardedAgents.ts': 'the guard: agents that check each connection',
  'src/plugins/outbound/GuardedDispatcher.ts': 'the guard: the global fetch\'s dispatcher',
  'src/plugins/outbound/OutboundGuard.ts': 'the guard: its bounded GET through its own agents',
  'src/plugins/outbound/ProcessOutboundGuard.ts': 'the guard: the process-wide backstop',
  'src/plugins/activitypub/fetch/RemoteFetcher.ts': 'ActivityPub fetches and deliveries: the guard\'s lookup, every URL and redirect checked',
  'src/plugins/activitypub/fetch/OriginPools.ts': 'RemoteFetcher\'s delivery connections: opened by the guard\'s connector, for URLs RemoteFetcher checked',
  'src/handlers/auth/GuardedWebIdExtractors.ts': 'the Solid token verifier, given SolidOidcSources (the guard) for every fetch',
  'src/storage/HttpTransport.ts': 'the configured SPARQL store (a backend the operator chose), marked as such',
  'src/storage/StoreDump.ts': '`fedpod export`, its own process: the configured store',
  'src/cli/Preflight.ts': 'start-up: whether the configured store and Redis answer, before any request',
  'src/cli/WebhooksCommand.ts': '`fedpod webhooks`, its own process: the running server\'s local URL',
  'src/cli/ModerationCommand.ts': '`fedpod domain-blocks`, `accounts role`, `audit-log`, its own process: the running server\'s local URL',
  'src/cli/AccountsCommand.ts': '`fedpod accounts`, its own process: the running server\'s local URL',
  'src/handlers/mastodon/MastodonStreamingSocketHandler.ts': 'ws for its WebSocket type only: sockets clients opened to this server',
  'src/handlers/server/PausingWebSocketServerConfigurator.ts': 'ws as a server: it accepts sockets and opens none',
  'src/plugins/webhooks/WebhookCli.ts': '`fedpod webhooks`, its own process: whether the embedded store answers',
};

const CLIENT_MODULES = '(?:node:)?(?:http|https|net|tls|http2)';
const PATTERNS: [string, RegExp][] = [
  [ 'the global fetch', /(?<![\w.$]|async\s|function\s)fetch\s*\(/u ],
  [ 'http(s).request or .get', /\bhttps?\b\s*\)?\s*\.\s*(?:request|get)\s*\(/u ],
  [ 'a client function of node:http(s)/net/tls', new RegExp(`import\\s*\\{[^}]*\\b(?:request|get|connect|createConnection)\\b[^}]*\\}\\s*from\\s*'${CLIENT_MODULES}'`, 'u') ],
  [ 'an http(s) Agent', /new\s+(?:https?\.)?Agent\s*\(|createConnection/u ],
  [ 'a net/tls connection', /\b(?:net|tls)\.(?:connect|createConnection)\s*\(/u ],
  [ 'an HTTP client library', /(?:from\s+|require\(\s*)'(?:undici|node-fetch|cross-fetch|got|axios|ws|rdf-dereference|@solid\/access-token-verifier|isomorphic-fetch|superagent)'/u ],
  [ 'a remote key set or dataset', /\b(?:createRemoteJWKSet|fetchDataset)\b/u ],
  // web-push may build a push (generateRequestDetails); sending is RemoteFetcher's.
  [ 'web-push\'s own sender', /\bsendNotification\s*\(/u ],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name): string[] => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return sourceFiles(path);
    }
    return name.endsWith('.ts') ? [ path ] : [];
  });
}

/** The code without comments (strings kept: a module name is one). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//gu, '').replace(/(^|[^:'"`\\])\/\/.*$/gmu, '$1');
}

function findings(file: string): string[] {
  const text = code(readFileSync(file, 'utf8'));
  return PATTERNS.filter(([ , pattern ]): boolean => pattern.test(text)).map(([ what ]): string => what);
}

describe('requests the server can make', () => {
  const files = sourceFiles(SRC);

  it('are made only by the outbound guard and the modules listed with their reason', () => {
    const unguarded = files.map((file): [string, string[]] => [ relative(ROOT, file).split('\\').join('/'), findings(file) ])
      .filter(([ file, found ]): boolean => found.length > 0 && !(file in ALLOWED))
      .map(([ file, found ]): string => `${file}: ${found.join(', ')}`);
    expect(unguarded).toEqual([]);
  });

  it('lists no module that makes none (the list stays true)', () => {
    const stale = Object.keys(ALLOWED).filter((file): boolean => !existsSync(join(ROOT, file)) || findings(join(ROOT, file)).length === 0);
    expect(stale).toEqual([]);
  });

  it('would see each kind of request', () => {
    const samples = [
      'await fetch(url)', 'const r = await fetch(`x`)', 'http.request(options)', '(isHttps ? https : http).get(target)',
      'import { request } from \'node:https\';', 'new http.Agent({})', 'new Agent()', 'net.connect(443)',
      'import got from \'got\';', 'require(\'node-fetch\')', 'createRemoteJWKSet(new URL(x))', 'await fetchDataset(url)',
    ];
    for (const sample of samples) {
      expect([ sample, PATTERNS.some(([ , pattern ]): boolean => pattern.test(sample)) ]).toEqual([ sample, true ]);
    }
    for (const harmless of [ 'this.fetch(url)', 'private async fetch(url: string)', '// fetch(url) in a comment', 'cache.get(key)' ]) {
      expect([ harmless, PATTERNS.some(([ , pattern ]): boolean => pattern.test(code(harmless))) ]).toEqual([ harmless, false ]);
    }
  });
});

/** CSS components that fetch on a request, as CSS 7.2 makes them. */
const CSS_FETCHERS = [
  'ClientIdAdapterFactory', 'IdentityProviderFactory', 'DPoPWebIdExtractor', 'BearerWebIdExtractor', 'AgentGroupAccessChecker',
  'RdfToQuadConverter', 'TokenOwnershipValidator', 'SparqlDataAccessor', 'WebhookEmitter',
];

describe('the named setups, as compiled', () => {
  const compiledSetups = [ 'activitypub', 'ldp', 'ldp-sparql', 'ldp-wac' ].flatMap((setup): string[] =>
    [ 'local', 'redis' ].map((backend): string => `${setup}.${backend}`));
  it.each(compiledSetups)('%s makes none of CSS\'s fetching components unguarded', (setup) => {
    const file = join(ROOT, 'dist', 'compiled', `${setup}.js`);
    if (!existsSync(file)) {
      throw new Error(`${relative(ROOT, file)} is missing: run npm run build (npm test does)`);
    }
    const compiled = readFileSync(file, 'utf8');
    const unguarded: string[] = [];
    for (const name of CSS_FETCHERS) {
      const made = new RegExp(`const (\\w+) = new \\(require\\('@solid/community-server'\\)\\.${name}\\)`, 'gu');
      for (const match of compiled.matchAll(made)) {
        // CSS's webhook emitter is allowed only as the source of GuardedWebhookChannelEmitter, which checks each target first.
        const wrapped = name === 'WebhookEmitter' && compiled.includes(`GuardedWebhookChannelEmitter)(${match[1]},`);
        if (!wrapped) {
          unguarded.push(`${name} (${match[1]})`);
        }
      }
      if (new RegExp(`(?<!const \\w+ = )new \\(require\\('@solid/community-server'\\)\\.${name}\\)`, 'u').test(compiled)) {
        unguarded.push(`${name} (inline)`);
      }
    }
    expect(unguarded).toEqual([]);
    // The guarded ones are there (a setup without Solid-OIDC has no provider and no client IDs).
    expect(compiled).toContain('.GuardedDPoPWebIdExtractor)');
    expect(compiled).toContain('.BundledContextRdfToQuadConverter)');
  });
});
