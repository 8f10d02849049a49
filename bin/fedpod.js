#!/usr/bin/env node
'use strict';
// Fedpod command line: `fedpod start` (the server), `fedpod store` (the embedded triple store alone).
// Every flag has an environment variable; flags win.
const path = require('node:path');
const yargs = require('yargs/yargs');
const { hideBin } = require('yargs/helpers');

const ROOT = path.join(__dirname, '..');

function storeOptions(y) {
  return y
    .option('data-dir', { type: 'string', default: process.env.FEDPOD_DATA_DIR || './data', describe: 'Keys, embedded store files, local queue journal' })
    .option('store-port', { type: 'number', default: Number(process.env.FEDPOD_STORE_PORT || 3030), describe: 'Port of the embedded store\'s HTTP face' })
    .option('sparql-user', { type: 'string', default: process.env.SPARQL_USER || 'admin', describe: 'Store user' })
    .option('sparql-password', { type: 'string', default: process.env.SPARQL_PASSWORD || 'admin', describe: 'Store password' })
    .option('log-level', { type: 'string', default: process.env.FEDPOD_LOG_LEVEL || 'info', choices: [ 'error', 'warn', 'info', 'debug' ] })
    .option('log-format', { type: 'string', default: process.env.FEDPOD_LOG_FORMAT || 'json', choices: [ 'json', 'pretty' ], describe: 'Logs on stdout: one JSON object a line, or readable lines for development' });
}

function serverOptions(y) {
  return storeOptions(y)
    .option('config', { type: 'string', default: process.env.FEDPOD_CONFIG || 'activitypub', describe: 'activitypub, ldp, or a path to a config file' })
    .option('port', { type: 'number', default: Number(process.env.PORT || 3000), describe: 'HTTP port' })
    .option('host', { type: 'string', default: process.env.FEDPOD_HOST || '', describe: 'Address the HTTP server binds (e.g. 127.0.0.1 behind a proxy); empty = every interface' })
    .option('base-url', { type: 'string', default: process.env.SERVICE_HOME_URL || '', describe: 'Public base URL (default http://localhost:<port>/)' })
    .option('sparql-endpoint', { type: 'string', default: process.env.SPARQL_ENDPOINT || '', describe: 'Triple store: a Fuseki base URL, or a SPARQL endpoint URL ending in /sparql; empty = embedded store' })
    .option('dataset', { type: 'string', default: process.env.SPARQL_DATASET || 'localData', describe: 'Dataset name (created at start-up on Fuseki-style stores)' })
    .option('redis-url', { type: 'string', default: process.env.REDIS_URL || '', describe: 'Redis for queues and locks; empty = local durable queue' })
    .option('queue-workers', { type: 'boolean', default: process.env.FEDPOD_QUEUE_WORKERS !== 'false', describe: 'Run queue jobs (deliveries, inbox, webhook actions) on this node; --no-queue-workers: only add them, for nodes that do (needs --redis-url)' })
    .option('allow-private-network', { type: 'boolean', default: process.env.FEDPOD_ALLOW_PRIVATE_NETWORK === 'true', describe: 'Let outbound requests reach loopback and private addresses' })
    .option('metrics', { type: 'boolean', default: process.env.FEDPOD_METRICS === 'true', describe: 'Serve Prometheus metrics at /metrics' })
    .option('metrics-token', { type: 'string', default: process.env.FEDPOD_METRICS_TOKEN || '', describe: 'Bearer token a /metrics scrape must present (empty: none)' })
    .option('max-body-size', { type: 'number', default: Number(process.env.FEDPOD_MAX_BODY_SIZE || 1048576), describe: 'Largest request body in bytes (413 above)' })
    .option('signature-scheme', { type: 'string', default: process.env.FEDPOD_SIGNATURE_SCHEME || 'cavage', choices: [ 'cavage', 'rfc9421' ], describe: 'HTTP signatures on deliveries: draft-cavage (as Mastodon), or RFC 9421 first with draft-cavage again when refused' })
    .option('token-lifetime', { type: 'number', default: Number(process.env.FEDPOD_TOKEN_LIFETIME || 604800), describe: 'Lifetime of issued tokens in seconds (default 7 days)' })
    .option('retry-base-delay', { type: 'number', default: process.env.FEDPOD_RETRY_BASE_DELAY === undefined ? undefined : Number(process.env.FEDPOD_RETRY_BASE_DELAY), describe: 'Wait in ms after a job\'s first failed run, doubling after each (default 30000); for tests and drills' })
    .option('container-page-size', { type: 'number', default: Number(process.env.FEDPOD_CONTAINER_PAGE_SIZE || 500), describe: 'Members per page of a container listing' })
    .option('shutdown-timeout', { type: 'number', default: Number(process.env.FEDPOD_SHUTDOWN_TIMEOUT || 20), describe: 'Seconds a graceful stop (SIGTERM, SIGINT) may take before the process exits with code 1' });
}

