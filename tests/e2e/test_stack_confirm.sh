#!/usr/bin/env bash
# test_stack_confirm.sh — the preview and the confirmation on a real terminal (tmux), as `pulumi
# import` asks before it writes the selected stack: answering "no" writes nothing and releases the
# lock; answering "yes" imports; --yes on the same terminal asks nothing. The stack lives on a DIY
# file backend laid out as Pulumi lays it out, made from a real `pulumi stack export`.
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (apt-get install tmux)" >&2; exit 1; }
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
work=$(mktemp -d)
sock="cimport-confirm-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
Q="$SOURCE_DIR/examples/quickstart"
S="$SHARED_DATA/schemas/random/schema.json"
EXPORT="$SHARED_DATA/pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randomstring/4.16.0/stack.json"
PROJ=index_randomstringTu2iX3Vq02G9
home="$work/home" state="$work/state"
mkdir -p "$state/.pulumi/stacks/$PROJ" "$home/workspaces" "$work/proj"
printf 'version: 1\n' >"$state/.pulumi/meta.yaml"
python3 - "$EXPORT" "$state/.pulumi/stacks/$PROJ/test.json" "$PROJ" <<'PY'
import json, sys
exp = json.load(open(sys.argv[1]))
cp = {"version": 3, "checkpoint": {"stack": "organization/%s/test" % sys.argv[3], "latest": exp["deployment"]}}
open(sys.argv[2], "w").write(json.dumps(cp, separators=(",", ":")))
PY
cp "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json"
printf 'name: %s\nruntime: nodejs\n' "$PROJ" >"$work/proj/Pulumi.yaml"
sha=$(printf '%s' "$work/proj/Pulumi.yaml" | sha1sum | cut -d' ' -f1)
printf '{"stack": "test"}' >"$home/workspaces/$PROJ-$sha-workspace.json"
printf '{"current": "file://%s"}' "$state" >"$home/credentials.json"
lockdir="$state/.pulumi/locks/organization/$PROJ/test"

# run_in_tmux NAME ARGS...: starts cimport on a terminal in the project; its exit code goes to NAME.rc
run_in_tmux() {
  local name=$1; shift
  printf '%q ' env "PULUMI_HOME=$home" "$CIMPORT" --spec "$Q/imports.json" --offline-state "$Q/stack.json" --schema "$S" \
    -l typescript -o "$work/$name.ts" "$@" >"$work/$name.cmd"
  tmux -L "$sock" new-session -d -s "$name" -x 200 -y 60 -c "$work/proj" \
    "bash -c '$(cat "$work/$name.cmd") >$work/$name.out; echo \$? >$work/$name.rc; sleep 120'"
}
# what the terminal showed (wrapped lines joined), once the run has ended
saveerr() { tmux -L "$sock" capture-pane -p -J -t "$1" -S -1000 >"$work/$1.err"; }
wait_for() { # wait_for SECONDS COMMAND...
  local t=$(($1 * 10)); shift
  while [ $t -gt 0 ]; do "$@" && return 0; sleep 0.1; t=$((t - 1)); done
  return 1
}
screen() { tmux -L "$sock" capture-pane -p -J -t "$1" -S -1000; }
asks() { screen "$1" | grep -qF 'Do you want to perform this import? [yes/no]'; }

# 1. answer "no": nothing written, lock released
run_in_tmux no
wait_for 60 asks no && ok || { bad "no question on the terminal"; screen no >&2; }
screen no | grep -qF "Previewing import (organization/$PROJ/test at file://$state)" && ok || bad "no preview naming the stack"
screen no | grep -qE '= import +random:index/randomString:RandomString server-name \(id mq7xk2vt9fzr\)' && ok || bad "the preview does not list the string"
screen no | grep -qF 'Resources: 4 to import, 1 to create, 0 already in the stack' && ok || bad "the preview has no counts"
[ -n "$(ls "$lockdir" 2>/dev/null)" ] && ok || bad "the stack is not locked while cimport asks"
tmux -L "$sock" send-keys -t no "no" Enter
wait_for 30 test -s "$work/no.rc" && [ "$(cat "$work/no.rc")" = 2 ] && ok || bad "declined: exit $(cat "$work/no.rc" 2>/dev/null)"
saveerr no
grep -qF 'import declined: nothing was written' "$work/no.err" && ok || bad "declined message: $(cat "$work/no.err")"
cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" && ok || bad "declined, yet the checkpoint changed"
[ ! -e "$work/no.ts" ] && ok || bad "declined, yet the code file was written"
[ -z "$(ls "$lockdir" 2>/dev/null)" ] && ok || bad "declined: the lock was not released"

# 2. answer "yes": imported
run_in_tmux yes
wait_for 60 asks yes && ok || { bad "no question the second time"; screen yes >&2; }
tmux -L "$sock" send-keys -t yes "yes" Enter
wait_for 30 test -s "$work/yes.rc" && [ "$(cat "$work/yes.rc")" = 0 ] && ok || bad "confirmed: exit $(cat "$work/yes.rc" 2>/dev/null): $(screen yes)"
saveerr yes
grep -qF "cimport: imported 4 of 5 resources into stack organization/$PROJ/test" "$work/yes.err" && ok || bad "confirmed summary: $(cat "$work/yes.err")"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["checkpoint"]["latest"]["resources"]; assert any(x.get("id")=="mq7xk2vt9fzr" for x in r)' \
  "$state/.pulumi/stacks/$PROJ/test.json" && ok || bad "confirmed, yet server-name is not in the stack"
[ -s "$work/yes.ts" ] && ok || bad "confirmed, yet no code"
[ -z "$(ls "$lockdir" 2>/dev/null)" ] && ok || bad "confirmed: the lock was not released"

# 3. --yes on a terminal: the preview, no question
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"
run_in_tmux y --yes
wait_for 60 test -s "$work/y.rc" && [ "$(cat "$work/y.rc")" = 0 ] && ok || bad "--yes: exit $(cat "$work/y.rc" 2>/dev/null)"
saveerr y
! grep -qF 'Do you want to perform this import?' "$work/y.err" && ok || bad "--yes still asked"
grep -qF 'Previewing import' "$work/y.err" && ok || bad "--yes should still show the preview"

# 4. answer "no" with --json: the results document and its report say the import was declined (the
# page said "an output could not be written (see the run diagnostics)", and there was none)
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"
run_in_tmux nojson --json
wait_for 60 asks nojson && ok || { bad "no question with --json"; screen nojson >&2; }
tmux -L "$sock" send-keys -t nojson "no" Enter
wait_for 30 test -s "$work/nojson.rc" && [ "$(cat "$work/nojson.rc")" = 2 ] && ok || bad "declined --json: exit $(cat "$work/nojson.rc" 2>/dev/null)"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; assert s["written"] is False and s.get("declined") is True, s' \
  "$work/nojson.out" && ok || bad "declined --json: the document does not say it was declined: $(head -c 300 "$work/nojson.out")"
"$CIMPORT" report "$work/nojson.out" -o "$work/nojson.html" 2>/dev/null &&
  python3 "$SOURCE_DIR/tests/e2e/report_browser.py" dom "$work/nojson.html" all >"$work/nojson.dom" &&
  python3 "$SOURCE_DIR/tests/e2e/report_check.py" "$work/nojson.dom" "$work/nojson.out" --offline &&
  grep -qF 'the import was declined at the confirmation' "$work/nojson.dom" && ok || bad "the report of a declined import"

echo "test_stack_confirm: $pass passed, $fail failed"
[ "$fail" = 0 ]
