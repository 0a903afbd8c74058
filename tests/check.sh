# Shared by the shell tests: check NAME EXPECTED ACTUAL counts failures in $failures; finish prints
# the plain "N passed, N failed" line and sets the exit code.
failures=0
passes=0
check() {
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1: expected '$2', got '$3'"
    failures=$((failures + 1))
  else
    echo "ok: $1"
    passes=$((passes + 1))
  fi
}
finish() {
  echo "$1: $passes passed, $failures failed"
  [ "$failures" -eq 0 ]
}
