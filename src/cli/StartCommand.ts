import { join, relative, resolve } from 'node:path';
import { StartupResponder } from '../handlers/server/StartupResponder';
import { installProcessOutboundGuard, processOutboundGuardProblems } from '../plugins/outbound/ProcessOutboundGuard';
import { SsrfGuard } from '../plugins/outbound/SsrfGuard';
import { withoutStackFrames } from '../util/Errors';
import { storeUrlsOf } from '../util/StoreUrls';
import { say, UsageError, useLogFormat } from './Console';
import type { FlagSpec } from './FlagSpec';
import { SERVER_FLAGS } from './Flags';
import { checkConfigFile, checkFlags, checkPortFree, checkReachable, chooseBackend } from './Preflight';
import type { Backend } from './Setups';
import { compiledSetup, configFileOf, ROOT, setupFilesOf } from './Setups';

type Argv = Record<string, unknown>;

/** What a started App can do (CSS's App). */
interface App {
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

/** The config variables the flags set as they are (their `variable`). */
function flagVariables(specs: readonly FlagSpec[], argv: Argv): Record<string, unknown> {
  return Object.fromEntries(specs.filter((spec): boolean => spec.variable !== undefined)
    .map((spec): [string, unknown] => [ spec.variable!, argv[spec.name] ]));
}

/**
 * Every flag of `fedpod start` checked before anything is loaded or written: values against their
 * declarations, the config file and its backend, the store and Redis reachable, the ports free.
 * Resolves with the backend.
 */
async function preflight(argv: Argv): Promise<Backend> {
  checkFlags(SERVER_FLAGS, argv);
  checkConfigFile(String(argv.config), configFileOf(String(argv.config)));
  const backend = chooseBackend(argv.backend, String(argv['redis-url']), configFileOf(String(argv.config)));
  if (!argv['queue-workers'] && backend !== 'redis') {
    throw new UsageError('--no-queue-workers needs the redis backend (--redis-url): the jobs this node accepts must reach the nodes that run them');
  }
  if (argv['sparql-endpoint']) {
    await checkReachable('sparql-endpoint', String(argv['sparql-endpoint']));
  }
  if (String(argv['redis-url']).trim()) {
    await checkReachable('redis-url', String(argv['redis-url']));
  }
  await checkPortFree('port', Number(argv.port), String(argv.host));
  if (!argv['sparql-endpoint']) {
    await checkPortFree('store-port', Number(argv['store-port']), '127.0.0.1');
  }
  return backend;
}

/** `fedpod start`: the server, on the embedded store unless --sparql-endpoint names one. */
export async function startServer(argv: Argv): Promise<void> {
  // The server's logger is told the format chosen, not `auto`.
  argv['log-format'] = useLogFormat(argv['log-format']);
  const backend = await preflight(argv);
  // Holds the port from now on, answering 503 until the server takes it over (see StartupResponder).
  const responder = new StartupResponder('starting');
  await responder.listen(Number(argv.port), String(argv.host));
  try {
    await startBehind(responder, argv, backend);
  } finally {
    // After a failure too, or the port would keep the process alive.
    await responder.close();
  }
}

/**
 * The App built from the config files by Components.js (a config the build did not compile). Made
 * without stack frames: a few components are errors made while the config is built (a handler's
 * fixed 405 or 415), and their frames would keep Components.js's loader with every resource of the
 * config for the server's life (some 50 MB of heap, marked again by every full collection). A
 * config that cannot be built still says why in its message.
 */
async function createFromConfig(config: string, backend: Backend, variables: Record<string, unknown>): Promise<App> {
  const { AppRunner } = await import('@solid/community-server');
  return withoutStackFrames(async(): Promise<App> => new AppRunner().create({
    loaderProperties: { mainModulePath: ROOT, dumpErrorState: false, typeChecking: false },
    config: setupFilesOf(config, backend),
    variableBindings: variables,
  }));
}

async function startBehind(responder: StartupResponder, argv: Argv, backend: Backend): Promise<void> {
  const baseUrl = String(argv['base-url'] || `http://localhost:${String(argv.port)}/`);
  const dataDir = resolve(String(argv['data-dir']));
  guardOutboundRequests(baseUrl, argv['allow-private-network'] === true);
  let storeStarting: Promise<{ url: string; stop: () => Promise<void> }> | undefined;
  let endpoint = String(argv['sparql-endpoint'] ?? '');
  if (!endpoint) {
    // The module itself, not the folder's index: that would load Oxigraph on this thread too, first.
    const { startEmbeddedStoreWorker } = await import('../storage/embedded/startEmbeddedStoreWorker');
    say(`starting the embedded triple store (data in ${join(dataDir, 'store')})`);
    responder.setPhase('store loading');
    // Not awaited yet: the store loads its data on its own thread while this one loads the setup.
    storeStarting = startEmbeddedStoreWorker({ host: '127.0.0.1', port: Number(argv['store-port']), dataDir: join(dataDir, 'store'),
      user: String(argv['sparql-user']), password: String(argv['sparql-password']),
      rebuildAfterRemovals: Number(argv['store-rebuild-after-removals']) }, undefined, (message): void => say(message));
    // Its failure is reported where it is awaited; this only keeps it from counting as unhandled meanwhile.
    storeStarting.catch((): void => undefined);
    // --store-port is never 0, so the address is known before the store answers.
    endpoint = `http://127.0.0.1:${Number(argv['store-port'])}`;
  }
  const store = storeUrlsOf(endpoint, String(argv.dataset));
  const configFile = configFileOf(String(argv.config));
  const variables: Record<string, unknown> = {
    ...flagVariables(SERVER_FLAGS, argv),
    'urn:solid-server:default:variable:baseUrl': baseUrl,
    // CSS's own logging variable; Fedpod's logger (config/parts/observability/logging.json) uses logLevel.
    'urn:solid-server:default:variable:loggingLevel': argv['log-level'] === 'info' ? 'warn' : argv['log-level'],
    'urn:solid-server:default:variable:showStackTrace': false,
    'urn:solid-server:default:variable:socket': null,
    'urn:solid-server:default:variable:workers': 1,
    'urn:solid-server:default:variable:confirmMigration': true,
    'urn:solid-server:default:variable:seedConfig': null,
    'urn:solid-server:default:variable:rootFilePath': dataDir,
    'urn:solid-server:default:variable:sparqlEndpoint': store.queryUrl,
    'urn:solid-server:default:variable:podConfigJson': join(dataDir, 'pod-config.json'),
    'urn:fedpod:default:variable:sparqlQueryUrl': store.queryUrl,
    'urn:fedpod:default:variable:sparqlUpdateUrl': store.updateUrl,
    'urn:fedpod:default:variable:sparqlAdminUrl': store.adminUrl,
    'urn:fedpod:default:variable:dataDir': dataDir,
  };
  const compiled = compiledSetup(String(argv.config), backend);
  say(`loading ${relative(process.cwd(), configFile) || configFile} on the ${backend} backend${compiled ? ' (compiled at build)' : ''} (store ${store.queryUrl})`);
  let app: App;
  if (compiled) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module made at build, found at run time
    app = (require(compiled) as (bindings: Record<string, unknown>) => App)(variables);
  } else {
    app = await createFromConfig(String(argv.config), backend, variables);
  }
  let embedded: { url: string; stop: () => Promise<void> } | undefined;
  if (storeStarting) {
    embedded = await storeStarting;
    say(`embedded store listening on ${embedded.url}`);
  }
  // The server binds the port during app.start(); until it does, connections are refused.
  await responder.close();
  say('initialising (dataset, containers)');
  await app.start();
  const unguarded = processOutboundGuardProblems();
  if (unguarded.length > 0) {
    await app.stop();
    throw new Error(`outbound requests are no longer guarded (${unguarded.join('; ')}): not serving`);
  }
  if (!baseUrl.startsWith('https://') && !String(argv.config).startsWith('ldp')) {
    // On this machine's own name (the default) it is a trial run, not a mistake: said, not warned.
    const local = [ 'localhost', '127.0.0.1', '[::1]' ].includes(new URL(baseUrl).hostname);
    say(`${local ? 'note' : 'warning'}: the base URL is not HTTPS; ActivityPub federation needs an HTTPS public URL ` +
      '(put a TLS proxy in front and set --base-url)', local ? 'info' : 'warn');
  }
  say(`ready: ${baseUrl} (listening on ${String(argv.host) || 'every interface'}, port ${String(argv.port)})`);
  stopOnSignal(app, embedded, Number(argv['shutdown-timeout']));
}

