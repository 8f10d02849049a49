import type { IncomingMessage } from 'node:http';

const labels = new WeakMap<IncomingMessage, string>();

/**
 * The route template the request pipeline matched (`/objects/:id`, `/webhooks/:secret`), read by
 * RequestMonitor to label the request's log line and metrics: the route table names the request,
 * RouteTemplates only what no route matched.
 */
export const RouteLabels = {
  set(request: IncomingMessage, template: string): void {
    labels.set(request, template);
  },
  get(request: IncomingMessage): string | undefined {
    return labels.get(request);
  },
};
