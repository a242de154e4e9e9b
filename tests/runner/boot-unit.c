// SPDX-License-Identifier: GPL-2.0
/* Unit tests, TAP: runner/pipeline/boot.c's boot_decode() of a frame. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/paths.h"
#include "pipeline/boot.h"
#include "snapshotter/frame.h"
#include "tests/tap.h"

/* the verdict of a channel.out in @dir holding @payload in a frame */
static enum verdict decode(const char *dir, const char *payload,
			   json_t **snap, struct sf_err *err)
{
	size_t len = strlen(payload), size = frame_size(len);
	struct boot b = { .outdir = dir };
	char *frame = malloc(size), *chan = path_channel(dir);
	enum verdict v;

	frame_encode(frame, size, payload, len);
	if (file_write_atomic(chan, frame, size)) {
		perror(chan);
		exit(1);
	}
	*snap = NULL;
	err_clear(err);
	v = boot_decode(&b, PROC_EXITED, 0, snap, err);
	free(frame);
	free(chan);
	return v;
}

int main(void)
{
	char dir[] = "/tmp/sysfarm-boot-unit.XXXXXX";
	struct sf_err err = SF_ERR_INIT;
	json_t *snap;
	enum verdict v;
	char *chan;

	if (!mkdtemp(dir))
		return 1;
	v = decode(dir, "{\"a\": 1, \"b\": {\"c\": 2}}\n", &snap, &err);
	ok(v == V_SNAPSHOT &&
	   json_integer_value(json_object_get(snap, "a")) == 1,
	   "an intact frame of JSON: SNAPSHOT (%s)", verdict_name(v));
	json_decref(snap);
	v = decode(dir, "{\"a\": 1, \"b\": {\"c\": 2, \"c\": 3}}\n", &snap,
		   &err);
	ok(v == V_CORRUPT && !snap &&
	   strstr(err.text, "1:26: duplicate object key"),
	   "a duplicate key in the frame's JSON: CORRUPT (%s: %s)",
	   verdict_name(v), err.text);
	v = decode(dir, "{\"a\": 1,}\n", &snap, &err);
	ok(v == V_CORRUPT && !snap, "a frame of bad JSON: CORRUPT (%s: %s)",
	   verdict_name(v), err.text);
	chan = path_channel(dir);
	unlink(chan);
	free(chan);
	rmdir(dir);
	return tap_done();
}
