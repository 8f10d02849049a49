interface CompiledTemplate {
  template: string;
  /** Literal segments; undefined where the template has a `:name` (any one non-empty segment). */
  segments: (string | undefined)[];
  /** Ends in `*`: any further segments (none included). */
  rest: boolean;
}

/** The label of every path no template matches. */
export const OTHER_ROUTE = 'other';

/**
 * Names the route of a request path by the first matching template, for logs and metrics, so their
 * label values stay few and never carry what a path holds (usernames, resource names, webhook secrets).
 * Templates are paths whose segments are literals, `:name` (one non-empty segment) or, last, `*`
 * (any further segments): `/actors/:user/inbox`, `/webhooks/:secret`, `/notes/*`. The query string
 * is ignored; a path no template matches is `other`.
 */
export class RouteTemplates {
  private readonly compiled: CompiledTemplate[];

  /**
   * @param templates - Tried in order; the first match names the route.
   */
  public constructor(templates: string[]) {
    this.compiled = templates.map((template): CompiledTemplate => RouteTemplates.compile(template));
  }

  /** The template of a request target (`request.url`), or `other`. */
  public classify(url: string | undefined): string {
    if (!url || url.charCodeAt(0) !== 47) {
      return OTHER_ROUTE;
    }
    const query = url.indexOf('?');
    const segments = (query < 0 ? url : url.slice(0, query)).split('/');
    for (const candidate of this.compiled) {
      if (RouteTemplates.matches(candidate, segments)) {
        return candidate.template;
      }
    }
    return OTHER_ROUTE;
  }

  private static matches(candidate: CompiledTemplate, segments: string[]): boolean {
    const expected = candidate.segments;
    if (candidate.rest ? segments.length < expected.length : segments.length !== expected.length) {
      return false;
    }
    for (let index = 0; index < expected.length; index += 1) {
      const literal = expected[index];
      const actual = segments[index];
      if (literal === undefined ? actual.length === 0 : literal !== actual) {
        return false;
      }
    }
    return true;
  }

  private static compile(template: string): CompiledTemplate {
    if (!template.startsWith('/')) {
      throw new Error(`Route template ${JSON.stringify(template)} must start with /`);
    }
    const parts = template.split('/');
    const rest = parts.at(-1) === '*';
    if (rest) {
      parts.pop();
    }
    if (parts.includes('*')) {
      throw new Error(`Route template ${JSON.stringify(template)}: * may only end it`);
    }
    return { template, rest, segments: parts.map((part): string | undefined => part.startsWith(':') ? undefined : part) };
  }
}
