# SPDX-License-Identifier: GPL-2.0
# Sourced by the workflow tests (after tests/lib.sh): a job of the workflow
# replayed step by step, exactly as written.
WF=.github/workflows/sysfs-abi.yml

# run_steps JOB ENTRY RUN...: every `run:` of JOB, in order, each as
# `RUN... NAME=VALUE... sh -c STEP`, with the env: the workflow gives the
# job's steps (each `NAME: ${{ matrix.FIELD }}`, FIELD taken from ENTRY,
# the job's matrix entry as JSON). Fails at the first step that fails.
run_steps() {
	rs_job=$1 rs_entry=$2
	shift 2
	sed -n "/^  $rs_job:\$/,/^  [a-z]/p" "$WF" >"$TMP/job.$rs_job"
	sed -n 's/^ *run: //p' "$TMP/job.$rs_job" >"$TMP/steps.$rs_job"
	test -s "$TMP/steps.$rs_job" || return 1
	sed -n 's/^ *\([A-Z_]*\): \${{ matrix\.\([a-z]*\) }}$/\1 \2/p' \
		"$TMP/job.$rs_job" | sort -u >"$TMP/env.$rs_job"
	while read -r rs_name rs_field; do
		set -- "$@" "$rs_name=$(printf '%s' "$rs_entry" |
			jq -r --arg f "$rs_field" '.[$f] // ""')"
	done <"$TMP/env.$rs_job"
	while read -r rs_step; do
		echo "# $rs_job: $rs_step"
		"$@" sh -c "$rs_step" </dev/null || return 1
	done <"$TMP/steps.$rs_job"
}
