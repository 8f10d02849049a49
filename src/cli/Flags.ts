import type { FlagSpec } from './FlagSpec';

const FEDPOD = 'urn:fedpod:default:variable:';

/** Flags of every command that opens a data directory or its embedded store. */
export const STORE_FLAGS: FlagSpec[] = [
  { name: 'data-dir', type: 'string', env: 'FEDPOD_DATA_DIR', default: './data', describe: 'Keys, accounts, embedded store files, local queue journals' },
  { name: 'store-port', type: 'number', env: 'FEDPOD_STORE_PORT', default: 3030, range: [ 1, 65535 ], describe: 'Port of the embedded store\'s HTTP face' },
  { name: 'store-rebuild-after-removals', type: 'number', env: 'FEDPOD_STORE_REBUILD_AFTER_REMOVALS', default: 1000, range: [ 0, 1_000_000_000 ],
    describe: 'Rebuild the embedded store in memory after this many overwrites and deletes (it keeps what they removed until then); 0 = never' },
  { name: 'sparql-user', type: 'string', env: 'SPARQL_USER', default: 'admin', describe: 'Store user', variable: `${FEDPOD}sparqlUser` },
  { name: 'sparql-password', type: 'string', env: 'SPARQL_PASSWORD', default: 'admin', describe: 'Store password', variable: `${FEDPOD}sparqlPassword` },
  { name: 'log-level', type: 'string', env: 'FEDPOD_LOG_LEVEL', default: 'info', choices: [ 'error', 'warn', 'info', 'debug' ], describe: 'Log level',
    variable: `${FEDPOD}logLevel` },
  { name: 'log-format', type: 'string', env: 'FEDPOD_LOG_FORMAT', default: 'auto', choices: [ 'auto', 'json', 'pretty' ],
    describe: 'Logs on stdout: readable lines on a terminal and JSON lines elsewhere (auto), or always json or pretty',
    variable: `${FEDPOD}logFormat` },
];

