'use strict';

const net = require('node:net');

// Ask the kernel for an unused loopback port. There is a small race between
// closing this probe and the server binding it, acceptable for benchmarks.
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

module.exports = { freePort };
