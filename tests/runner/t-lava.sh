#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# LAVA (runner/pipeline/LAVA.md): `sysfarm lava-jobs` writes jobs that pass
# lava_common's strict schema and lava-run's own validation; `--backend
# lava` boots through Debian's lava-run on this machine and gives the QEMU
# back end's snapshots byte for byte and PASS against the same goldens, on
# x86_64 and arm; faults through LAVA are PANIC, TIMEOUT, CORRUPT, and
# LAVA's own failure is QEMU-FAIL; an interrupted LAVA boot leaves no QEMU
# or lava-run behind; a lab's log (--backend lab) gives the same verdicts
# without a boot. Runs after t-run.sh, so the kernels are built.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
X=x86_64-sysfs-on-tca6507
A=arm-sysfs-on-tca6507
# lava-dispatcher is Python: its own interpreter, not a virtualenv's
PY=/usr/bin/python3
LAVA_TMP=/var/lib/lava/dispatcher/tmp

if ! command -v lava-run >/dev/null; then
	skip "LAVA" "lava-run is missing (ci/deps-test installs lava-dispatcher)"
	done_testing
	exit 0
fi

no_lava_left() {
	! pgrep -af "qemu-system.*$LAVA_TMP/sysfarm-|lava-run --job-id sysfarm-"
}

# Job definitions, for every configuration of the matrix (whose source
# can be had here: at_hand).
at_hand
"$SYSFARM" list --json $AT_HAND | jq -r '.[] | "\(.config) \(.key)"' \
	>"$TMP/configs"
rm -rf build/lava
"$SYSFARM" lava-jobs $AT_HAND >"$TMP/out" 2>&1
check "lava-jobs for the whole matrix (status $?)" \
	test "$(wc -l <"$TMP/configs")" -eq "$(ls build/lava/*/job.yaml | wc -l)"
cat >"$TMP/validate.py" <<'EOF'
import sys, yaml
from lava_common.schemas import validate
for path in sys.argv[1:]:
    try:
        validate(yaml.safe_load(open(path)), strict=True)
    except Exception as e:
        print("%s: %s" % (path, e))
        sys.exit(1)