/**
 * Before anything of the setup is loaded: every HTTP request of this process that no component
 * guards itself (a library's, with Node's global agents, an agent of its own, or the global fetch)
 * goes through the outbound guard, refused to loopback, private and reserved addresses unless
 * --allow-private-network; the server's own origin is always reached. The SPARQL store's connections
 * (HttpTransport) and Redis's are the operator's and are left alone. See docs/robustness.md.
 */
function guardOutboundRequests(baseUrl: string, allowPrivateNetwork: boolean): void {
  installProcessOutboundGuard(new SsrfGuard(allowPrivateNetwork, [ baseUrl ]));
  say(`outbound requests: ${allowPrivateNetwork ? 'any address (--allow-private-network)' : 'public addresses only'}` +
    `, and this server (${new URL(baseUrl).origin})`);
}

/**
 * Graceful stop (config/parts/app/shutdown.json): the HTTP server drains, queue workers stop
 * (unfinished jobs stay queued), connections close, then the embedded store flushes and closes.
 * Exit 0 when all that is done, 1 when it fails or takes longer than `seconds`. A second signal
 * while stopping is left to Node's default: the process ends at once.
 */
function stopOnSignal(app: App, embedded: { stop: () => Promise<void> } | undefined, seconds: number): void {
  const stop = async(signal: string): Promise<void> => {
    say(`${signal}: stopping (at most ${seconds} s)`);
    const timer = setTimeout((): void => {
      process.stderr.write(`[fedpod] error: not stopped after ${seconds} s; exiting with code 1\n`);
      process.exit(1);
    }, seconds * 1000);
    timer.unref();
    let code = 0;
    for (const [ what, part ] of [ [ 'the server', app ], [ 'the embedded store', embedded ] ] as const) {
      try {
        await part?.stop();
      } catch (error: unknown) {
        process.stderr.write(`[fedpod] error: stopping ${what}: ${error instanceof Error && error.stack ? error.stack : String(error)}\n`);
        code = 1;
      }
    }
    say(code === 0 ? 'stopped' : 'stopped with errors');
    process.exit(code);
  };
  process.once('SIGTERM', (): void => void stop('SIGTERM'));
  process.once('SIGINT', (): void => void stop('SIGINT'));
}
