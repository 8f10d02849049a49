/** How many jobs a queue holds, by state. */
export interface JobQueueCounts {
  /** Due now, not running. */
  waiting: number;
  /** Running in a handler. */
  active: number;
  /** Waiting for a delay or a retry backoff. */
  delayed: number;
  /** Dead letters kept. */
  dead: number;
}

/** Depth of one queue at scrape time. */
export interface QueueDepth {
  queue: string;
  counts: JobQueueCounts;
}

/** Reads the depth of every queue it owns (called on scrape only). */
export type QueueDepthSource = () => Promise<QueueDepth[]>;

/** What happened to one delivery attempt of an activity to a remote inbox. */
export type DeliveryOutcome = 'delivered' | 'refused' | 'failed' | 'error';

/** The exposition text of a scrape. */
export interface MetricsExposition {
  contentType: string;
  body: string;
}

/**
 * The server's instrumentation points. Callers check `enabled` before measuring anything that costs
 * (clocks, URL parsing), so a server without metrics pays next to nothing.
 * Every label value passed in must come from a bounded set (route templates, queue names, ...).
 */
export interface Metrics {
  readonly enabled: boolean;
  /** One answered HTTP request; `route` is a template (never a raw path). */
  httpRequest: (method: string, route: string, status: number, seconds: number) => void;
  /** One request to the triple store. */
  storeRequest: (operation: 'query' | 'update', ok: boolean, seconds: number) => void;
  /** A failed job run that will run again. */
  jobRetried: (queue: string) => void;
  /** A job that became a dead letter. */
  jobDead: (queue: string) => void;
  /** One delivery attempt to a remote inbox on `host`. */
  delivery: (host: string, outcome: DeliveryOutcome) => void;
  /** Registers a source of queue depths, read on every scrape. */
  watchQueues: (source: QueueDepthSource) => void;
  /** The current values in Prometheus text format. */
  expose: () => Promise<MetricsExposition>;
}