let logFormat = process.env.FEDPOD_LOG_FORMAT === 'pretty' ? 'pretty' : 'json';

/** A start-up line on stdout: a JSON log line like the server's (component "fedpod"), or readable text. */
function say(message, level = 'info') {
  process.stdout.write(logFormat === 'json' ?
    `${JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, component: 'fedpod', msg: message })}\n` :
    `[fedpod] ${message}\n`);
}

/** The setups in config/ (compiled at build by scripts/compile-configs.js). */
const NAMED_SETUPS = [ 'activitypub', 'ldp', 'ldp-sparql', 'ldp-wac' ];

function resolveConfig(name) {
  if (NAMED_SETUPS.includes(name)) {
    return path.join(ROOT, 'config', `${name}.json`);
  }
  return path.resolve(name);
}

/** The newest modification time (ms) of the files under `directory`. */
function newestChange(directory) {
  const fs = require('node:fs');
  let newest = 0;
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(file) : fs.statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * The compiled module of a named setup (dist/compiled/<name>.js, made by `npm run build`), when it
 * is newer than every config file and the components; otherwise undefined, and the config is read
 * with Components.js as it is (several seconds more).
 */
function compiledSetup(name) {
  const fs = require('node:fs');
  if (!NAMED_SETUPS.includes(name)) {
    return undefined;
  }
  const file = path.join(ROOT, 'dist', 'compiled', `${name}.js`);
  if (!fs.existsSync(file)) {
    return undefined;
  }
  const built = fs.statSync(file).mtimeMs;
  const sources = Math.max(newestChange(path.join(ROOT, 'config')), fs.statSync(path.join(ROOT, 'dist', 'components', 'components.jsonld')).mtimeMs);
  if (sources > built) {
    say(`config/ changed since dist/compiled/${name}.js was built: reading the config instead (npm run build makes start-up fast again)`, 'warn');
    return undefined;
  }
  return file;
}

/** Where queries, updates and (for Fuseki-style servers) the admin protocol live. */
function resolveStore(endpoint, dataset) {
  const url = new URL(endpoint);
  if (/\/sparql\/?$/u.test(url.pathname)) {
    return { queryUrl: url.href, updateUrl: url.href, adminUrl: '' };
  }
  const base = url.href.endsWith('/') ? url.href : `${url.href}/`;
  return { queryUrl: `${base}${dataset}/query`, updateUrl: `${base}${dataset}/update`, adminUrl: base };
}

/** An integer flag within bounds, or a UsageError naming the flag and what it takes. */
function checkInteger(argv, flag, min, max) {
  const value = argv[flag];
  if (value === undefined) {
    return;
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (got ${Number.isNaN(value) ? 'something that is not a number' : value})`);
  }
}

/** A URL flag with one of the given schemes, or a UsageError naming the flag. */
function checkUrl(argv, flag, schemes) {
  const value = argv[flag];
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${flag} must be a URL (${schemes.join(' or ')}), got ${JSON.stringify(value)}`);
  }
  if (!schemes.includes(url.protocol.slice(0, -1))) {
    throw new UsageError(`--${flag} must be a ${schemes.join(' or ')} URL, got ${JSON.stringify(value)}`);
  }
  return url;
}

