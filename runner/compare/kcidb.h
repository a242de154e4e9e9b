/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A results file as a KCIDB v5.3 document (KernelCI's common reporting
 * database; the schema is kcidb_io/schema/v05_03.py in kernelci/kcidb-io):
 * a checkout per source tree, a build per build key, a test per
 * configuration. doc/reports.md says how names and verdicts map.
 */
#ifndef SYSFARM_KCIDB_H
#define SYSFARM_KCIDB_H

#include <jansson.h>
#include <stddef.h>

/* What is wrong with @origin as KCIDB's origin ([a-z0-9_]+), or NULL. */
const char *kcidb_origin_problem(const char *origin);

/*
 * The KCIDB document of @results (checked by results_load(), the schema
 * verify/results.h describes), its objects submitted by @origin (which
 * kcidb_origin_problem() accepted), as JSON text: malloc'd, *@len bytes.
 */
char *kcidb_text(json_t *results, const char *origin, size_t *len);

#endif
