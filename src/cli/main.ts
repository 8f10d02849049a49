import type { Argv } from 'yargs';
import yargs from 'yargs/yargs';
import { hideBin } from 'yargs/helpers';
import { fail } from './Console';
import type { FlagSpec } from './FlagSpec';
import { yargsOption } from './FlagSpec';
import { MOVE_FLAGS, SERVER_FLAGS, STORE_FLAGS } from './Flags';
import type { WebhooksCommandName } from './WebhooksCommand';
import type { ModerationCommandName } from './ModerationCommand';
import type { AccountsCommandName } from './AccountsCommand';

/** The flags of `specs` on a yargs command. */
function withFlags<T>(builder: Argv<T>, specs: readonly FlagSpec[]): Argv<T> {
  return specs.reduce((current, spec): Argv<T> => current.option(spec.name, yargsOption(spec)), builder);
}

function webhooks(command: WebhooksCommandName): (argv: Record<string, unknown>) => void {
  return (argv): void => {
    // Loaded on use: `fedpod webhooks` must not pay for the server's modules.
    void import('./WebhooksCommand').then(async({ runWebhooks }): Promise<never> => process.exit(await runWebhooks(command, argv)))
      .catch(fail);
  };
}

function moderation(command: ModerationCommandName): (argv: Record<string, unknown>) => void {
  return (argv): void => {
    void import('./ModerationCommand').then(async({ runModeration }): Promise<never> => process.exit(await runModeration(command, argv)))
      .catch(fail);
  };
}

function accounts(command: AccountsCommandName): (argv: Record<string, unknown>) => void {
  return (argv): void => {
    void import('./AccountsCommand').then(async({ runAccounts }): Promise<never> => process.exit(await runAccounts(command, argv)))
      .catch(fail);
  };
}

/** The account actions of `fedpod accounts`, as the admin API names them, with what each does. */
const ACCOUNT_ACTIONS: [string, string][] = [
  [ 'suspend', 'refused everywhere, its data kept' ], [ 'unsuspend', 'lifts a suspension' ],
  [ 'silence', 'out of public timelines' ], [ 'unsilence', 'lifts it' ], [ 'sensitive', 'its media shown as sensitive' ],
  [ 'unsensitive', 'lifts it' ], [ 'disable', 'a local account cannot log in' ], [ 'enable', 'lifts it' ],
];

/** The flags of the moderation commands: only where the running server's data directory is. */
const DATA_DIR = STORE_FLAGS.filter((spec): boolean => spec.name === 'data-dir');

/** Runs `fedpod export` or `fedpod import`, loaded on use, and exits with its code. */
function move(command: 'export' | 'import'): (argv: Record<string, unknown>) => void {
  return (argv): void => {
    const running = command === 'export' ?
      import('./ExportCommand').then(async({ runExport }): Promise<number> => runExport(argv)) :
      import('./ImportCommand').then(async({ runImport }): Promise<number> => runImport(argv));
    void running.then((code): never => process.exit(code)).catch(fail);
  };
}

/**
 * The `fedpod` command line: `start` (the server), `store` (the embedded store alone), `webhooks`
 * (the operator's console), and `export` / `import` (an installation's data, to move it to another store). Every flag is declared once (./Flags.ts), with its environment variable;
 * flags win. Commands load what they need when they run, so `--help` and `webhooks` stay fast.
 */
