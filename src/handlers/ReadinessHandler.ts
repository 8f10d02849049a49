import type { HttpHandlerInput } from '@solid/community-server';
import type { ReadinessCheck } from '../plugins/observability/ReadinessCheck';
import { sendJson } from './http/HttpUtil';
import { JsonHttpHandler } from './http/JsonHttpHandler';
import { NOT_HANDLED } from './http/NotHandled';
import { settleWithin } from '../util/Deadline';
import { messageOf } from '../util/Errors';

interface CheckResult {
  status: 'ok' | 'failed';
  message?: string;
}

/**
 * GET/HEAD /readyz: whether the server can serve now (readiness, for load balancers and orchestrators).
 * Runs every applicable check at once, each bounded by `timeoutMs` (a hung store gives 503, not a hung
 * probe): 200 `{ status: "ready", checks }` when all pass, else 503
 * `{ error: "not_ready", message: <the failing checks>, checks }`. Failure details go to the log;
 * the answer names only what failed and how (error, timeout). /healthz stays liveness only.
 */
export class ReadinessHandler extends JsonHttpHandler {
  private readonly checks: ReadinessCheck[];

  /**
   * @param checks - What must be working.
   * @param timeoutMs - Longest wait for one check.
   */
  public constructor(checks: ReadinessCheck[], private readonly timeoutMs = 3000) {
    super();
    this.checks = checks.filter((check): boolean => check.applies);
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ response }: HttpHandlerInput): Promise<void> {
    const results = await Promise.all(this.checks.map(async(check): Promise<[string, CheckResult]> =>
      [ check.name, await this.run(check) ]));
    const checks = Object.fromEntries(results);
    const failed = results.filter(([ , result ]): boolean => result.status !== 'ok').map(([ name ]): string => name);
    const headers = { 'cache-control': 'no-store' };
    if (failed.length === 0) {
      sendJson(response, 200, { status: 'ready', checks }, headers);
    } else {
      sendJson(response, 503, { error: 'not_ready', message: `Not ready: ${failed.join(', ')}`, checks }, headers);
    }
  }

  private async run(check: ReadinessCheck): Promise<CheckResult> {
    try {
      const outcome = await settleWithin(check.check().then((): 'ok' => 'ok'), this.timeoutMs, (): 'timeout' => 'timeout');
      if (outcome === 'timeout') {
        this.logger.warn(`Readiness: ${check.name} did not answer within ${this.timeoutMs} ms`);
        return { status: 'failed', message: `no answer within ${this.timeoutMs} ms` };
      }
      return { status: 'ok' };
    } catch (error: unknown) {
      this.logger.warn(`Readiness: ${check.name} failed: ${messageOf(error)}`);
      return { status: 'failed', message: 'error (see the server log)' };
    }
  }
}