/** Resolves when a TCP connection to host:port opens within `ms`; a UsageError naming the flag otherwise. */
function checkReachable(flag, value, host, port, ms = 3000) {
  const net = require('node:net');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, timeout: ms });
    const fail = (why) => {
      socket.destroy();
      reject(new UsageError(`--${flag} ${value}: cannot reach ${host}:${port} (${why})`));
    };
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('timeout', () => fail(`no answer in ${ms / 1000} s`));
    socket.once('error', (error) => fail(error.code || error.message));
  });
}

/** Resolves when `port` on `host` can be listened on now; a UsageError naming the flag otherwise. */
function checkPortFree(flag, port, host) {
  const net = require('node:net');
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error) => reject(new UsageError(error.code === 'EADDRINUSE' ?
      `--${flag} ${port}${host ? ` on ${host}` : ''} is in use by another process` :
      `--${flag} ${port}${host ? ` --host ${host}` : ''}: ${error.code || error.message}`)));
    probe.listen(port, host || undefined, () => probe.close(() => resolve()));
  });
}

/**
 * Every flag of `fedpod start` checked before anything is loaded or written: bad values, an
 * unreachable store or Redis, and a busy port are refused with the flag named.
 */
async function checkServerFlags(argv) {
  checkInteger(argv, 'port', 1, 65535);
  checkInteger(argv, 'store-port', 1, 65535);
  checkInteger(argv, 'max-body-size', 1, 2 ** 31);
  checkInteger(argv, 'container-page-size', 1, 100000);
  checkInteger(argv, 'token-lifetime', 60, 10 * 365 * 24 * 3600);
  checkInteger(argv, 'shutdown-timeout', 1, 3600);
  checkInteger(argv, 'retry-base-delay', 0, 24 * 3600 * 1000);
  if (argv['base-url']) {
    checkUrl(argv, 'base-url', [ 'http', 'https' ]);
  }
  const configFile = resolveConfig(argv.config);
  if (!require('node:fs').existsSync(configFile)) {
    throw new UsageError(`--config ${argv.config}: no such config (activitypub, ldp, ldp-sparql, ldp-wac, or a path to a config file)`);
  }
  if (argv['sparql-endpoint']) {
    const url = checkUrl(argv, 'sparql-endpoint', [ 'http', 'https' ]);
    await checkReachable('sparql-endpoint', argv['sparql-endpoint'], url.hostname.replace(/^\[|\]$/gu, ''),
      Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
  }
  if (argv['redis-url'].trim()) {
    const url = checkUrl({ 'redis-url': argv['redis-url'].trim() }, 'redis-url', [ 'redis', 'rediss' ]);
    await checkReachable('redis-url', argv['redis-url'], url.hostname.replace(/^\[|\]$/gu, '') || '127.0.0.1', Number(url.port || 6379));
  }
  await checkPortFree('port', argv.port, argv.host);
  if (!argv['sparql-endpoint']) {
    await checkPortFree('store-port', argv['store-port'], '127.0.0.1');
  }
}

async function startServer(argv) {
  logFormat = argv['log-format'];
  await checkServerFlags(argv);
  const baseUrl = argv['base-url'] || `http://localhost:${argv.port}/`;
  if (argv['retry-base-delay'] !== undefined) {
    // Read by the queue factory (RetryPolicy.baseDelayFromEnvironment); no config variable needed.
    process.env.FEDPOD_RETRY_BASE_DELAY = String(argv['retry-base-delay']);
  }
  if (!argv['queue-workers'] && !argv['redis-url'].trim()) {
    throw new UsageError('--no-queue-workers needs --redis-url: the jobs this node accepts must reach the nodes that run them');
  }
  const dataDir = path.resolve(argv['data-dir']);
  let embedded;
  let endpoint = argv['sparql-endpoint'];
  if (!endpoint) {
    const { startEmbeddedStoreWorker } = require(path.join(ROOT, 'dist', 'storage', 'embedded'));
    say(`starting the embedded triple store (data in ${path.join(dataDir, 'store')})`);
    embedded = await startEmbeddedStoreWorker({
      host: '127.0.0.1',
      port: argv['store-port'],
      dataDir: path.join(dataDir, 'store'),
      user: argv['sparql-user'],
      password: argv['sparql-password'],
    });
    endpoint = embedded.url;
    say(`embedded store listening on ${endpoint}`);
  }
  const store = resolveStore(endpoint, argv.dataset);
  const configFile = resolveConfig(argv.config);
  const variables = {
    'urn:solid-server:default:variable:port': argv.port,
    'urn:fedpod:default:variable:host': argv.host,
    'urn:solid-server:default:variable:baseUrl': baseUrl,
    // CSS's own logging variable; Fedpod's logger (config/parts/observability/logging.json) uses logLevel below.
    'urn:solid-server:default:variable:loggingLevel': argv['log-level'] === 'info' ? 'warn' : argv['log-level'],
    'urn:solid-server:default:variable:showStackTrace': false,
    'urn:solid-server:default:variable:socket': null,
    'urn:solid-server:default:variable:workers': 1,
    'urn:solid-server:default:variable:confirmMigration': true,
    'urn:solid-server:default:variable:seedConfig': null,
    'urn:solid-server:default:variable:rootFilePath': dataDir,
    'urn:solid-server:default:variable:sparqlEndpoint': store.queryUrl,
    'urn:solid-server:default:variable:podConfigJson': path.join(dataDir, 'pod-config.json'),
    'urn:fedpod:default:variable:sparqlQueryUrl': store.queryUrl,
    'urn:fedpod:default:variable:sparqlUpdateUrl': store.updateUrl,
    'urn:fedpod:default:variable:sparqlAdminUrl': store.adminUrl,
    'urn:fedpod:default:variable:sparqlDataset': argv.dataset,
    'urn:fedpod:default:variable:sparqlUser': argv['sparql-user'],
    'urn:fedpod:default:variable:sparqlPassword': argv['sparql-password'],
    'urn:fedpod:default:variable:maxBodyBytes': argv['max-body-size'],
    'urn:fedpod:default:variable:containerPageSize': argv['container-page-size'],
    'urn:fedpod:default:variable:dataDir': dataDir,
    'urn:fedpod:default:variable:tokenLifetime': argv['token-lifetime'],
    'urn:fedpod:default:variable:signatureScheme': argv['signature-scheme'],
    'urn:fedpod:default:variable:redisUrl': argv['redis-url'],
    'urn:fedpod:default:variable:queueWorkers': argv['queue-workers'],
    'urn:fedpod:default:variable:allowPrivateNetwork': argv['allow-private-network'],
    'urn:fedpod:default:variable:metricsEnabled': argv.metrics,
    'urn:fedpod:default:variable:metricsToken': argv['metrics-token'],
    'urn:fedpod:default:variable:logLevel': argv['log-level'],
    'urn:fedpod:default:variable:logFormat': argv['log-format'],
  };
  const compiled = compiledSetup(argv.config);
  say(`loading ${path.relative(process.cwd(), configFile) || configFile}${compiled ? ' (compiled at build)' : ''} (store ${store.queryUrl})`);
  let app;
  if (compiled) {
    app = require(compiled)(variables);
  } else {
    const { AppRunner } = require('@solid/community-server');
    app = await new AppRunner().create({
      loaderProperties: { mainModulePath: ROOT, dumpErrorState: false, typeChecking: false },
      config: configFile,
      variableBindings: variables,
    });
  }
  say('initialising (dataset, containers)');
  await app.start();
  if (!baseUrl.startsWith('https://') && !argv.config.startsWith('ldp')) {
    say('warning: the base URL is not HTTPS; ActivityPub federation needs an HTTPS public URL (put a TLS proxy in front and set --base-url)', 'warn');
  }
  say(`ready: ${baseUrl} (listening on ${argv.host || 'every interface'}, port ${argv.port})`);
  // Graceful stop (config/parts/util/shutdown.json): the HTTP server drains, queue workers stop
  // (unfinished jobs stay queued), connections close, then the embedded store flushes and closes.
  // Exit 0 when all that is done, 1 when it fails or takes longer than --shutdown-timeout.
  // A second signal while stopping is left to Node's default: the process ends at once.
  const stop = async(signal) => {
    const seconds = argv['shutdown-timeout'];
    say(`${signal}: stopping (at most ${seconds} s)`);
    const timer = setTimeout(() => {
      process.stderr.write(`[fedpod] error: not stopped after ${seconds} s; exiting with code 1\n`);
      process.exit(1);
    }, seconds * 1000);
    timer.unref();
    let code = 0;
    try {
      await app.stop();
    } catch (error) {
      process.stderr.write(`[fedpod] error: stopping the server: ${error && error.stack ? error.stack : error}\n`);
      code = 1;
    }
    try {
      if (embedded) {
        await embedded.stop();
      }
    } catch (error) {
      process.stderr.write(`[fedpod] error: stopping the embedded store: ${error && error.stack ? error.stack : error}\n`);
      code = 1;
    }
    say(code === 0 ? 'stopped' : 'stopped with errors');
    process.exit(code);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

async function runStore(argv) {
  logFormat = argv['log-format'];
  const { runEmbeddedStore } = require(path.join(ROOT, 'dist', 'storage', 'embedded'));
  const dataDir = path.resolve(argv['data-dir']);
  const running = await runEmbeddedStore({
    host: argv.host,
    port: argv['store-port'],
    dataDir: path.join(dataDir, 'store'),
    user: argv['sparql-user'],
    password: argv['sparql-password'],
    anonymousAccess: argv['anonymous-access'],
  });
  const stop = async() => {
    await running.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  say(`embedded store listening on ${running && running.url ? running.url : `http://${argv.host}:${argv['store-port']}/`} (data in ${path.join(dataDir, 'store')})`);
}

/** `<data-dir>/operator.json` of a server that ran on this data directory, or undefined (see OperatorSecret). */
function readOperatorFile(dataDir) {
  try {
    return JSON.parse(require('node:fs').readFileSync(path.join(dataDir, 'operator.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A webhooks command answered by the running server (its operator routes, with the secret it wrote
 * to the data directory): fast, and every URI minted under the server's own base URL. Resolves
 * with the exit code, or with undefined when no server answers there.
 */
async function askRunningServer(operator, command, argv) {
  const url = new URL('operator/webhooks', operator.localUrl);
  const options = { headers: { authorization: `Bearer ${operator.secret}`, 'content-type': 'application/json' },
    signal: AbortSignal.timeout(10000) };
  if (command === 'list' && argv.user) {
    url.searchParams.set('user', argv.user);
  }
  if (command === 'generate') {
    Object.assign(options, { method: 'POST', body: JSON.stringify({ user: argv.user, action: argv.action }) });
  } else if (command === 'revoke') {
    Object.assign(options, { method: 'DELETE', body: JSON.stringify({ uri: argv.uri }) });
  }
  let answer;
  try {
    answer = await fetch(url, options);
  } catch (error) {
    const code = error && error.cause && error.cause.code;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET') {
      return undefined;
    }
    throw new UsageError(`the server at ${operator.localUrl} (pid ${operator.pid}) did not answer: ${code || error.message}`);
  }
  const body = await answer.json().catch(() => ({}));
  if (answer.status === 404 && body.error === 'not_found') {
    // Another server now holds that port, or this one no longer reads that secret.
    return undefined;
  }
  if (!answer.ok) {
    process.stderr.write(`fedpod webhooks ${command}: ${body.message || `HTTP ${answer.status}`}\n`);
    return 1;
  }
  if (command === 'generate') {
    process.stdout.write(`${body.id}\n`);
  } else if (command === 'list') {
    for (const record of body) {
      process.stdout.write(`${[ record.iri, record.user, record.action, record.created ].join('\t')}\n`);
    }
  } else {
    process.stdout.write(`revoked ${body.iri} (${body.action} for ${body.user})\n`);
  }
  return 0;
}

/**
 * `fedpod webhooks <command>`: the operator's console for incoming webhooks. Asks the server running
 * on the data directory when there is one; otherwise opens the data directory itself (slower: it
 * loads the server's config; src/plugins/webhooks/WebhookCli.ts), minting under the base URL the
 * server last used there unless --base-url says otherwise.
 */
async function runWebhooks(command, argv) {
  const dataDir = path.resolve(argv['data-dir']);
  const operator = readOperatorFile(dataDir);
  if (command !== 'dead-letters') {
    if (operator) {
      const code = await askRunningServer(operator, command, argv);
      if (code !== undefined) {
        process.exit(code);
      }
      process.stderr.write(`fedpod webhooks: no server answers at ${operator.localUrl} (the one that last ran on ${dataDir}); working on the data directory directly\n`);
    } else {
      process.stderr.write(`fedpod webhooks: no running server found for ${dataDir}; working on the data directory directly\n`);
    }
  }
  const port = argv.port;
  const { runWebhookCommand } = require(path.join(ROOT, 'dist', 'plugins', 'webhooks', 'WebhookCli'));
  return runWebhookCommand({
    command,
    user: argv.user,
    action: argv.action,
    uri: argv.uri,
    limit: argv.limit,
    root: ROOT,
    configFile: resolveConfig(argv.config),
    baseUrl: argv['base-url'] || (operator && operator.baseUrl) || `http://localhost:${port}/`,
    dataDir,
    sparqlEndpoint: argv['sparql-endpoint'],
    dataset: argv.dataset,
    storePort: argv['store-port'],
    sparqlUser: argv['sparql-user'],
    sparqlPassword: argv['sparql-password'],
    redisUrl: argv['redis-url'],
    tokenLifetime: argv['token-lifetime'],
  }).then((code) => process.exit(code));
}

function webhookCommands(y) {
  return y
    .command('generate', 'Generate a webhook for a user and an action; prints its URI',
      (c) => serverOptions(c)
        .option('user', { type: 'string', demandOption: true, describe: 'Username or WebID' })
        .option('action', { type: 'string', demandOption: true, describe: 'One of the allowed actions' }),
      (argv) => runWebhooks('generate', argv).catch(fail))
    .command('list', 'List webhooks (record IRIs: the URIs themselves are never stored)',
      (c) => serverOptions(c).option('user', { type: 'string', describe: 'Only this user\'s (username or WebID)' }),
      (argv) => runWebhooks('list', argv).catch(fail))
    .command('revoke <uri>', 'Revoke a webhook, given by its URI or its record IRI',
      (c) => serverOptions(c).positional('uri', { type: 'string' }),
      (argv) => runWebhooks('revoke', argv).catch(fail))
    .command('dead-letters', 'Show webhook jobs that failed for good (JSON lines, newest first)',
      (c) => serverOptions(c).option('limit', { type: 'number', default: 100 }),
      (argv) => runWebhooks('dead-letters', argv).catch(fail))
    .demandCommand(1, 'Name a webhooks command: generate, list, revoke or dead-letters');
}

/** A wrong combination of flags: said in one line, without a stack. */
class UsageError extends Error {}

function fail(error) {
  process.stderr.write(`[fedpod] error: ${error instanceof UsageError ? error.message : error && error.stack ? error.stack : error}\n`);
  process.exit(1);
}

yargs(hideBin(process.argv))
  .scriptName('fedpod')
  // A flag given twice (e.g. once in a wrapper script, once by hand): the last one wins, as in most tools.
  .parserConfiguration({ 'duplicate-arguments-array': false })
  .command([ 'start', '$0' ], 'Run the server', serverOptions, (argv) => startServer(argv).catch(fail))
  .command('store', 'Run the embedded triple store alone (Fuseki-compatible HTTP face)',
    (y) => storeOptions(y)
      .option('host', { type: 'string', default: '127.0.0.1' })
      .option('anonymous-access', { type: 'string', default: 'none', choices: [ 'none', 'read', 'all' ],
        describe: 'What requests without credentials may do (all: for clients that send no basic auth, such as stock CSS)' }),
    (argv) => runStore(argv).catch(fail))
  .command('webhooks', 'Incoming webhooks: generate, list, revoke, dead-letters (works while the server runs)', webhookCommands)
  .strict()
  .help()
  .parse();
