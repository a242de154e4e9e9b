/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results.json: written by check and update (results_json()), read by
 * `sysfarm report` (results_load()); the writers of compare/report.h take
 * what results_load() checked. Each configuration's BUILD/out/CONFIG/
 * result.json (pipeline/run.c's run_result_json()) is another file: a
 * results.json entry starts from it.
 */
#ifndef SYSFARM_RESULTS_H
#define SYSFARM_RESULTS_H

#include <jansson.h>

#include "lib/util.h"
#include "pipeline/farm.h"
#include "verify/golden.h"

/*
 * A results file: {"configs": [{"config": NAME, "verdict": VERDICT,
 * "key": KEY, "message": TEXT, "seconds": N, "diff": [...],
 * "inputs_changed": ["source: A -> B", ...], "abi": [...], "axes":
 * [{"name": AXIS, "value": VALUE}, ...], "confirmed": BOOL, "arch":
 * ARCH, "kconfig": [FRAGMENT, ...], "roots": [ROOT, ...], "inputs":
 * {"source": ..., "series": ..., ...}, "patchset_hash": HEX, ...}, ...],
 * "abi_stale": [...]}; "diff" is what diff_to_json() makes
 * (diff_from_json() says what it refuses), "abi" what abi_to_json()
 * makes (its waived findings are not shown), "seconds" from 0 to 1e9,
 * "inputs" the kernel's manifest's (strings; a kernel never built has
 * none), "patchset_hash" KCIDB's of the series (source_patchset_hash():
 * "" or 64 lowercase hex digits).
 * Only "config" and "verdict" are required; keys this version does not
 * know are ignored.
 */

/* @run's results, an entry per selected configuration (a new reference). */
json_t *results_json(const struct farm *f, const struct golden_run *run);

/* @results written to @path, whole or not. Return: 0, or -1 with @err set. */
int results_save(const char *path, json_t *results, struct sf_err *err);

/**
 * results_load() - read and check a results file
 *
 * Return: 0 with *@out set, or INPUT_EIO / INPUT_EBAD (snap.h) with
 * @err set ("FILE:LINE:COL: ..." or "FILE: configs[2]: ...").
 */
int results_load(const char *path, json_t **out, struct sf_err *err);

/* Checks @results as results_load() does; @name for messages. */
int results_check(const char *name, json_t *results, struct sf_err *err);

#endif
