'use strict';
// Small pieces shared by the benchmark's own servers (bare-ldp-server.js, sparql-store.js).

/** `--port N --host H` (defaults: a free port on 127.0.0.1); anything else is an error. */
function parseServerArgs(argv) {
  const options = { port: 0, host: '127.0.0.1' };
  for (let i = 0; i < argv.length; i += 2) {
    const value = argv[i + 1];
    if (argv[i] === '--port') {
      options.port = Number(value);
    } else if (argv[i] === '--host') {
      options.host = value;
    } else {
      throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  return options;
}

/** The whole body as text; rejects (and drops the connection) past maxBytes. */
async function readBody(req, maxBytes) {
  return (await readBodyBytes(req, maxBytes)).toString('utf8');
}

/** The whole body as bytes; rejects (and drops the connection) past maxBytes. */
function readBodyBytes(req, maxBytes) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

module.exports = { parseServerArgs, readBody, readBodyBytes };
