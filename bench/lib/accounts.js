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

/** A poster and a reader who follows them (the reader's Follow through their outbox). */
async function posterAndReader(baseUrl) {
  const poster = await signUp(baseUrl, 'poster');
  const reader = await signUp(baseUrl, 'reader');
  await json(`${reader.actor}/outbox`, { method: 'POST', headers: { authorization: `Bearer ${reader.token}`, 'content-type': 'application/activity+json' },
    body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Follow', object: poster.actor }) }, [201]);
  return { poster, reader };
}

module.exports = { json, signUp, posterAndReader, PASSWORD };
