#!/usr/bin/env bash
# Container smoke test without Docker: follows the Dockerfile's own instructions on this machine.
#   1. copies the build context as `docker build` would send it (.dockerignore applied),
#   2. build stage: its COPY and RUN instructions in order (install, build, prune dev dependencies),
#   3. runtime stage: its COPY instructions (from the context and from the build stage) and ENV;
#      its RUN/USER/VOLUME lines are skipped (they prepare /data and the user inside an image),
#   4. starts ENTRYPOINT + CMD from the runtime directory with a temp data dir on free ports,
#   5. checks GET /healthz (curl) and the Dockerfile's HEALTHCHECK command, then stops it by PID.
# Exit 0 when all passed. Not part of `npm test` (it installs and builds from scratch: minutes).
#   bash scripts/container-smoke.sh            (FEDPOD_SMOKE_KEEP=1 keeps the temp directory)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fedpod-container-smoke.XXXXXX")
server_pid=''
began=$SECONDS

say() { echo "[container-smoke] $* (+$((SECONDS - began)) s)"; }

cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  if [[ ${FEDPOD_SMOKE_KEEP:-} == 1 ]]; then
    echo "[container-smoke] kept $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

fail() {
  echo "[container-smoke] FAILED: $*" >&2
  if [[ -f $work/server.log ]]; then
    echo "[container-smoke] server log (last 40 lines):" >&2
    tail -n 40 "$work/server.log" >&2
  fi
  exit 1
}

# Steps 1-3 in node (Dockerfile and .dockerignore parsing); it writes the run plan as JSON.
say "preparing the context, the build stage and the runtime stage in $work"
node - "$repo" "$work" <<'NODE' || fail "preparing the image directories"
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const [ repo, work ] = process.argv.slice(2);
const log = (message) => process.stdout.write(`[container-smoke] ${message}\n`);

// ---- .dockerignore, as Docker reads it: patterns match whole paths from the context root
// (`*` and `?` within one segment, `**` across segments), a pattern that matches a directory
// covers everything below it, `!` re-includes, and the last matching pattern wins.
function readIgnore(file) {
  if (!fs.existsSync(file)) {
    return [];
  }
  return fs.readFileSync(file, 'utf8').split('\n').map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const text = path.posix.normalize((negated ? line.slice(1) : line).trim()).replace(/^\/+/u, '');
      return { negated, text, regex: patternRegex(text) };
    });
}

function patternRegex(pattern) {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        source += '/?';
      }
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const end = pattern.indexOf(']', i);
      source += pattern.slice(i, end + 1).replace(/^\[!/u, '[^');
      i = end;
    } else if (char === '\\') {
      i++;
      source += pattern[i].replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 'u');
}

function excluded(patterns, relative) {
  const candidates = [];
  const parts = relative.split('/');
  for (let i = 1; i <= parts.length; i++) {
    candidates.push(parts.slice(0, i).join('/'));
  }
  let result = false;
  for (const pattern of patterns) {
    if (candidates.some((candidate) => pattern.regex.test(candidate))) {
      result = !pattern.negated;
    }
  }
  return result;
}

function copyContext(from, to, patterns) {
  let files = 0;
  const walk = (relative) => {
    for (const entry of fs.readdirSync(path.join(from, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      const skip = excluded(patterns, child);
      if (entry.isDirectory()) {
        // An excluded directory is still entered when an exception may re-include something in it.
        if (!skip || patterns.some((p) => p.negated && (p.text.startsWith(`${child}/`) || p.text.includes('**')))) {
          walk(child);
        }
      } else if (!skip) {
        fs.mkdirSync(path.join(to, relative), { recursive: true });
        fs.cpSync(path.join(from, child), path.join(to, child), { verbatimSymlinks: true });
        files++;
      }
    }
  };
  walk('');
  return files;
}

// ---- Dockerfile: instructions with their continuation lines joined, grouped by stage.
function readStages(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const instructions = [];
  let current = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) {
      continue;
    }
    if (line.startsWith('#')) {
      continue;
    }
    current += `${current ? ' ' : ''}${line.replace(/\\$/u, '').trim()}`;
    if (!line.endsWith('\\')) {
      instructions.push(current);
      current = '';
    }
  }
  const stages = [];
  for (const text of instructions) {
    const [ , keyword, rest ] = /^(\S+)\s*(.*)$/u.exec(text);
    const op = keyword.toUpperCase();
    if (op === 'FROM') {
      const named = /\sAS\s+(\S+)$/iu.exec(rest);
      stages.push({ name: named ? named[1] : String(stages.length), image: rest.split(/\s+/u)[0], steps: []});
    } else {
      stages.at(-1).steps.push({ op, rest });
    }
  }
  return stages;
}

const execForm = (rest) => (rest.startsWith('[') ? JSON.parse(rest) : [ 'sh', '-c', rest ]);

