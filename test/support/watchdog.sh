#!/usr/bin/env bash
# watchdog.sh TARGET_PID TARGET_START OWNER_PID OWNER_START [OWNER_PID OWNER_START ...]
#
# Started detached (own session) next to every server a test spawns. Owners
# are the process that spawned TARGET and, from a jest worker, the main jest
# process too (workers outlive a SIGKILLed jest until their test file ends).
# When any owner is gone -- crashed, SIGKILLed, or simply exited without
# stopping it -- the target gets SIGTERM, then SIGKILL after 5 s. Exits as
# soon as the target is gone. The *_START values are /proc start times, so a
# recycled PID is never mistaken for ours.
set -u
target_pid=$1 target_start=$2
shift 2
owners=("$@")

# Prints "STATE STARTTIME" of a pid from /proc/PID/stat (fields 3 and 22; the
# command name in field 2 may contain spaces, so cut after its closing paren).
proc_state() {
  local stat fields
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  read -r -a fields <<<"$stat"
  echo "${fields[0]} ${fields[19]}"
}

# alive PID START: running (not a zombie) and still the same process.
alive() {
  local info state start
  info=$(proc_state "$1") || return 1
  read -r state start <<<"$info"
  [[ $state != Z && $start == "$2" ]]
}

owners_alive() {
  local i
  for ((i = 0; i + 1 < ${#owners[@]}; i += 2)); do
    alive "${owners[i]}" "${owners[i + 1]}" || return 1
  done
}

while alive "$target_pid" "$target_start"; do
  if ! owners_alive; then
    kill -TERM "$target_pid" 2>/dev/null
    for _ in $(seq 50); do
      alive "$target_pid" "$target_start" || exit 0
      sleep 0.1
    done
    kill -KILL "$target_pid" 2>/dev/null
    exit 0
  fi
  sleep 1
done
exit 0
