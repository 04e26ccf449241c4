# Shared by tests/e2e/test_diffrun_wave64.sh and test_wave64_bisect_launches.sh: the ferry binary,
# a scratch folder removed on exit, and `expect`, which checks one command's exit status and output.
set -u
FERRY=${FERRY:?set FERRY to the ferry binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
expect() {  # expect NAME RC PATTERN OUTPUT RC_GOT
  if [[ $5 -ne $2 ]] || ! grep -qE -- "$3" <<<"$4"; then
    echo "FAIL $1: exit $5 (want $2), output lacks /$3/:"
    sed 's/^/    /' <<<"$4" | tail -25
    fails=$((fails + 1))
  else
    echo "ok   $1"
  fi
}
