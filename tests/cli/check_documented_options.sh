#!/usr/bin/env bash
# Every option that a subcommand's --help prints must be documented for that subcommand, so
# that the documentation cannot drift from the command:
#
#  - in README.md's section "The `wayfinder` command", in the synopsis lines of that subcommand
#    (the lines starting "wayfinder grid path", with their indented continuation lines);
#  - in docs/cli.md, in the section whose heading names the subcommand ("## `wayfinder grid path`").
#
# Subcommands are found from the --help output itself, so a new one is checked without changes
# here. Hidden option spellings (old names kept working) are not printed by --help and need no
# documentation.
#
#   tests/cli/check_documented_options.sh WAYFINDER_BINARY REPOSITORY_ROOT
set -uo pipefail
wayfinder=$1
root=$2
readme=$root/README.md
cli_page=$root/docs/cli.md
failures=0

# The names of the subcommands listed under "Subcommands:" in a help text.
subcommands_of() {
  awk '/^Subcommands:/ { listing = 1; next } listing && /^  [a-z]/ { print $1; next } listing && !/^  / { listing = 0 }' <<<"$1"
}

# The long option names on the option lines of a help text (option lines start with exactly two
# spaces; wrapped descriptions are indented further).
options_of() {
  grep -E '^  (-[A-Za-z0-9],)?--[a-z0-9-]+' <<<"$1" | sed -E 's/^  (-[A-Za-z0-9],)?(--[a-z0-9-]+).*/\2/' |
    grep -vx -e '--help' -e '--version'
}

# README's synopsis entries for a subcommand: the code lines of the command section that start
# with "wayfinder SUBCOMMAND " (or end there), each with the indented lines that continue it.
readme_entries() {
  local command=$1
  awk -v command="wayfinder $command" '
    /^## The `wayfinder` command/ { section = 1; next }
    section && /^## / { section = 0 }
    !section { next }
    /^```/ { code = !code; taking = 0; next }
    !code { next }
    /^wayfinder / { taking = (index($0 " ", command " ") == 1) }
    /^[^ ]/ && !/^wayfinder / { taking = 0 }
    taking { print }
  ' "$readme"
}

# docs/cli.md's section for a subcommand: from a heading that names "wayfinder SUBCOMMAND" in
# backquotes up to the next heading of the same or a higher level.
cli_page_section() {
  local command=$1
  awk -v heading="\`wayfinder $command\`" '
    /^#+ / {
      level = index($0, " ") - 1
      if (taking && level <= taking_level) taking = 0
      if (index($0, heading) > 0) { taking = 1; taking_level = level }
    }
    taking { print }
  ' "$cli_page"
}

# check COMMAND: the subcommand's options against both documents; then its own subcommands.
check() {
  local command=$1
  local help
  # shellcheck disable=SC2086  # the command is words on purpose
  if ! help=$("$wayfinder" $command --help 2>&1); then
    echo "FAIL: 'wayfinder $command --help' failed"
    failures=$((failures + 1))
    return
  fi
  local subcommands
  subcommands=$(subcommands_of "$help")
  if [[ -n $subcommands ]]; then
    local sub
    for sub in $subcommands; do check "${command:+$command }$sub"; done
    return
  fi

  local options entries section missing_readme="" missing_page=""
  options=$(options_of "$help")
  entries=$(readme_entries "$command")
  section=$(cli_page_section "$command")
  if [[ -z $entries ]]; then
    echo "FAIL: README.md has no synopsis line 'wayfinder $command ...' in the section on the wayfinder command"
    failures=$((failures + 1))
  fi
  if [[ -z $section ]]; then
    echo "FAIL: docs/cli.md has no section headed '\`wayfinder $command\`'"
    failures=$((failures + 1))
  fi
  local option
  for option in $options; do
    # A whole option name: not followed by more of a name (--z-up is not --z).
    [[ -n $entries ]] && ! grep -qE -- "${option}([^a-z0-9-]|\$)" <<<"$entries" && missing_readme+=" $option"
    [[ -n $section ]] && ! grep -qE -- "${option}([^a-z0-9-]|\$)" <<<"$section" && missing_page+=" $option"
  done
  if [[ -n $missing_readme ]]; then
    echo "FAIL: README.md's synopsis of 'wayfinder $command' lacks:$missing_readme"
    failures=$((failures + 1))
  fi
  if [[ -n $missing_page ]]; then
    echo "FAIL: docs/cli.md's section on 'wayfinder $command' lacks:$missing_page"
    failures=$((failures + 1))
  fi
  if [[ -z $missing_readme && -z $missing_page && -n $entries && -n $section ]]; then
    echo "ok   wayfinder $command: $(wc -w <<<"$options") options documented"
  fi
}

check ""
if [[ $failures -ne 0 ]]; then
  echo "$failures documentation check(s) failed"
  exit 1
fi
echo "every option of every subcommand is documented"
