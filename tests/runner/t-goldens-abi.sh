#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The goldens in expected/ are reviewed: each must show the seed ABI, so
# that a wrong golden cannot be blessed silently by `make golden`.
# Workqueues (commit 226223ab3c41): the fixture's queues and attributes,
# what writes are refused; the TCA6507 (device-model article): the GTA04
# LEDs, the gpiochip, an exported GPIO, what the emulated chip shows.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

# golden CONFIG DESCRIPTION JQ-FILTER: the filter holds on the golden.
golden() {
	check "$1: $2" jq -e "$3" "expected/$1.json"
}

WQ='.roots["bus/workqueue"].entries.devices.entries'
LEDS='.roots["class/leds"].entries'
# probe OP PATH-SUFFIX: the first probe record with that op and path end
probe() {
	printf '[.probes[] | select(.op == "%s" and ((.path // .label) | endswith("%s")))]' "$1" "$2"
}

# Unbound queues' own attributes, by source: 6.12 replaced pool_ids and
# numa with affinity_scope and affinity_strict (the affinity-scope rework
# of kernel/workqueue.c); each side's are asserted absent on the other.
unbound_attrs() {
	case $1 in
	6.1) echo '"pool_ids", "numa"' ;;
	*) echo '"affinity_scope", "affinity_strict"' ;;
	esac
}
gone_attrs() {
	case $1 in
	6.1) echo '"affinity_scope", "affinity_strict"' ;;
	*) echo '"pool_ids", "numa"' ;;
	esac
}