EOF
check "... each passes lava_common's strict job schema" \
	"$PY" "$TMP/validate.py" build/lava/*/job.yaml
check "... names its configuration, build key, source and series" sh -c "
	for c in \$(cut -d' ' -f1 '$TMP/configs'); do
		$PY -c 'import sys, yaml; m = yaml.safe_load(open(sys.argv[1]))[\"metadata\"]; print(m[\"sysfarm.config\"], m[\"sysfarm.key\"], m[\"sysfarm.source\"] != \"\", m[\"sysfarm.series\"] != \"\")' build/lava/\$c/job.yaml
	done >'$TMP/meta'
	sed 's/\$/ True True/' '$TMP/configs' | diff - '$TMP/meta'"
cat >"$TMP/images.py" <<'EOF'
import hashlib, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
for label, img in job["actions"][0]["deploy"]["images"].items():
    path = img["url"][len("file://"):]
    assert img["url"].startswith("file://" + sys.argv[2]), img["url"]
    assert hashlib.sha256(open(path, "rb").read()).hexdigest() == img["sha256sum"], label
    print(label)
EOF
check "... its images beside it, by file:// URL and sha256sum" sh -c \
	"$PY '$TMP/images.py' build/lava/$A/job.yaml '$TOP/build/lava/$A/' |
	 paste -sd' ' | grep -qx 'kernel ramdisk dtb'"
"$SYSFARM" lava-jobs --url 'https://lab.example/sysfarm/' "$X" >/dev/null 2>&1
check "--url: the images under the base URL, by configuration" grep -q \
	"url: https://lab.example/sysfarm/$X/bzImage" "build/lava/$X/job.yaml"

# A boot through lava-run equals the QEMU back end's, and passes.
for c in $X $A; do
	"$SYSFARM" run "$c" >/dev/null 2>&1
	cp "build/out/$c/snapshot.json" "$TMP/qemu-$c.json"
	t=$(date +%s.%N)
	"$SYSFARM" check --backend lava "$c" >"$TMP/out" 2>&1
	status=$?
	echo "# $c through lava-run: $(echo "$(date +%s.%N) - $t" | bc) s"
	check "$c through lava-run: PASS (status $status)" \
		jq -e '.verdict == "PASS"' "build/out/$c/result.json"
	[ "$status" -eq 0 ] || sed 's/^/# /' "$TMP/out"
	check "... its snapshot is the QEMU back end's byte for byte" \
		cmp "$TMP/qemu-$c.json" "build/out/$c/snapshot.json"
	check "... the job, device and log kept in out/$c/lava/" test -s \
		"build/out/$c/lava/lava.log" -a -s "build/out/$c/lava/device.yaml"
	check "... lava-run's own validation accepts job and device" \
		lava-run --validate --job-id "sysfarm-validate-$$" \
		--output-dir "$TMP/validate" \
		--device "build/out/$c/lava/device.yaml" \
		--dispatcher "build/out/$c/lava/dispatcher.yaml" \
		"build/out/$c/lava/job.yaml"
done

# A lab's boot (--backend lab): its LAVA log read back, nothing booted;
# lava-run's log stands in for the lab's, and as `lavacli jobs logs --raw`
# gives it (a YAML list).
cp "build/out/$X/lava/lava.log" "build/lava/$X/lava.log"
"$SYSFARM" check --backend lab "$X" >"$TMP/out" 2>&1
check "--backend lab: PASS from the log (status $?)" \
	jq -e '.verdict == "PASS"' "build/out/$X/result.json"
check "... the same snapshot byte for byte" cmp "$TMP/qemu-$X.json" \
	"build/out/$X/snapshot.json"
check "... nothing booted" sh -c "! grep -q 'booting' '$TMP/out'"
sed 's/^/- /' "build/out/$X/lava/lava.log" >"build/lava/$X/lava.log"
"$SYSFARM" check --backend lab "$X" >"$TMP/out" 2>&1
check "... also as lavacli's raw log, a YAML list (status $?)" \
	jq -e '.verdict == "PASS"' "build/out/$X/result.json"
grep -v '"case": "job"' "build/out/$X/lava/lava.log" >"build/lava/$X/lava.log"
"$SYSFARM" check --backend lab "$X" >"$TMP/out" 2>&1
check "a log without the job's result (not ended): QEMU-FAIL, said (status $?)" \
	grep -q "lava.log: no job result: the job has not ended" "$TMP/out"
sha=$(grep '"case": "file-download"' "build/out/$X/lava/lava.log" |
	grep '"label": "kernel"' |
	sed -n 's/.*"sha256sum": "\([0-9a-f]*\)".*/\1/p' | head -1)
sed "s/$sha/0000$(echo "$sha" | cut -c5-)/" "build/out/$X/lava/lava.log" \
	>"build/lava/$X/lava.log"
"$SYSFARM" check --backend lab "$X" >"$TMP/out" 2>&1
check "the log of another kernel (jobs written before this build): QEMU-FAIL (status $?)" \
	grep -q "the lab booted another kernel (sha256 0000" "$TMP/out"
rm -f "build/lava/$A/lava.log"
"$SYSFARM" check --backend lab "$A" >"$TMP/out" 2>&1
check "no log from the lab: QEMU-FAIL (status $?)" \
	jq -e '.verdict == "QEMU-FAIL"' "build/out/$A/result.json"
check "... saying where it goes and how to fetch it" grep -q \
	"no LAVA log at $TOP/build/lava/$A/lava.log: fetch the job's with .lavacli jobs logs --raw ID" \
	"$TMP/out"

# Faults through LAVA.
check "init that exits, through LAVA: PANIC" \
	run PANIC x86_64-sysfs-on --backend lava --append sysfarm.fault=exit
