#!/usr/bin/env bash
# The functions a process runs when it loads libprof.so lie side by side (issue 26 item 7):
# every text page fault maps the page-cache folio around it (64 KiB fault-around, whole
# large folios on newer kernels), so the load path spread over the 690 KB text brought most
# of it into the RSS of a process that never touches CUDA.
#
#   startup_layout_test.sh LIBRARY ORDER_FILE
#
# ORDER_FILE is the link's --section-ordering-file (.text.NAME / .text.startup.NAME lines).
# Checked for the agent's own functions (those in namespace prof, and the constructors),
# which -ffunction-sections (agent/copts.bzl) splits in every compilation mode:
# - each one is defined in LIBRARY: a renamed function would silently fall out of the order;
# - together they span at most 64 KiB, one fault-around window.
# And no initialized writable object ('d'/'D' in nm) is larger than a page: a table that is
# all zeros at start lives in .bss, whose untouched pages cost nothing, where in .data the
# fault-around maps its file pages with those the loader's relocations touch.
# The C++ runtime's entries are placed too where its archive has one section per function
# (-c opt, with --gc-sections), and are only counted here.
set -uo pipefail

library="$1"
order="$2"
window=$((64 * 1024))

declare -A address size
while read -r value length _ name; do
  address[$name]=$((16#$value))
  size[$name]=$((16#$length))
done < <(nm -S --defined-only "$library" | awk 'NF == 4')

missing=0 own=0 others=0 placed_others=0
low=-1 high=0
for name in $(sed -e 's/^\.text\.startup\./.text./' -e 's/^\.text\.//' "$order" | sort -u); do
  if [[ "$name" != *4prof* && "$name" != _GLOBAL__sub_I_* ]]; then
    others=$((others + 1))
    [ -n "${address[$name]+x}" ] && placed_others=$((placed_others + 1))
    continue
  fi
  own=$((own + 1))
  if [ -z "${address[$name]+x}" ]; then
    echo "FAIL: $name (in $(basename "$order")) is not defined in $(basename "$library")"
    missing=$((missing + 1))
    continue
  fi
  start=${address[$name]}
  end=$((start + ${size[$name]}))
  if [ "$low" -lt 0 ] || [ "$start" -lt "$low" ]; then low=$start; fi
  if [ "$end" -gt "$high" ]; then high=$end; fi
done

span=$((high - low))
echo "agent functions: $own listed, $missing missing, span $span bytes (limit $window);" \
  "C++ runtime entries: $others listed, $placed_others defined"
failures=$missing
if [ "$own" -lt 20 ]; then
  echo "FAIL: only $own agent functions in $order"
  failures=$((failures + 1))
fi
if [ "$span" -gt "$window" ]; then
  echo "FAIL: the load path's functions span $span bytes, more than $window"
  failures=$((failures + 1))
fi
while read -r value length kind name; do
  if [ $((16#$length)) -gt 4096 ]; then
    echo "FAIL: $name ($((16#$length)) bytes) is initialized writable data larger than a page"
    failures=$((failures + 1))
  fi
done < <(nm -S --defined-only "$library" | awk 'NF == 4 && ($3 == "d" || $3 == "D")')
[ "$failures" -eq 0 ] && echo PASS
exit $((failures > 0))
