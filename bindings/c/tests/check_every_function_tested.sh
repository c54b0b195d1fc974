#!/usr/bin/env bash
# test_c_api.c calls every function wayfinder.h declares, so that a function added to the
# header without a test (of its answers and its error paths) fails here.
set -euo pipefail
header=$1
test_source=$2
missing=0
declared=$(grep -E '^WF_API ' "$header" | grep -oE '\bwf_[a-z0-9_]+\(' | tr -d '(' | sort -u)
for function in $declared; do
  if ! grep -qE "\b$function\(" "$test_source"; then
    echo "$(basename "$test_source") never calls $function"
    missing=1
  fi
done
[[ $missing -eq 0 ]] && echo "$(echo "$declared" | wc -l) functions declared, every one called by $(basename "$test_source")"
exit $missing
