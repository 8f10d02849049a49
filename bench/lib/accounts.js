'use strict';

// Accounts and JSON requests of the benchmarks that act as users of a running Fedpod.

const { request } = require('./http');

const PASSWORD = 'bench password 1';

/** Parses the JSON answer of a request, which must answer one of the expected statuses. */
async function json(url, options, expected) {
  const res = await request(url, { timeoutMs: 60000, ...options });
  if (!expected.includes(res.status)) {
    throw new Error(`${options.method || 'GET'} ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
  }
  return res.body ? JSON.parse(res.body) : {};
}

/** Signs a user up: their username, token and actor. */
async function signUp(baseUrl, username) {
  const body = await json(`${baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD }) }, [201]);
  return { username, token: body.token, actor: body.webId };
}

module.exports = { json, signUp, PASSWORD };
