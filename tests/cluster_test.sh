#!/usr/bin/env bash
# Sharding on a real scheduler: a single-node Slurm (munged, slurmctld, slurmd started here from a
# configuration written in a temporary folder, on free ports) runs the job arrays of docs/scale.md
# for audit, render, crosscheck and generate as written, one audit task is requeued while it runs
# (`scontrol requeue`) and must resume, the merges run as dependent jobs (afterok), and every
# merged output must equal one process byte for byte. Then the same through GNU parallel (one
# shard killed at its first checkpoint, retried, resumed), and every other command block of
# docs/scale.md and docs/audit.md, each as written (tests/doc_recipes.py checks none is left out).
# A scheduler that cannot start is a failure, with its log. Each daemon started here is stopped by
# its pid.
set -u
geotruth=$(realpath "$1")
root=$(realpath "$2")  # the source tree: docs/, data/, tests/
source "$root/tests/check.sh"
tmp=$(mktemp -d)
daemons=()
stop_daemons() {
  [ ${#daemons[@]} -eq 0 ] && return
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then timeout 5 scancel --user=root >/dev/null 2>&1; fi
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${daemons[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  daemons=()
}
trap 'stop_daemons; rm -rf "$tmp"' EXIT
fail_with_logs() {  # a scheduler that cannot start or run a job fails the test, with its logs
  echo "FAIL: $1"
  for log in "$tmp"/log/*; do echo "== $log"; tail -n 40 "$log"; done
  # The jobs' own output (--output=<name>-%a.log in the folder they were submitted from).
  for log in "$tmp"/slurm/*.log "$tmp"/slurm/slurm-*.out; do
    [ -f "$log" ] && { echo "== job output $log"; tail -n 40 "$log"; }
  done
  failures=$((failures + 1))
  finish "cluster"
  exit 1
}
wait_for() {  # wait_for SECONDS COMMAND…: until COMMAND succeeds
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.2
  done
}

# geotruth on PATH, as the docs call it; the data the recipes name.
mkdir -p "$tmp/bin" "$tmp/log" "$tmp/data"
ln -s "$geotruth" "$tmp/bin/geotruth"
export PATH="$tmp/bin:$PATH"
# Scenes with questions for the audit: 2,400 records, so that each of 4 shards passes a checkpoint.
geotruth generate --family diagram -n 2388 --seed 31 -o "$tmp/data/dataset.jsonl" 2>/dev/null
cat "$root/data/scenes.jsonl" >>"$tmp/data/dataset.jsonl"
# Scenes to draw and check: every id of data/ twice, 13 records apart, so that a repeated id
# falls in another shard (its picture is named -line<N> by its first place in the whole input).
{
  cat "$root/data/scenes.jsonl"
  geotruth generate --family diagram -n 1 --seed 8 2>/dev/null
  cat "$root/data/scenes.jsonl"
} >"$tmp/data/scenes.jsonl"
cp "$root/tests/fixtures/geometry3k/diagram_logic_forms_sample.json" "$tmp/data/diagram_logic_forms_annot.json"
workdir() {  # a fresh folder holding the data under the names the docs use
  mkdir -p "$tmp/$1"
  cp "$tmp/data/"* "$tmp/$1/"
}
ran="$tmp/ran.txt"
: >"$ran"
recipe() {  # recipe DOC NAME: the block as written in the doc
  /usr/bin/python3 "$root/tests/doc_recipes.py" show "$root/docs/$1" "$2"
}
run_recipe() {  # run_recipe DOC NAME: runs the block (bash -e: it stops at an error); its variables stay
  echo "$2" >>"$ran"
  local text names
  text=$(recipe "$1" "$2") || return 1
  names=$(grep -oE '^[A-Za-z_][A-Za-z0-9_]*=' <<<"$text" | tr -d = | sort -u | xargs)
  : >"$tmp/vars"
  bash -e -c "$text"$'\n'"for v in $names; do printf '%s=%q\n' \"\$v\" \"\${!v}\"; done >'$tmp/vars'" || return 1
  source "$tmp/vars"
}
write_recipe() {  # write_recipe DOC NAME: a job script, written to the file NAME
  echo "$2" >>"$ran"
  recipe "$1" "$2" >"$2"
}
check_recipe() {  # check_recipe NAME STATUS LOG: a recipe that failed shows the end of its log
  check "$1" 0 "$2"
  [ "$2" -eq 0 ] || { echo "== the end of $3:"; tail -n 30 "$3" | sed 's/^/  | /'; }
}
same_tree() {  # same_tree A B: every file (hidden ones too) and its bytes, or what differs
  diff -r "$1" "$2" >/dev/null 2>&1 && echo same || diff -rq "$1" "$2" 2>&1 | head -5
}

# One process over all the records: what every merge must equal.
workdir one
cd "$tmp/one" || exit 1
run_recipe scale.md one-process >"$tmp/log/one-process.txt" 2>&1
check_recipe "one process: the recipe runs" $? "$tmp/log/one-process.txt"
run_recipe scale.md one-generate >"$tmp/log/one-generate.txt" 2>&1
check_recipe "one process: generate runs" $? "$tmp/log/one-generate.txt"
phase() { echo "== $1 (${SECONDS}s)"; }
phase "one process done"

# ---- Slurm -----------------------------------------------------------------------------------
for tool in munged mungekey slurmctld slurmd sbatch scontrol squeue; do
  command -v "$tool" >/dev/null || fail_with_logs "$tool is not installed (scripts/setup installs slurm-wlm and munge)"
done
ports=$(/usr/bin/python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
read -r ctld_port slurmd_port <<<"$ports"
state="$tmp/slurm"
mkdir -p "$state/spool" "$state/state"
mkdir -m 711 "$state/munge"
mungekey --create --keyfile="$state/munge/munge.key" >"$tmp/log/mungekey.txt" 2>&1 ||
  fail_with_logs "mungekey cannot create a key"
munged --foreground --force --key-file="$state/munge/munge.key" --socket="$state/munge/socket" \
  --pid-file="$state/munge/munged.pid" --seed-file="$state/munge/seed" --log-file="$tmp/log/munged.log" \
  >"$tmp/log/munged.out" 2>&1 &
daemons+=($!)
wait_for 10 test -S "$state/munge/socket" || fail_with_logs "munged did not start"
host=$(hostname -s)
export SLURM_CONF="$state/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=geotruth
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge/socket
StateSaveLocation=$state/state
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
KillWait=2
MinJobAge=600
NodeName=geotruth-node NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=geotruth-node Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
daemons+=($!)
slurmd -D -N geotruth-node -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
daemons+=($!)
node_idle() { [ "$(sinfo -h -n geotruth-node -o %t 2>/dev/null)" = idle ]; }
wait_for 30 node_idle || fail_with_logs "slurmctld and slurmd did not bring the node up"
check "Slurm: the node is up" idle "$(sinfo -h -n geotruth-node -o %t)"
phase "Slurm up"

workdir slurm
cd "$tmp/slurm" || exit 1
job_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }
jobs_done() { [ -z "$(squeue -h 2>/dev/null)" ]; }

# audit: one task stops at its first checkpoint (a test hook), is requeued while it runs, resumes.
write_recipe scale.md audit.sbatch
export GEOTRUTH_PAUSE_AT=checkpoint GEOTRUTH_HOOK_ONCE="$tmp/paused"
run_recipe scale.md slurm-audit >"$tmp/log/submit-audit.txt" 2>&1 || fail_with_logs "sbatch audit: $(cat "$tmp/log/submit-audit.txt")"
unset GEOTRUTH_PAUSE_AT GEOTRUTH_HOOK_ONCE
audit_array=$array
merge_job=$(grep -o 'Submitted batch job [0-9]*' "$tmp/log/submit-audit.txt" | awk '{print $4}')
check "audit merge: waits for the array (afterok)" "afterok:${audit_array}_*" \
  "$(scontrol show job "$merge_job" | grep -o 'Dependency=[^ ]*' | cut -d= -f2 | sed 's/(.*//')"
wait_for 60 test -s "$tmp/paused" || fail_with_logs "no audit task reached its first checkpoint"
paused_job=$(awk '{print $4}' "$tmp/paused")
check "the paused task runs under Slurm" RUNNING "$(job_state "$paused_job")"
scontrol requeue "$paused_job" || fail_with_logs "scontrol requeue $paused_job failed"
# A requeued job waits (BeginTime) before it may start again: let it start, two seconds on. slurmd
# refuses a credential made in the same second as the one it revoked at the requeue ("Job credential
# revoked", the task fails and the array's afterok never holds).
requeued() { [ "$(job_state "$paused_job")" = PENDING ]; }
wait_for 20 requeued && sleep 2 && scontrol update jobid="$paused_job" StartTime=now
wait_for 90 jobs_done || fail_with_logs "the audit array and its merge did not finish: $(squeue)"
task=$(scontrol show job "$paused_job" | grep -o 'ArrayTaskId=[0-9]*' | cut -d= -f2)
check "requeued task: restarted once" 1 "$(scontrol show job "$paused_job" | grep -o 'Restarts=[0-9]*' | cut -d= -f2)"
check "requeued task: resumed from its checkpoint" 1 "$(grep -c '^audit: resuming after record [1-9][0-9]*$' "audit-$task.log")"
check "audit array: every task completed" "COMPLETED COMPLETED COMPLETED COMPLETED" \
  "$(for t in 0 1 2 3; do job_state "${audit_array}_$t"; done | xargs)"
check "audit merge: completed after the array" COMPLETED "$(job_state "$merge_job")"
check "Slurm audit, merged = one process" same "$(same_tree audit/all "$tmp/one/audit/all")"
phase "Slurm audit done"

# render and crosscheck: arrays and dependent merges, as written.
write_recipe scale.md render.sbatch
write_recipe scale.md crosscheck.sbatch
run_recipe scale.md slurm-render >"$tmp/log/submit-render.txt" 2>&1 || fail_with_logs "sbatch render failed"
run_recipe scale.md slurm-crosscheck >"$tmp/log/submit-crosscheck.txt" 2>&1 || fail_with_logs "sbatch crosscheck failed"
wait_for 90 jobs_done || fail_with_logs "the render and crosscheck arrays did not finish: $(squeue)"
check "Slurm render, merged = one process" same "$(same_tree render/all "$tmp/one/render/all")"
check "Slurm crosscheck, merged records = one process" same "$(cmp checks/all.jsonl "$tmp/one/checks/all.jsonl" && echo same)"
check "Slurm crosscheck, merged manifest = one process" same \
  "$(cmp checks/.all.jsonl.run.json "$tmp/one/checks/.all.jsonl.run.json" && echo same)"
check "Slurm crosscheck, merged overlays = one process" same "$(same_tree overlays/all "$tmp/one/overlays/all")"
check "render: a repeated id in another shard is named as one process names it" 1 \
  "$(ls render/all | grep -c -- '-line14.png$')"
phase "Slurm render and crosscheck done"

# generate: the engine's files are written by the merge, from every shard's items.
write_recipe scale.md generate.sbatch
run_recipe scale.md slurm-generate >"$tmp/log/submit-generate.txt" 2>&1 || fail_with_logs "sbatch generate failed"
wait_for 120 jobs_done || fail_with_logs "the generate array did not finish: $(squeue)"
check "generate array: every task completed" "COMPLETED COMPLETED COMPLETED COMPLETED" \
  "$(for t in 0 1 2 3; do job_state "${array}_$t"; done | xargs)"
check "Slurm generate, merged engine files = one process" same "$(same_tree items/all "$tmp/one/items/all")"
check "Slurm generate, merged pictures = one process" same "$(same_tree figures/all "$tmp/one/figures/all")"
check "Slurm generate: 120 pictures under the engine's names" "120 easy_00000119.png" \
  "$(ls figures/all | wc -l) $(ls figures/all | tail -1)"
phase "Slurm generate done"
cd "$tmp" || exit 1
stop_daemons
check "Slurm: every daemon stopped" "" "$(for p in $(cat "$state/munge/munged.pid" "$state/slurmctld.pid" "$state/slurmd.pid" 2>/dev/null); do kill -0 "$p" 2>/dev/null && echo "$p"; done)"

# ---- GNU parallel ----------------------------------------------------------------------------
workdir parallel
cd "$tmp/parallel" || exit 1
export GEOTRUTH_KILL_AT=checkpoint GEOTRUTH_HOOK_ONCE="$tmp/killed"
run_recipe scale.md parallel >"$tmp/log/parallel.txt" 2>&1
check_recipe "parallel: the recipe runs" $? "$tmp/log/parallel.txt"
unset GEOTRUTH_KILL_AT GEOTRUTH_HOOK_ONCE
check "parallel: one audit shard was killed at its checkpoint" yes "$([ -s "$tmp/killed" ] && echo yes)"
check "parallel: its retry resumed" 1 "$(grep -c '^audit: resuming after record [1-9][0-9]*$' "$tmp/log/parallel.txt")"
check "parallel audit, merged = one process" same "$(same_tree audit/all "$tmp/one/audit/all")"
check "parallel render, merged = one process" same "$(same_tree render/all "$tmp/one/render/all")"
check "parallel crosscheck, merged = one process" same "$(cmp checks/all.jsonl "$tmp/one/checks/all.jsonl" && echo same)"
check "parallel crosscheck overlays = one process" same "$(same_tree overlays/all "$tmp/one/overlays/all")"
geotruth count dataset.jsonl -o one-count.jsonl 2>/dev/null
check "parallel count, merged = one process" same "$(cmp counts.jsonl one-count.jsonl && echo same)"
run_recipe scale.md parallel-generate >"$tmp/log/parallel-generate.txt" 2>&1
check_recipe "parallel generate: the recipe runs" $? "$tmp/log/parallel-generate.txt"
check "parallel generate, merged = one process" same \
  "$(cmp tangram.jsonl "$tmp/one/tangram.jsonl" && cmp .tangram.jsonl.run.json "$tmp/one/.tangram.jsonl.run.json" && echo same)"
check "parallel generate pictures = one process" same "$(same_tree tangram-figures "$tmp/one/tangram-figures")"
phase "GNU parallel done"

# ---- docs/audit.md, as written ----------------------------------------------------------------
workdir usage
cd "$tmp/usage" || exit 1
head -n 300 "$tmp/data/dataset.jsonl" >dataset.jsonl  # no checkpoint needed here: a short run
run_recipe audit.md audit-usage >"$tmp/log/audit-usage.txt" 2>&1
check "audit.md: the usage lines run" 0 $?
run_recipe audit.md audit-shards >"$tmp/log/audit-shards.txt" 2>&1
check "audit.md: the shard lines run" 0 $?
check "audit.md: shards merged = one process (audit/one)" same "$(same_tree audit/all audit/one)"
phase "docs/audit.md done"

cd "$tmp" || exit 1
for doc in scale.md audit.md; do
  /usr/bin/python3 "$root/tests/doc_recipes.py" check "$root/docs/$doc" "$ran"
  check "docs/$doc: every command block is run here" 0 $?
done
finish "cluster"
