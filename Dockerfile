# Fedpod image: `docker build -t fedpod .`, then e.g.
#   docker run -p 3000:3000 -v fedpod-data:/data -e SERVICE_HOME_URL=https://pod.example/ fedpod
# With no SPARQL_ENDPOINT it runs on its embedded store (files in /data/store);
# docker-compose.yml runs it with Fuseki and Redis.
# scripts/container-smoke.sh repeats these steps without Docker.

# ---- build: all dependencies, compile TypeScript, generate components, keep production dependencies
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the package's `prepare` script builds, and the sources are not here yet (this
# layer is cached while the lock file stays the same); the one dependency with an install script
# (msgpackr-extract, optional) ships prebuilt binaries.
# npm install only as a fallback, when npm ci cannot use the lock with the registry at hand (as
# scripts/test.sh does).
RUN npm ci --ignore-scripts --no-audit --no-fund --loglevel=error 2>/tmp/npm-ci.log \
 || { echo "npm ci failed ($(grep -m1 -E 'npm error (code|Missing)' /tmp/npm-ci.log)); trying npm install"; \
      npm install --ignore-scripts --no-audit --no-fund --loglevel=error; } \
 && rm -f /tmp/npm-ci.log
COPY tsconfig.json .componentsignore ./
COPY scripts/compile-configs.js ./scripts/
COPY src ./src
COPY bin ./bin
COPY config ./config
COPY assets ./assets
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error

# ---- runtime: production dependencies and the package's "files" only, as an unprivileged user
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    FEDPOD_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY config ./config
COPY assets ./assets
# Keys, accounts, the embedded store and the local queue journal live in /data; the image's
# `node` user (uid 1000) owns it, so a fresh named volume inherits that ownership.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
# Liveness only (no dependency checks). Slim images have no curl; node is there. Start-up takes
# 10-20 s (loading CSS's components), more on a busy host.
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "require('http').get({host:'127.0.0.1',port:process.env.PORT||3000,path:'/healthz',timeout:4000},(r)=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1)).on('timeout',()=>process.exit(1))"]
# Other subcommands run the same way: docker run ... fedpod webhooks list
ENTRYPOINT ["node", "bin/fedpod.js"]
CMD ["start"]
