#!/usr/bin/env bash
# libprof-run under the launchers that start the ranks (issue 25), in the torch2 root
# (scripts/release_check.sh torch2 runs it there, as root, from /check):
#
#   launchers_check.sh WHEEL STEPS
#
# The wheel goes into a virtual environment that also sees Debian's torch
# (--system-site-packages), as a user installs it beside their torch; then one CPU job
# of 2 ranks (allreduce_train.py: gloo, an all_reduce per parameter per step) under
#   torchrun --nproc_per_node 2 --no_python libprof-run -o DIR -- python3 ...
#   srun -n 2 libprof-run -o DIR -- python3 ...   (a real one-node Slurm, started here)
# and check_ranks.py on each DIR. torchrun is run through torch_without_libuv.py (the
# same main; Debian's torch has no libuv, see that file). Exit status 1 if a check fails.
set -uo pipefail
wheel="$1" steps="$2"
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/out" status=0
rm -rf "$out" && mkdir -p "$out"
python3 -m venv --system-site-packages "$out/venv" > "$out/venv.log" 2>&1 &&
  "$out/venv/bin/pip" install -q --no-index "$wheel" >> "$out/venv.log" 2>&1 ||
  { echo "FAIL: the wheel into a virtual environment:"; tail -5 "$out/venv.log"; exit 1; }
# /usr/sbin: the Slurm daemons (release_check.sh runs this with /usr/bin:/bin only).
export PATH="$out/venv/bin:/usr/sbin:$PATH"
cd "$here" || exit 1

# A rank of Debian's torch (CPython 3.13) can abort as it exits, after the program ended:
# "terminate called without an active exception", then SIGABRT. Seen once in CI
# (2026-11-28, srun, rank 0, after both ranks printed their last line); not seen again in
# 230 srun runs with the agent, so whether the agent makes it likelier is not known. The
# likeliest cause is torch's (pytorch/pytorch#38228): a C++ thread that takes the GIL while
# the interpreter finalizes is ended by pthread_exit, whose unwinding through a noexcept
# frame calls std::terminate (CPython 3.14 parks such a thread: python/cpython#105805). The
# agent's SIGABRT flush still wrote that rank's trace (and now the step open at the abort,
# which it then left out). Such a run is printed as FLAKY, with its log kept, and run once
# more; any other failure, or the same abort twice, fails.
exit_abort="terminate called without an active exception"

# run NAME COMMAND...: COMMAND (the launcher) with its output in $out/NAME.log, then the
# traces it left in $out/NAME checked.
run() {
  local name="$1" started=$SECONDS
  shift
  timeout 120 "$@" > "$out/$name.log" 2>&1
  local code=$?
  if [ $code != 0 ] && grep -q "^$exit_abort" "$out/$name.log" &&
    [ "$(grep -c "^rank [0-9]* of 2: $steps steps" "$out/$name.log")" = 2 ]; then
    echo "FLAKY: $name exited with status $code: a rank aborted at exit, after both ranks" \
      "ended ($exit_abort); run again (first run's log: $out/$name.aborted.log)"
    # The traces and a file rendezvous the aborted rank left (FileStore removes it only
    # when every rank has closed it) go; the rerun meets afresh.
    mv "$out/$name.log" "$out/$name.aborted.log" && rm -rf "${out:?}/$name" "$out/$name.rendezvous"
    timeout 120 "$@" > "$out/$name.log" 2>&1
    code=$?
  fi
  if [ $code != 0 ]; then
    status=1
    echo "FAIL: $name exited with status $code; the end of $out/$name.log:"
    grep -vE '^\s' "$out/$name.log" | tail -8 | cut -c1-300 | sed 's/^/  /'
    return
  fi
  python3 check_ranks.py "$out/$name" "$steps" "$name ($((SECONDS - started)) s)" || status=1
}

echo "== torchrun --nproc_per_node 2 --no_python libprof-run -o DIR -- python3 allreduce_train.py $steps"
# A free port for its store (not --standalone: that names the host, which the root's
# /etc/hosts does not know).
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
run torchrun python3 torch_without_libuv.py --master_port "$port" --nproc_per_node 2 --no_python \
  libprof-run -o "$out/torchrun" -- python3 allreduce_train.py "$steps"

echo "== srun -n 2 libprof-run -o DIR -- python3 allreduce_train.py $steps (one-node Slurm)"
# Slurm >= 23.11's auth/slurm signs with a key file: no munge daemon. Both daemons run as
# root, without cgroups (the chroot has none), on ports of their own, all state in $slurm;
# the node says it has 2 CPUs whatever the machine has (config_overrides), one per task.
slurm="$out/slurm" host="$(hostname -s)"
mkdir -p "$slurm/state" "$slurm/spool"
head -c 1024 /dev/urandom > "$slurm/slurm.key" && chmod 600 "$slurm/slurm.key"
echo "CgroupPlugin=disabled" > "$slurm/cgroup.conf"
cat > "$slurm/slurm.conf" << CONF
ClusterName=libprofcheck
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/slurm
CredType=cred/slurm
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$slurm/state
SlurmdSpoolDir=$slurm/spool
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$slurm/slurmctld.log
SlurmdLogFile=$slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$slurm/slurm.conf"
# Stopped and gone before this script returns: release_check.sh then unmounts the root's
# /dev, which a daemon still exiting holds.
stop_slurm() {
  local daemon pid
  for daemon in slurmd slurmctld; do
    pid="$(cat "$slurm/$daemon.pid" 2> /dev/null)"
    [ -n "$pid" ] && kill "$pid" 2> /dev/null || continue
    for _ in $(seq 100); do
      kill -0 "$pid" 2> /dev/null || continue 2
      sleep 0.1
    done
    echo "launchers_check.sh: $daemon ($pid) still runs 10 s after SIGTERM" >&2
  done
}
trap stop_slurm EXIT
slurmctld -c -i && slurmd -c || echo "FAIL: the Slurm daemons did not start ($slurm/*.log)"
for _ in $(seq 60); do
  [ "$(sinfo -h -o %t 2> /dev/null)" = idle ] && break
  sleep 0.5
done
if [ "$(sinfo -h -o %t 2> /dev/null)" != idle ]; then
  status=1
  echo "FAIL: the Slurm node is not idle after 30 s: $(sinfo -h 2>&1 | head -2); $slurm/*.log:"
  tail -n 3 "$slurm"/*.log | sed 's/^/  /'
else
  echo "   $(srun --version), node $host: $(sinfo -h -o '%P %t %c CPUs')"
  run srun srun -n 2 libprof-run -o "$out/srun" -- python3 allreduce_train.py "$steps" "$out/srun.rendezvous"
fi
exit $status
