#!/usr/bin/env bash
# The shared library exports exactly the functions wayfinder.h declares: nothing else (not the
# core's C++ symbols, nor the standard library's) and none of them missing.
set -euo pipefail
library=$1
header=$2
exported=$(nm -D --defined-only "$library" | awk '$2 ~ /^[TtWwDdBbRrVviu]$/ { print $3 }' | sed 's/@.*//' | sort -u)
declared=$(grep -E '^WF_API ' "$header" | grep -oE '\bwf_[a-z0-9_]+\(' | tr -d '(' | sort -u)
status=0
stray=$(comm -23 <(echo "$exported") <(echo "$declared"))
if [[ -n "$stray" ]]; then
  echo "exported but not declared in wayfinder.h:"; echo "$stray" | head -20; status=1
fi
missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
if [[ -n "$missing" ]]; then
  echo "declared in wayfinder.h but not exported:"; echo "$missing"; status=1
fi
not_prefixed=$(echo "$exported" | grep -v '^wf_' || true)
if [[ -n "$not_prefixed" ]]; then
  echo "exported symbols without the wf_ prefix:"; echo "$not_prefixed" | head -20; status=1
fi
soname=$(objdump -p "$library" | awk '$1 == "SONAME" { print $2 }')
if [[ ! "$soname" =~ ^libwayfinder_c\.so\.[0-9]+\.[0-9]+$ ]]; then
  echo "unexpected soname: '$soname'"; status=1
fi
[[ $status -eq 0 ]] && echo "$(echo "$exported" | wc -l) symbols exported, all declared, all wf_; soname $soname"
exit $status