export function main(args: string[] = hideBin(process.argv)): void {
  void yargs(args)
    .scriptName('fedpod')
    // A flag given twice (once in a wrapper script, once by hand): the last one wins, as in most tools.
    .parserConfiguration({ 'duplicate-arguments-array': false })
    .command([ 'start', '$0' ], 'Run the server', (builder) => withFlags(builder, SERVER_FLAGS), (argv): void => {
      void import('./StartCommand').then(async({ startServer }): Promise<void> => startServer(argv)).catch(fail);
    })
    .command('store', 'Run the embedded triple store alone (Fuseki-compatible HTTP face)', (builder) => withFlags(builder, STORE_FLAGS)
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address the store binds' })
      .option('anonymous-access', { type: 'string', default: 'none', choices: [ 'none', 'read', 'all' ],
        describe: 'What requests without credentials may do (all: for clients that send no basic auth, such as stock CSS)' }),
    (argv): void => {
      void import('./StoreCommand').then(async({ runStore }): Promise<void> => runStore(argv)).catch(fail);
    })
    .command('webhooks', 'Incoming webhooks: generate, list, revoke, dead-letters (asks the running server when there is one)',
      (builder) => builder
        .command('generate', 'Generate a webhook for a user and an action; prints its URI', (sub) => withFlags(sub, SERVER_FLAGS)
          .option('user', { type: 'string', demandOption: true, describe: 'Username or WebID' })
          .option('action', { type: 'string', demandOption: true, describe: 'One of the allowed actions' }), webhooks('generate'))
        .command('list', 'List webhooks (record IRIs: the URIs themselves are never stored)', (sub) => withFlags(sub, SERVER_FLAGS)
          .option('user', { type: 'string', describe: 'Only this user\'s (username or WebID)' }), webhooks('list'))
        .command('revoke <uri>', 'Revoke a webhook, given by its URI or its record IRI', (sub) => withFlags(sub, SERVER_FLAGS)
          .positional('uri', { type: 'string' }), webhooks('revoke'))
        .command('dead-letters', 'Show webhook jobs that failed for good (JSON lines, newest first)', (sub) => withFlags(sub, SERVER_FLAGS)
          .option('limit', { type: 'number', default: 100 }), webhooks('dead-letters'))
        .demandCommand(1, 'Name a webhooks command: generate, list, revoke or dead-letters'))
    .command('domain-blocks', 'Domain blocks (defederation): list, add, remove, import, export (Mastodon\'s CSV); asks the running server',
      (builder) => builder
        .command('list', 'List the blocks (domain, severity, reject_media, public and private comment)', (sub) => withFlags(sub, DATA_DIR),
          moderation('domain-blocks list'))
        .command('add <domain>', 'Block a domain and its subdomains, or change its block', (sub) => withFlags(sub, DATA_DIR)
          .positional('domain', { type: 'string' })
          .option('severity', { type: 'string', choices: [ 'noop', 'silence', 'suspend' ], describe: 'suspend: no federation at all; ' +
            'silence: out of public timelines; noop: only the other options (default: silence, or what the block had)' })
          .option('reject-media', { type: 'boolean', describe: 'Their media not cached or shown' })
          .option('reject-reports', { type: 'boolean', describe: 'Their reports ignored' })
          .option('public-comment', { type: 'string', describe: 'Shown to everyone with the block' })
          .option('private-comment', { type: 'string', describe: 'For operators only' })
          .option('obfuscate', { type: 'boolean', describe: 'Star out part of the domain where it is shown publicly' }),
        moderation('domain-blocks add'))
        .command('remove <domain>', 'Remove the block of a domain', (sub) => withFlags(sub, DATA_DIR)
          .positional('domain', { type: 'string' }), moderation('domain-blocks remove'))
        .command('import <file>', 'Add or change the blocks of a CSV file (Mastodon\'s export: #domain,#severity,...)',
          (sub) => withFlags(sub, DATA_DIR).positional('file', { type: 'string' }), moderation('domain-blocks import'))
        .command('export', 'Print the blocks as Mastodon\'s CSV', (sub) => withFlags(sub, DATA_DIR), moderation('domain-blocks export'))
        .demandCommand(1, 'Name a domain-blocks command: list, add, remove, import or export'))
    .command('accounts', 'Accounts: the approval queue, password resets, invite codes and roles (asks the running server)',
      (builder) => builder
        .command('pending', 'List the accounts awaiting approval (JSON lines)', (sub) => withFlags(sub, STORE_FLAGS), accounts('pending'))
        .command('approve <user>', 'Approve a pending account: it may log in', (sub) => withFlags(sub, STORE_FLAGS)
          .positional('user', { type: 'string' }), accounts('approve'))
        .command('reject <user>', 'Reject a pending account: it is removed, its name free again', (sub) => withFlags(sub, STORE_FLAGS)
          .positional('user', { type: 'string' }), accounts('reject'))
        .command('reset-password <user>', 'Give an account a new random password (printed) and revoke all its tokens', (sub) => withFlags(sub, STORE_FLAGS)
          .positional('user', { type: 'string' }), accounts('reset-password'))
        .command('delete <user>', 'Delete an account: its Delete sent to the servers that knew it, its data removed, its name never reused; finishes an interrupted deletion', (sub) => withFlags(sub, STORE_FLAGS)
          .positional('user', { type: 'string' }), accounts('delete'))
        .command('invite', 'Make an invite code; prints the code', (sub) => withFlags(sub, STORE_FLAGS)
          .option('max-uses', { type: 'number', describe: 'Signups it admits (default: any number)' })
          .option('expires-in', { type: 'number', describe: 'Seconds it stays valid (default: for ever)' }), accounts('invite'))
        .command('invites', 'List the invite codes with their uses (JSON lines)', (sub) => withFlags(sub, STORE_FLAGS), accounts('invites'))
        .command('role <user> <role>', 'Give a local account the operator role, or take it (none)', (sub) => withFlags(sub, DATA_DIR)
          .positional('user', { type: 'string' })
          .positional('role', { type: 'string', choices: [ 'operator', 'none' ] }), moderation('accounts role'))
        .command(ACCOUNT_ACTIONS.map(([ name ]): string => `${name} <account>`), 'Moderate an account (a local username or a remote actor IRI): '
          + ACCOUNT_ACTIONS.map(([ name, what ]): string => `${name} (${what})`).join(', '), (sub) => withFlags(sub, DATA_DIR)
          .positional('account', { type: 'string' })
          .option('report', { type: 'string', describe: 'The report the action is taken from (resolves it)' }),
        (argv): void => moderation('accounts action')({ ...argv, action: String(argv._[1]) }))
        .demandCommand(1, 'Name an accounts command: pending, approve, reject, reset-password, delete, invite, invites, role, or an action such as suspend'))
    .command('reports', 'The report queue: users\' reports and other servers\' Flags (asks the running server)', (builder) => builder
      .command('list', 'The open reports, newest first (id, time, state, category, account, reporter, comment)', (sub) => withFlags(sub, DATA_DIR)
        .option('all', { type: 'boolean', default: false, describe: 'Resolved ones too' }), moderation('reports list'))
      .command('show <id>', 'One report (JSON)', (sub) => withFlags(sub, DATA_DIR).positional('id', { type: 'string' }), moderation('reports show'))
      .command('resolve <id>', 'Mark a report resolved', (sub) => withFlags(sub, DATA_DIR).positional('id', { type: 'string' }),
        moderation('reports resolve'))
      .command('reopen <id>', 'Open a resolved report again', (sub) => withFlags(sub, DATA_DIR).positional('id', { type: 'string' }),
        moderation('reports reopen'))
      .demandCommand(1, 'Name a reports command: list, show, resolve or reopen'))
    .command('audit-log', 'The moderation actions, newest first (when, who, what, to what)', (builder) => withFlags(builder, DATA_DIR)
      .option('limit', { type: 'number', default: 100 }), moderation('audit-log'))
    .command('export', 'Write the store\'s quads (dataset.nq), the files of non-RDF resources and a manifest to a directory',
      (builder) => withFlags(builder, MOVE_FLAGS)
        .option('out', { type: 'string', demandOption: true, describe: 'Directory to write (new or empty)' })
        .example('$0 export --data-dir ./data --out ./export', 'the embedded store of a stopped server')
        .example('$0 export --sparql-endpoint http://127.0.0.1:3030/ --out ./export', 'a Fuseki-style store (or a running server\'s embedded one)'),
      move('export'))
    .command('import', 'Load a directory written by `fedpod export` into an empty store, and its files into --data-dir',
      (builder) => withFlags(builder, MOVE_FLAGS)
        .option('in', { type: 'string', demandOption: true, describe: 'Directory written by fedpod export' })
        .option('force', { type: 'boolean', default: false, describe: 'Import even when the store holds data: the graphs of the export are replaced' })
        .example('$0 import --in ./export --sparql-endpoint http://fuseki:3030/ --data-dir /srv/fedpod', 'into Fuseki (dataset localData)'),
      move('import'))
    .strict()
    .help()
    .parse();
}