check "... with the panic's console lines" \
	grep -q 'Kernel panic - not syncing' "$TMP/out"
check "a hung guest through LAVA: TIMEOUT" \
	run TIMEOUT x86_64-sysfs-on --backend lava --append sysfarm.fault=hang \
	--timeout 10
check "... LAVA's monitor timed out, not our watchdog" \
	grep -q 'lava-test-monitor timed out after 10 seconds' \
	build/out/x86_64-sysfs-on/lava/lava.log
check "... no QEMU or lava-run left" no_lava_left
cp build/out/x86_64-sysfs-on/lava/lava.log build/lava/x86_64-sysfs-on/lava.log
check "... and the same from the lab's log: TIMEOUT" \
	sh -c "'$SYSFARM' run --backend lab --append sysfarm.fault=hang \
	       --timeout 10 x86_64-sysfs-on >'$TMP/out' 2>&1;
	       jq -e '.verdict == \"TIMEOUT\" and .retried == []' \
	       build/out/x86_64-sysfs-on/result.json"
check "a bit-flipped frame through LAVA: CORRUPT" \
	run CORRUPT arm-sysfs-off --backend lava --append sysfarm.fault=bitflip
check "... its checksum failed" grep -qi 'checksum' "$TMP/out"
check "a truncated frame through LAVA: CORRUPT" \
	run CORRUPT x86_64-sysfs-off --backend lava --append sysfarm.fault=truncate

# LAVA's own failure: a QEMU that exits at once (a fake one first in PATH,
# answering LAVA's --version) is an Infrastructure error, QEMU-FAIL.
mkdir -p "$TMP/bin"
printf '#!/bin/sh\n[ "$1" = --version ] && echo "QEMU emulator version 7.2.0"\nexit 1\n' \
	>"$TMP/bin/qemu-system-x86_64"
chmod +x "$TMP/bin/qemu-system-x86_64"
PATH="$TMP/bin:$PATH" "$SYSFARM" run --backend lava x86_64-sysfs-off \
	>"$TMP/out" 2>&1
check "LAVA's infrastructure error: QEMU-FAIL (status $?)" \
	jq -e '.verdict == "QEMU-FAIL"' build/out/x86_64-sysfs-off/result.json
check "... naming LAVA's error and its log" grep -q \
	'LAVA job ended before the guest printed anything: Infrastructure error: .*lava.log' \
	"$TMP/out"
check "a command line LAVA cannot carry: QEMU-FAIL, said before lava-run" \
	run QEMU-FAIL x86_64-sysfs-off --backend lava --append 'sysfarm.x={y}'
check "... naming the brace" grep -q 'brace' "$TMP/out"
check "a no-break space, which LAVA's split would cut at: QEMU-FAIL" \
	run QEMU-FAIL x86_64-sysfs-off --backend lava \
	--append "$(printf 'a\302\240b')"
check "... named a byte outside ASCII" grep -q 'outside ASCII' "$TMP/out"
"$SYSFARM" lava-jobs --url 'http://lab/x -hda foo#' x86_64-sysfs-off \
	>"$TMP/out" 2>&1
check "lava-jobs --url with a space: exit 2 (status $?)" \
	grep -q "^sysfarm: --url: ' ' in" "$TMP/out"

# SIGINT while lava-run boots: nothing left, LAVA's directory removed.
"$SYSFARM" run --backend lava --append sysfarm.fault=hang --timeout 60 \
	x86_64-sysfs-off >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do
	pgrep -f "qemu-system.*$LAVA_TMP/sysfarm-" >/dev/null && break
	sleep 0.1
done
sleep 1
kill -INT "$pid"
wait "$pid"
status=$?
check "SIGINT during a LAVA boot: sysfarm ends by it (status $status)" \
	test "$status" -eq 130
sleep 1
check "... no QEMU or lava-run left" no_lava_left
check "... nor LAVA's job directory" sh -c "! ls -d $LAVA_TMP/sysfarm-$pid-* 2>/dev/null"
done_testing
