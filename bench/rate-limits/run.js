'use strict';

// Rate limits under load: a brute force of one account's password from one address, beside ordinary
// use of another account from another address, against one Fedpod with its default limits.
// Prints, for each side, what share of its requests were answered how: the brute force should be
// refused (429) after its first 25 guesses, the ordinary side never. Ratios only; no timing goal.
//   node bench/rate-limits/run.js            (BENCH_DURATION seconds of load, default 10)

const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const { freePort, startFedpod, stopAll, removeTempDirs } = require('../lib');

const DURATION_S = Number(process.env.BENCH_DURATION || 10);
const PASSWORD = 'correct horse battery';
const ATTACKER = '127.0.0.50';
const USER = '127.0.0.60';

function send(base, method, pathname, { from, body, token, type = 'application/json' }) {
  return new Promise((resolve) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(new URL(pathname, base), {
      method, localAddress: from,
      headers: { accept: 'application/json', ...text ? { 'content-type': type } : {}, ...token ? { authorization: `Bearer ${token}` } : {} },
    }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString() }));
    });
    request.on('error', () => resolve({ status: 0, text: '' }));
    request.end(text);
  });
}

function tally(statuses) {
  const counts = {};
  for (const status of statuses) {
    counts[status] = (counts[status] || 0) + 1;
  }
  return counts;
}

async function loop(until, work) {
  const statuses = [];
  while (Date.now() < until) {
    statuses.push(await work(statuses.length));
  }
  return statuses;
}

async function main() {
  const port = await freePort();
  const server = await startFedpod({ config: 'activitypub', port, storePort: await freePort(), rateLimits: true });
  const base = server.baseUrl;
  try {
    for (const name of [ 'alice', 'bob' ]) {
      const signup = await send(base, 'POST', 'auth/signup', { from: '127.0.0.1', body: { username: name, email: `${name}@example.org`, password: PASSWORD } });
      if (signup.status !== 201) throw new Error(`signup of ${name}: ${signup.status} ${signup.text}`);
    }
    const until = Date.now() + DURATION_S * 1000;
    const attack = () => loop(until, async(n) => (await send(base, 'POST', 'auth/login', { from: ATTACKER, body: { username: 'alice', password: `guess ${n}` } })).status);
    // Ordinary use: log in, then read and now and then post, as an app would.
    const ordinary = async() => {
      const login = await send(base, 'POST', 'auth/login', { from: USER, body: { username: 'bob', password: PASSWORD } });
      const token = JSON.parse(login.text).token;
      let lastPost = 0;
      return [ login.status, ...await loop(until, async(n) => {
        if (Date.now() - lastPost > 2000) {
          lastPost = Date.now();
          return (await send(base, 'POST', 'actors/bob/outbox', { from: USER, token, type: 'application/activity+json',
            body: { '@context': 'https://www.w3.org/ns/activitystreams', type: 'Create', object: { type: 'Note', content: `note ${n}` } } })).status;
        }
        return (await send(base, 'GET', n % 2 ? 'actors/bob' : 'actors/bob/outbox', { from: USER, token })).status;
      }) ];
    };
    const [ attacks, uses ] = await Promise.all([
      Promise.all([ attack(), attack(), attack(), attack() ]).then((all) => all.flat()),
      Promise.all([ ordinary(), ordinary() ]).then((all) => all.flat()),
    ]);
    const refusedShare = (attacks.filter((status) => status === 429).length / attacks.length);
    const okShare = uses.filter((status) => status >= 200 && status < 300).length / uses.length;
    const result = {
      durationSeconds: DURATION_S,
      bruteForce: { requests: attacks.length, statuses: tally(attacks), refusedShare, passwordChecks: attacks.filter((status) => status === 401).length },
      ordinary: { requests: uses.length, statuses: tally(uses), successShare: okShare },
    };
    console.log(`brute force (one address, one account): ${attacks.length} requests, statuses ${JSON.stringify(result.bruteForce.statuses)}, ` +
      `${(refusedShare * 100).toFixed(1)}% refused with 429; passwords checked: ${result.bruteForce.passwordChecks}`);
    console.log(`ordinary use (another address and account): ${uses.length} requests, statuses ${JSON.stringify(result.ordinary.statuses)}, ` +
      `${(okShare * 100).toFixed(1)}% answered 2xx`);
    const goals = [
      [ 'passwords checked in the brute force <= 25 (the per-account and per-address limits)', result.bruteForce.passwordChecks <= 25 ],
      [ 'ordinary use: every request 2xx', okShare === 1 ],
    ];
    for (const [ goal, met ] of goals) console.log(`${met ? 'met' : 'MISSED'}: ${goal}`);
    const dir = path.join(__dirname, '..', 'results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `rate-limits-${new Date().toISOString().replace(/[:.]/gu, '-')}.json`), JSON.stringify({ ...result, goals }, null, 2));
    process.exitCode = goals.every(([ , met ]) => met) ? 0 : 1;
  } finally {
    await stopAll();
    removeTempDirs();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
  return stopAll();
});