/** Flags of `fedpod start` (and of the webhooks commands, which read the same data). */
export const SERVER_FLAGS: FlagSpec[] = [
  ...STORE_FLAGS,
  { name: 'config', type: 'string', env: 'FEDPOD_CONFIG', default: 'activitypub', describe: 'activitypub, ldp, ldp-sparql, ldp-wac, or a path to a config file' },
  { name: 'port', type: 'number', env: 'PORT', default: 3000, range: [ 1, 65535 ], describe: 'HTTP port', variable: 'urn:solid-server:default:variable:port' },
  { name: 'host', type: 'string', env: 'FEDPOD_HOST', default: '', describe: 'Address the HTTP server binds (e.g. 127.0.0.1 behind a proxy); empty = every interface',
    variable: `${FEDPOD}host` },
  { name: 'base-url', type: 'string', env: 'SERVICE_HOME_URL', default: '', schemes: [ 'http', 'https' ], describe: 'Public base URL (default http://localhost:<port>/)' },
  { name: 'sparql-endpoint', type: 'string', env: 'SPARQL_ENDPOINT', default: '', schemes: [ 'http', 'https' ],
    describe: 'Triple store: a Fuseki base URL, or a SPARQL endpoint URL ending in /sparql; empty = embedded store' },
  { name: 'dataset', type: 'string', env: 'SPARQL_DATASET', default: 'localData', describe: 'Dataset name (created at start-up on Fuseki-style stores)',
    variable: `${FEDPOD}sparqlDataset` },
  { name: 'redis-url', type: 'string', env: 'REDIS_URL', default: '', schemes: [ 'redis', 'rediss' ],
    describe: 'Redis of the redis backend (queues, locks and change counters shared by every node)', variable: `${FEDPOD}redisUrl` },
  { name: 'backend', type: 'string', env: 'FEDPOD_BACKEND', choices: [ 'local', 'redis' ],
    describe: 'Where queues, locks and change counters live (config/parts/backend/): local (the data directory and memory, one node) or ' +
      'redis (--redis-url); default: redis when --redis-url is given, else local; a config that imports a backend part has that one' },
  { name: 'queue-workers', type: 'boolean', env: 'FEDPOD_QUEUE_WORKERS', default: true,
    describe: 'Run queue jobs (deliveries, inbox, webhook actions) on this node; --no-queue-workers: only add them, for nodes that do (needs the redis backend)',
    variable: `${FEDPOD}queueWorkers` },
  { name: 'allow-private-network', type: 'boolean', env: 'FEDPOD_ALLOW_PRIVATE_NETWORK', default: false,
    describe: 'Let outbound requests reach loopback and private addresses', variable: `${FEDPOD}allowPrivateNetwork` },
  { name: 'metrics', type: 'boolean', env: 'FEDPOD_METRICS', default: false, describe: 'Serve Prometheus metrics at /metrics', variable: `${FEDPOD}metricsEnabled` },
  { name: 'metrics-token', type: 'string', env: 'FEDPOD_METRICS_TOKEN', default: '', describe: 'Bearer token a /metrics scrape must present (empty: none)',
    variable: `${FEDPOD}metricsToken` },
  { name: 'max-body-size', type: 'number', env: 'FEDPOD_MAX_BODY_SIZE', default: 1048576, range: [ 1, 2 ** 31 ], describe: 'Largest request body in bytes (413 above)',
    variable: `${FEDPOD}maxBodyBytes` },
  { name: 'max-inbox-backlog', type: 'number', env: 'FEDPOD_MAX_INBOX_BACKLOG', default: 20000, range: [ 0, 2 ** 31 ],
    describe: 'Received activities waiting to be processed (every node\'s) past which deliveries get 503 with Retry-After: 30', variable: `${FEDPOD}maxInboxBacklog` },
  { name: 'registrations', type: 'string', env: 'FEDPOD_REGISTRATIONS', default: 'open', choices: [ 'open', 'approval', 'invite', 'closed' ],
    describe: 'Who may sign up: anyone (open), anyone once the operator approves (approval), holders of an invite code (invite), nobody (closed)',
    variable: `${FEDPOD}registrations` },
  { name: 'invite-creators', type: 'string', env: 'FEDPOD_INVITE_CREATORS', default: 'users', choices: [ 'users', 'operators' ],
    describe: 'Who makes invite codes: every local user and the operator (users), or the operator only (operators)', variable: `${FEDPOD}inviteCreators` },
  { name: 'smtp-url', type: 'string', env: 'FEDPOD_SMTP_URL', default: '', schemes: [ 'smtp', 'smtps' ],
    describe: 'SMTP server for the server\'s mail (smtp://user:password@host:587, smtps://...:465); set: signups confirm their email by a link before they log in',
    variable: `${FEDPOD}smtpUrl` },
  { name: 'smtp-from', type: 'string', env: 'FEDPOD_SMTP_FROM', default: '', describe: 'From address of the server\'s mail (default fedpod@<host of --base-url>)',
    variable: `${FEDPOD}smtpFrom` },
  { name: 'rate-limits', type: 'boolean', env: 'FEDPOD_RATE_LIMITS', default: true,
    describe: 'Rate limits of logins, signups, tokens, passwords and writes (config/parts/http/rate-limits.json); --no-rate-limits: none, for load tests',
    variable: `${FEDPOD}rateLimits` },
  { name: 'trust-proxy', type: 'boolean', env: 'FEDPOD_TRUST_PROXY', default: false,
    describe: 'Behind a reverse proxy: take the client\'s address (rate limits per address) from the last X-Forwarded-For entry', variable: `${FEDPOD}trustProxy` },
  { name: 'signature-scheme', type: 'string', env: 'FEDPOD_SIGNATURE_SCHEME', default: 'cavage', choices: [ 'cavage', 'rfc9421' ],
    describe: 'HTTP signatures on deliveries: draft-cavage (as Mastodon), or RFC 9421 first with draft-cavage again when refused', variable: `${FEDPOD}signatureScheme` },
  { name: 'token-lifetime', type: 'number', env: 'FEDPOD_TOKEN_LIFETIME', default: 604800, range: [ 60, 10 * 365 * 24 * 3600 ],
    describe: 'Lifetime of issued tokens in seconds (default 7 days)', variable: `${FEDPOD}tokenLifetime` },
  { name: 'retry-base-delay', type: 'number', env: 'FEDPOD_RETRY_BASE_DELAY', default: 30000, range: [ 0, 24 * 3600 * 1000 ],
    describe: 'Wait in ms after a job\'s first failed run, doubling after each; shorter for tests and drills', variable: `${FEDPOD}retryBaseDelay` },
  { name: 'job-lock-duration', type: 'number', env: 'FEDPOD_JOB_LOCK_DURATION', default: 30000, range: [ 1000, 3600 * 1000 ],
    describe: 'redis backend: ms a worker\'s claim on a running job lasts unrenewed, and how often workers look for claims that lapsed ' +
      '(a killed node\'s jobs run again within twice this); shorter for tests and drills', variable: `${FEDPOD}jobLockDuration` },
  { name: 'owner-webid', type: 'string', env: 'FEDPOD_OWNER_WEBID', default: '',
    describe: 'ldp-wac: WebID(s), space or comma separated, given full control in the root ACL made at first start-up; empty = nobody writes',
    variable: `${FEDPOD}ownerWebIds` },
  { name: 'container-page-size', type: 'number', env: 'FEDPOD_CONTAINER_PAGE_SIZE', default: 500, range: [ 1, 100000 ], describe: 'Members per page of a container listing',
    variable: `${FEDPOD}containerPageSize` },
  { name: 'shutdown-timeout', type: 'number', env: 'FEDPOD_SHUTDOWN_TIMEOUT', default: 20, range: [ 1, 3600 ],
    describe: 'Seconds a graceful stop (SIGTERM, SIGINT) may take before the process exits with code 1' },
];

/** Flags of `fedpod export` and `fedpod import`: the data directory, and the store (external, or its embedded one). */
export const MOVE_FLAGS: FlagSpec[] = [
  ...SERVER_FLAGS.filter((spec): boolean =>
    [ 'data-dir', 'sparql-endpoint', 'dataset', 'sparql-user', 'sparql-password', 'log-format' ].includes(spec.name)),
  { name: 'batch-size', type: 'number', default: 5000, range: [ 1, 1_000_000 ],
    describe: 'Quads per request to the store (import: per write; export from a plain SPARQL endpoint: per answer)' },
];