"$SYSFARM" list --json | jq -r '.[] | "\(.config) \(.source)"' >"$TMP/configs"
while read -r c source; do
	check "$c: a golden exists" test -f "expected/$c.json"
	golden "$c" "the fixture logged every step, ordered queue refused or no-op" \
		'.kmsg | index("sysfarm-wq: done") != null and
		 (map(select(startswith("sysfarm-wq: sysfarm_attrs: workqueue_sysfs_register(): 0"))) | length == 1)'
	case $c in
	*sysfs-off*)
		golden "$c" "sysfs absent, so WQ_SYSFS on an ordered queue is a harmless no-op" \
			'(.sysfs.mounted | not) and .sysfs.error == "ENODEV" and
			 (.kmsg | index("sysfarm-wq: sysfarm_ordered: alloc_ordered_workqueue(WQ_SYSFS): ok") != null)'
		continue ;;
	esac
	case $source in
	6.1 | 6.12)
		golden "$c" "the ordered queue is refused and absent, the probe's read ENOENT" \
			"(.kmsg | index(\"sysfarm-wq: sysfarm_ordered: alloc_ordered_workqueue(WQ_SYSFS): refused\") != null) and
			 ($WQ | has(\"sysfarm_ordered\") | not) and
			 ($(probe read sysfarm_ordered/max_active) | .[0].result) == \"ENOENT\""
		;;
	*)
		# 7.3's workqueue_sysfs_register() takes ordered queues;
		# wq_sysfs_is_visible() makes their max_active read-only.
		golden "$c" "the ordered queue is exposed, max_active 0444 = 1 ($source)" \
			"(.kmsg | index(\"sysfarm-wq: sysfarm_ordered: alloc_ordered_workqueue(WQ_SYSFS): ok\") != null) and
			 ($WQ.sysfarm_ordered.follow.entries as \$q |
			  \$q.per_cpu.value == \"0\\n\" and
			  \$q.max_active.mode == \"0444\" and \$q.max_active.value == \"1\\n\" and
			  ([\"nice\", \"cpumask\", $(unbound_attrs "$source")] |
			   all(. as \$a | \$q[\$a].mode == \"0644\")))"
		golden "$c" "the probe reads the ordered queue's max_active ($source)" \
			"$(probe read sysfarm_ordered/max_active) | .[0] | .result == \"ok\" and .value == \"1\\n\""
		;;
	esac
	golden "$c" "per-cpu queue: per_cpu 0444 = 1, max_active 0644, no unbound attributes" \
		"$WQ.sysfarm_percpu.follow.entries as \$q |
		 \$q.per_cpu.mode == \"0444\" and \$q.per_cpu.value == \"1\\n\" and
		 \$q.max_active.mode == \"0644\" and
		 ([\"nice\", \"cpumask\", $(unbound_attrs "$source")] |
		  all(. as \$a | \$q | has(\$a) | not))"
	for q in sysfarm_unbound sysfarm_attrs writeback; do
		golden "$c" "$q: unbound attributes with their modes ($source)" \
			"$WQ.$q.follow.entries as \$q |
			 \$q.per_cpu.mode == \"0444\" and \$q.per_cpu.value == \"0\\n\" and
			 \$q.max_active.mode == \"0644\" and
			 \$q.nice.mode == \"0644\" and \$q.cpumask.mode == \"0644\" and
			 ([$(unbound_attrs "$source")] | all(. as \$a |
			  \$q[\$a].mode == (if \$a == \"pool_ids\" then \"0444\"
					  else \"0644\" end))) and
			 ([$(gone_attrs "$source")] | all(. as \$a | \$q | has(\$a) | not))"
	done
	golden "$c" "attributes applied before workqueue_sysfs_register(): nice -5, CPU 0" \
		"$WQ.sysfarm_attrs.follow.entries as \$q |
		 \$q.nice.value == \"-5\\n\" and \$q.cpumask.value == \"1\\n\""
	golden "$c" "max_active refuses 0, -1 and a word with EINVAL; 8 reads back" \
		"[$(probe write max_active)[].result] == [\"EINVAL\", \"EINVAL\", \"EINVAL\", \"ok\"] and
		 ($(probe read sysfarm_percpu/max_active) | last.value) == \"8\\n\""
	golden "$c" "nice refuses 20 and -21 with EINVAL, takes 5" \
		"[$(probe write sysfarm_unbound/nice)[].result] == [\"EINVAL\", \"EINVAL\", \"ok\"] and
		 ($(probe read sysfarm_unbound/nice) | last.value) == \"5\\n\""
	golden "$c" "a cpumask write sticks" \
		"($(probe write sysfarm_unbound/cpumask) | .[0].result) == \"ok\" and
		 ($(probe read sysfarm_unbound/cpumask) | last.value) == \"1\\n\""
	golden "$c" "both vCPUs are online (writeback cpumask 3)" \
		"$WQ.writeback.follow.entries.cpumask.value == \"3\\n\""
	case $c in
	*tca6507*) ;;
	*)
		golden "$c" "no chip: no gta04 LED, no gpiochip or chipN" \
			"($LEDS | keys | map(select(startswith(\"gta04:\"))) == []) and
			 (.roots[\"class/gpio\"].entries | keys | map(select(test(\"^(gpio)?chip\"))) == [])"
		continue ;;
	esac
	golden "$c" "the four GTA04 LEDs, each with brightness, max_brightness, trigger" \
		". as \$s | [\"gta04:red:aux\", \"gta04:green:aux\", \"gta04:red:power\", \"gta04:green:power\"] |
		 all(. as \$l | \$s$LEDS[\$l].follow.entries as \$e |
		     \$e.brightness.mode == \"0644\" and \$e.max_brightness.mode == \"0444\" and
		     \$e.trigger.mode == \"0644\")"
	golden "$c" "gta04:red:power's trigger lists every trigger, [default-on] active" \
		"$LEDS[\"gta04:red:power\"].follow.entries.trigger.value |
		 test(\"\\\\[default-on\\\\]\") and test(\"timer\") and test(\"none\")"
	golden "$c" "one gpiochip labelled gpio-tca6507 with one line" \
		".roots[\"class/gpio\"].entries | to_entries |
		 map(select(.key | startswith(\"gpiochip\")) | .value.follow.entries) |
		 length == 1 and .[0].label.value == \"gpio-tca6507\\n\" and
		 .[0].ngpio.value == \"1\\n\" and .[0].base.mode == \"0444\""
	golden "$c" "exporting the TCA's line creates a gpioN device with value" \
		"($(probe export gpio-tca6507) | .[0].result) == \"ok\" and
		 (.roots[\"class/gpio\"].entries | to_entries |
		  map(select(.key | test(\"^gpio[0-9]+$\"))) | length == 1 and
		  .[0].value.follow.entries.value.mode == \"0644\")"
	case $source in
	6.1 | 6.12)
		golden "$c" "no chipN device beside gpiochipN ($source)" \
			".roots[\"class/gpio\"].entries | keys | map(select(test(\"^chip\"))) == []"
		;;
	*)
		# 7.3's gpiochip_sysfs_register(): chipX (the gpio device's
		# id) with gpiochip_ext_attrs[]; gpiod_export() adds the line
		# as group gpio<OFFSET> there, value only (no direction_input).
		golden "$c" "chip0 beside gpiochipN: label, ngpio, export, unexport, the exported line's gpio0/value ($source)" \
			".roots[\"class/gpio\"].entries.chip0.follow.entries as \$e |
			 \$e.label.value == \"gpio-tca6507\\n\" and \$e.ngpio.value == \"1\\n\" and
			 \$e.export.mode == \"0200\" and \$e.unexport.mode == \"0200\" and
			 (\$e.gpio0.entries | keys) == [\"value\"] and
			 \$e.gpio0.entries.value.mode == \"0644\""
		;;
	esac
	golden "$c" "every chip-state wait held (LED on, master, blink bank, GPIO pin)" \
		"[.probes[] | select(.op == \"wait\") | .result] | length == 6 and all(. == \"ok\")"
done <"$TMP/configs"
done_testing
