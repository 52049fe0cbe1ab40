#!/usr/bin/env bash
# libprof.so must load into any x86-64 Linux process (issue 11): this reads its dynamic
# section and symbol table and fails on anything that ties it to this build machine.
#
#   self_contained_test.sh LIBRARY [--glibc-floor 2.17] [--pending REGEX] [--program]
#
# - DT_NEEDED only libc, libm, libdl, libpthread, librt and the dynamic loader;
# - no symbol version above the glibc floor, none of libstdc++/libgcc (GLIBCXX_, CXXABI_,
#   GCC_): the C++ runtime is linked in, not needed;
# - exports only the interposed CUDA/NCCL/CUPTI-subscription entry points, prof_* and
#   InitializeInjectionNvtx2
#   (libprof.lds);
# - no undefined C++ symbol, but the weak references of libstdc++'s transactional-memory
#   clones to libitm (_ITM_*, _ZGTt*), which stay null unless a program loads libitm and
#   are only called from transactional code, which the agent has none of.
# --program checks a program (the shipped profanalyze, //release:profanalyze) by the same
# rules, but that it exports nothing but the glibc data it copies (stdout, stderr: copy
# relocations), and that the weak references the compiler makes to the TLS-init functions
# of extern thread_locals (_ZTH*: null, and never called, when the variable needs no
# dynamic initialization, as Abseil's constinit ones) are no undefined C++ symbols.
# --pending REGEX lets DT_NEEDED entries and undefined symbols matching REGEX through, each
# listed, for a dependency another change removes; the rest of the rule still holds.
set -uo pipefail

library="$1"
shift
floor="2.17"
pending='^$'
program=0
while [ $# -gt 0 ]; do
  case "$1" in
    --program) program=1; shift ;;
    --glibc-floor) floor="$2"; shift 2 ;;
    --pending) pending="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# ---- DT_NEEDED -----------------------------------------------------------------------
allowed_needed='^(libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-x86-64\.so\.2)$'
needed="$(readelf -d "$library" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
[ -n "$needed" ] || fail "readelf found no DT_NEEDED in $library"
echo "DT_NEEDED ($(echo "$needed" | wc -l)): $(echo $needed)"
while read -r entry; do
  [ -z "$entry" ] && continue
  if [[ "$entry" =~ $allowed_needed ]]; then continue; fi
  if [[ "$entry" =~ $pending ]]; then echo "  pending: DT_NEEDED $entry"; continue; fi
  fail "DT_NEEDED $entry is not libc, libm, libdl, libpthread, librt or the dynamic loader"
done <<< "$needed"

# ---- symbol versions -------------------------------------------------------------------
table="$(objdump -T "$library")" || { echo "FAIL: objdump -T $library"; exit 1; }
highest="$(grep -o 'GLIBC_[0-9][0-9.]*' <<< "$table" | sed 's/GLIBC_//' | sort -u -V | tail -1)"
echo "highest GLIBC_ version required: $highest (floor $floor)"
if [ "$(printf '%s\n%s\n' "$highest" "$floor" | sort -V | tail -1)" != "$floor" ]; then
  fail "requires GLIBC_$highest, above the floor $floor; these (bind them in agent/compat/):"
  while read -r line; do
    version="$(grep -o 'GLIBC_[0-9][0-9.]*' <<< "$line" | sed 's/GLIBC_//')"
    [ "$(printf '%s\n%s\n' "$version" "$floor" | sort -V | tail -1)" = "$floor" ] ||
      echo "    GLIBC_$version ${line##* }"
  done < <(grep 'GLIBC_[0-9]' <<< "$table")
fi
runtime_versions="$(grep -oE '(GLIBCXX|CXXABI|GCC)_[0-9][0-9.]*' <<< "$table" | sort -u)"
[ -z "$runtime_versions" ] ||
  fail "needs the C++ runtime's shared libraries: $(echo $runtime_versions)"

# ---- exports ---------------------------------------------------------------------------
exported="$(nm -D --defined-only "$library" | awk '$2 ~ /^[A-Zu]$/ { print $3 }')"
echo "exported: $(echo "$exported" | grep -c .) symbols"
if [ $program = 1 ]; then
  # nm of binutils 2.35 (Debian 11, scripts/release_check.sh) prints a defined
  # versioned symbol as stdout@@GLIBC_2.2.5, 2.40 (Debian 12) as stdout@GLIBC_2.2.5.
  unexpected="$(grep -vE '^[A-Za-z_][A-Za-z0-9_]*@@?GLIBC_[0-9.]+$' <<< "$exported" | grep -v '^$' || true)"
  [ -z "$unexpected" ] || fail "the program exports $(echo $unexpected | cut -c1-2000)"
else
  unexpected="$(grep -vE '^(cuda|__cuda|nccl|prof_|cupti(Subscribe|Unsubscribe|EnableCallback|EnableDomain|EnableAllDomains|GetCallbackState|ActivityRegisterCallbacks|ActivityEnable|ActivityDisable|ActivityFlushAll|Finalize)$|InitializeInjectionNvtx2$)' <<< "$exported" |
    grep -v '^$' || true)"
  [ -z "$unexpected" ] ||
    fail "exports beyond libprof.lds's entry points: $(echo $unexpected | cut -c1-2000)"
fi

# ---- undefined C++ symbols -------------------------------------------------------------
undefined="$(nm -D --undefined-only "$library" | awk '{ print $1 " " $2 }')"
while read -r kind symbol; do
  [ -z "$symbol" ] && continue
  case "$symbol" in
    _Z*) ;;
    *) continue ;;
  esac
  if [ "$kind" = w ] && [[ "$symbol" == _ZGTt* ]]; then continue; fi
  if [ $program = 1 ] && [ "$kind" = w ] && [[ "$symbol" == _ZTH* ]]; then continue; fi
  if [[ "$symbol" =~ $pending ]]; then
    pending_symbols=$((${pending_symbols:-0} + 1))
    continue
  fi
  cxx_undefined=$((${cxx_undefined:-0} + 1))
  [ "$cxx_undefined" -le 10 ] && echo "  undefined C++ symbol: $(c++filt "$symbol")"
done <<< "$undefined"
[ -z "${cxx_undefined:-}" ] || fail "$cxx_undefined undefined C++ symbols (the first 10 above)"
[ -z "${pending_symbols:-}" ] || echo "  pending: $pending_symbols undefined C++ symbols"

if [ $failures -gt 0 ]; then
  echo "$failures failure(s) in $library"
  exit 1
fi
echo "PASS: $library is self-contained"