function parseEnv(rest) {
  const env = {};
  for (const match of rest.matchAll(/(\w+)=("[^"]*"|\S+)/gu)) {
    env[match[1]] = match[2].replace(/^"(.*)"$/u, '$1');
  }
  return env;
}

// Container paths map into <work>/stages/<stage name>/.
function run() {
  const context = path.join(work, 'context');
  fs.mkdirSync(context, { recursive: true });
  const files = copyContext(repo, context, readIgnore(path.join(repo, '.dockerignore')));
  log(`context: ${files} files (${fs.readdirSync(context).join(' ')})`);

  const stages = readStages(path.join(repo, 'Dockerfile'));
  const roots = {};
  let plan;
  stages.forEach((stage, index) => {
    const root = path.join(work, 'stages', stage.name);
    roots[stage.name] = root;
    const isFinal = index === stages.length - 1;
    let workdir = '/';
    const env = {};
    plan = { stage: stage.name, image: stage.image, env, skipped: [] };
    const inStage = (containerPath) => path.join(root, path.posix.resolve(workdir, containerPath));
    log(`stage ${stage.name} (${stage.image})`);
    for (const { op, rest } of stage.steps) {
      if (op === 'WORKDIR') {
        workdir = path.posix.resolve(workdir, rest);
        fs.mkdirSync(inStage('.'), { recursive: true });
      } else if (op === 'ENV') {
        Object.assign(env, parseEnv(rest));
      } else if (op === 'COPY') {
        const words = rest.split(/\s+/u);
        const from = words[0].startsWith('--from=') ? words.shift().slice('--from='.length) : undefined;
        const destination = words.pop();
        for (const source of words) {
          const origin = from === undefined ? path.join(context, source) : path.join(roots[from], source);
          if (!fs.existsSync(origin)) {
            throw new Error(`COPY ${rest}: ${source} is not in the ${from === undefined ? 'context' : `stage ${from}`}`);
          }
          const intoDirectory = destination.endsWith('/') || words.length > 1;
          const target = fs.statSync(origin).isDirectory() || !intoDirectory ?
            inStage(destination) :
            path.join(inStage(destination), path.basename(source));
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.cpSync(origin, target, { recursive: true, verbatimSymlinks: true });
        }
        log(`  COPY ${rest}`);
      } else if (op === 'RUN' && !isFinal) {
        log(`  RUN ${rest}`);
        const [ command, ...args ] = execForm(rest);
        const result = spawnSync(command, args, {
          cwd: inStage('.'), stdio: 'inherit', env: { ...process.env, ...env },
        });
        if (result.status !== 0) {
          throw new Error(`RUN ${rest}: exit code ${result.status}`);
        }
      } else if (op === 'ENTRYPOINT' || op === 'CMD') {
        plan[op.toLowerCase()] = execForm(rest);
      } else if (op === 'HEALTHCHECK') {
        plan.healthcheck = execForm(rest.replace(/^(--\S+\s+)*CMD\s+/u, ''));
      } else {
        plan.skipped.push(`${op} ${rest}`);
      }
    }
    plan.workdir = inStage('.');
  });
  plan.command = [ ...plan.entrypoint ?? [], ...plan.cmd ?? [] ];
  if (plan.skipped.length > 0) {
    log(`  not applied outside a container: ${plan.skipped.join('; ')}`);
  }
  fs.writeFileSync(path.join(work, 'plan.json'), JSON.stringify(plan, null, 2));
}

try {
  run();
} catch (error) {
  process.stderr.write(`[container-smoke] ${error.message}\n`);
  process.exit(1);
}
NODE

plan=$work/plan.json
runtime=$(jq -r .workdir "$plan")
for dev_only in typescript jest componentsjs-generator; do
  [[ ! -e $runtime/node_modules/$dev_only ]] || fail "dev dependency $dev_only is in the runtime stage"
done
[[ ! -e $runtime/src ]] || fail "the runtime stage holds src/"
for dir in $(node -p 'require(process.argv[1]).files.join(" ")' "$runtime/package.json"); do
  [[ -d $runtime/$dir ]] || fail "the runtime stage lacks $dir/ (package.json \"files\")"
done

free_port() {
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();})'
}
port=$(free_port)
store_port=$(free_port)
data=$work/data
mkdir -p "$data"
mapfile -t command < <(jq -r '.command[]' "$plan")
say "starting ${command[*]} (runtime stage, port $port, data $data)"
# The image's ENV, then what differs outside a container: a temp data dir and free ports
# (the embedded store's default port may be taken on this machine).
(
  cd "$runtime"
  while IFS='=' read -r name value; do export "$name=$value"; done < <(jq -r '.env | to_entries[] | "\(.key)=\(.value)"' "$plan")
  export PORT=$port FEDPOD_DATA_DIR=$data FEDPOD_STORE_PORT=$store_port
  exec "${command[@]}"
) >"$work/server.log" 2>&1 &
server_pid=$!

deadline=$((SECONDS + ${FEDPOD_SMOKE_START_TIMEOUT:-240}))
until curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null; do
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited before answering /healthz"
  ((SECONDS < deadline)) || fail "no answer on /healthz within ${FEDPOD_SMOKE_START_TIMEOUT:-240} s"
  sleep 1
done
body=$(curl -fsS "http://127.0.0.1:$port/healthz") || fail "GET /healthz"
[[ $body == *'"status":"ok"'* ]] || fail "GET /healthz answered $body"
say "GET /healthz: $body"

mapfile -t healthcheck < <(jq -r '.healthcheck[]' "$plan")
(cd "$runtime" && PORT=$port "${healthcheck[@]}") || fail "the Dockerfile's HEALTHCHECK command failed"
say "HEALTHCHECK command: exit 0"

kill -TERM "$server_pid"
for _ in $(seq 1 30); do
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 1
done
if kill -0 "$server_pid" 2>/dev/null; then
  fail "the server did not stop within 30 s of SIGTERM"
fi
wait "$server_pid" || fail "the server exited with code $? on SIGTERM"
server_pid=''
say "stopped on SIGTERM; PASSED"
