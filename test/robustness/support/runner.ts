/**
 * Sends a group of hostile cases with bounded concurrency and judges each answer on its own:
 * its status class, the JSON error shape of Fedpod's APIs, and that no secret leaks.
 */
import type { CaseGroup, HostileCase } from '../corpus/types';
import { sendRaw, UNSENT, type RawResponse } from './rawHttp';
import type { QuadEntry, SnapshotDiff } from './snapshot';

export interface Outcome {
  testCase: HostileCase;
  status?: number;
  /** Absolute IRI of what a 2xx created (Location, else the request target). */
  created?: string;
  problems: string[];
}

const SEND_ATTEMPTS = 3;

const SECRETS = /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----|"d"\s*:\s*"[A-Za-z0-9_-]{20,}"/u;

function judge(testCase: HostileCase, response: RawResponse, baseUrl: string): Outcome {
  const problems: string[] = [];
  const { status } = response;
  if (status >= 500) {
    problems.push(`answered ${status} (5xx): ${response.body.toString('utf8').slice(0, 200)}`);
  } else if (!testCase.expect.includes(status)) {
    problems.push(`answered ${status}, expected one of ${testCase.expect.join(', ')}: ${response.body.toString('utf8').slice(0, 200)}`);
  }
  if (status >= 400 && testCase.jsonApi && testCase.method !== 'HEAD') {
    let shape: unknown;
    try {
      shape = JSON.parse(response.body.toString('utf8'));
    } catch {
      shape = undefined;
    }
    const { error, message } = (shape ?? {}) as { error?: unknown; message?: unknown };
    if (!/json/u.test(response.headers['content-type'] ?? '') || typeof error !== 'string' || typeof message !== 'string' || message === '') {
      problems.push(`error answer ${status} is not JSON {error, message}: ${response.headers['content-type']} ${response.body.toString('utf8').slice(0, 120)}`);
    }
  }
  if (SECRETS.test(response.body.toString('utf8'))) {
    problems.push('the answer contains a private key');
  }
  let created: string | undefined;
  if (status === 201) {
    const location = response.headers.location;
    try {
      created = location ? new URL(location, baseUrl).href : new URL(testCase.path, baseUrl).href;
    } catch {
      problems.push(`201 with an unusable Location ${location}`);
    }
    if (created !== undefined && !created.startsWith(baseUrl)) {
      problems.push(`created ${created}, outside the server`);
    }
  }
  return { testCase, status, created, problems };
}

export async function runGroup(port: number, host: string, baseUrl: string, group: CaseGroup, concurrency: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(group.cases.length);
  let next = 0;
  const worker = async(): Promise<void> => {
    while (next < group.cases.length) {
      const index = next++;
      const testCase = group.cases[index];
      for (let attempt = 1; ; attempt++) {
        try {
          const response = await sendRaw(port, host, testCase, 60_000);
          outcomes[index] = judge(testCase, response, baseUrl);
        } catch (error: unknown) {
          // A reset while the body was still going out can discard an early answer (413...) on a
          // busy machine: send once more; a server that never answers fails every attempt.
          if ((error as Error).message.endsWith(UNSENT) && attempt < SEND_ATTEMPTS) {
            continue;
          }
          outcomes[index] = { testCase, problems: [ `got no answer: ${(error as Error).message}` ] };
        }
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

const LDP_CONTAINS = '<http://www.w3.org/ns/ldp#contains>';
const DC_MODIFIED = '<http://purl.org/dc/terms/modified>';

/**
 * The changes a group's benign creations explain: quads in the graph of a created resource, and in
 * the graph of its container `ldp:contains` of it and the container's modification date (the old
 * date removed). Returns the quads nothing explains.
 */
export function unexplainedChanges(change: SnapshotDiff, created: readonly string[]): QuadEntry[] {
  const createdGraphs = new Set(created.map((iri) => `<${iri}>`));
  const containers = new Set(created.map((iri) => `<${iri.replace(/[^/]+\/?$/u, '')}>`));
  const explained = (quad: QuadEntry, added: boolean): boolean => {
    if (added && createdGraphs.has(quad.g)) {
      return true;
    }
    if (!containers.has(quad.g) || quad.s !== quad.g) {
      return false;
    }
    return quad.p === DC_MODIFIED || (added && quad.p === LDP_CONTAINS && createdGraphs.has(quad.o));
  };
  return [
    ...change.added.filter((quad) => !explained(quad, true)),
    ...change.removed.filter((quad) => !explained(quad, false)),
  ];
}
