// SPDX-License-Identifier: GPL-2.0
/* snapshot: record sysfs subtrees, probe outcomes and kernel messages. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <jansson.h>

#include "attr.h"
#include "exit-codes.h"
#include "frame.h"
#include "kmsg.h"
#include "probe.h"
#include "text.h"
#include "walk.h"

#define SNAPSHOT_FORMAT		1
#define SNAPSHOTTER_VERSION	"1.0"

static const char *const default_roots[] = {
	"bus/workqueue", "class/leds", "class/gpio",
};

static const char usage_text[] =
	"usage: snapshot [--sysfs DIR] [--mount-sysfs] [--probes FILE]...\n"
	"                [--kmsg-prefix P]... [-o FILE] [--frame] [ROOT...]\n";

/**
 * struct snap_opts - the command line
 * @sysfs: where sysfs is (mounted)
 * @output: -o FILE, NULL for stdout
 * @mount_sysfs: --mount-sysfs
 * @frame: --frame
 * @probe_files: --probes, in order (borrowed from argv)
 * @nr_probe_files: how many
 * @prefix: --kmsg-prefix values (borrowed from argv)
 * @nr_prefix: how many
 * @roots: roots, normalised in place in argv, or default_roots
 * @nr_roots: how many
 */
struct snap_opts {
	const char *sysfs, *output;
	bool mount_sysfs, frame;
	char **probe_files;
	size_t nr_probe_files;
	char **prefix;
	size_t nr_prefix;
	char *const *roots;
	size_t nr_roots;
};

static int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int error(const char *fmt, ...)
{
	va_list ap;

	fputs("snapshot: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int opts_parse(struct snap_opts *o, int argc, char **argv)
{
	enum { OPT_SYSFS = 256, OPT_MOUNT, OPT_PROBES, OPT_KMSG, OPT_FRAME };
	static const struct option longopts[] = {
		{ "sysfs", required_argument, NULL, OPT_SYSFS },
		{ "mount-sysfs", no_argument, NULL, OPT_MOUNT },
		{ "probes", required_argument, NULL, OPT_PROBES },
		{ "kmsg-prefix", required_argument, NULL, OPT_KMSG },
		{ "frame", no_argument, NULL, OPT_FRAME },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i;

	/* option values stay in argv: collect them in place, in order */
	o->probe_files = calloc(argc, sizeof(char *));
	o->prefix = calloc(argc, sizeof(char *));
	if (!o->probe_files || !o->prefix)
		return error("out of memory");
	opterr = 0;	/* messages must not depend on argv[0] */
	while ((c = getopt_long(argc, argv, ":o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SYSFS:
			o->sysfs = optarg;
			break;
		case OPT_MOUNT:
			o->mount_sysfs = true;
			break;
		case OPT_PROBES:
			o->probe_files[o->nr_probe_files++] = optarg;
			break;
		case OPT_KMSG:
			if (!*optarg)
				return error("empty --kmsg-prefix");
			o->prefix[o->nr_prefix++] = optarg;
			break;
		case OPT_FRAME:
			o->frame = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case 'V':
			printf("snapshot %s (format %d)\n", SNAPSHOTTER_VERSION,
			       SNAPSHOT_FORMAT);
			return 1;
		case ':':
			error("option '%s' needs a value", argv[optind - 1]);
			fputs(usage_text, stderr);
			return -1;
		default:
			error("unknown option '%s'", argv[optind - 1]);
			fputs(usage_text, stderr);
			return -1;
		}
	}
	for (i = optind; i < argc; i++)
		if (walk_root_check(argv[i]))
			return error("bad root '%s': %s", argv[i],
				     "want a relative path without '.' or '..'");
	if (optind < argc) {
		o->roots = argv + optind;
		o->nr_roots = argc - optind;
	} else {
		o->roots = (char *const *)default_roots;
		o->nr_roots = sizeof(default_roots) / sizeof(*default_roots);
	}
	return 0;
}

static void opts_release(struct snap_opts *o)
{
	free(o->probe_files);
	free(o->prefix);
}

static int probes_load(const struct snap_opts *o, struct probe_list *list)
{
	size_t i;

	for (i = 0; i < o->nr_probe_files; i++) {
		const char *file = o->probe_files[i];
		struct probe_error err;
		int ret = probe_list_load(list, file, &err);

		/* bad input is named the way compilers do, without prefix */
		if (ret == -EINVAL && !err.line) {
			fprintf(stderr, "%s: %s\n", file, err.msg);
			return -1;
		}
		if (ret == -EINVAL) {
			fprintf(stderr, "%s:%u:%u: %s\n", file, err.line,
				err.col, err.msg);
			return -1;
		}
		if (ret)
			return error("cannot read probe file '%s': %s", file,
				     strerror(-ret));
	}
	return 0;
}

static json_t *header_make(void)
{
	struct utsname u;

	if (uname(&u))
		return NULL;
	return json_pack("{s:s, s:s, s:s}", "snapshotter", SNAPSHOTTER_VERSION,
			 "release", u.release, "machine", u.machine);
}

/*
 * Mount sysfs if asked, and say whether it is there. Without sysfs
 * (CONFIG_SYSFS=n: mount fails with ENODEV) the snapshot says so and the
 * roots are left out; it is still a snapshot.
 */
static json_t *sysfs_make(const struct snap_opts *o, bool *present)
{
	json_t *sysfs;
	int err = 0;

	if (o->mount_sysfs) {
		if (mkdir(o->sysfs, 0755) && errno != EEXIST)
			err = errno;
		else if (mount("sysfs", o->sysfs, "sysfs", 0, NULL))
			err = errno;
	} else if (access(o->sysfs, X_OK)) {
		err = errno;
	}
	*present = !err;
	sysfs = json_pack("{s:b}", "mounted", *present);
	if (sysfs && err && json_set_errno(sysfs, "error", err)) {
		json_decref(sysfs);
		return NULL;
	}
	return sysfs;
}

static json_t *kmsg_make(const struct snap_opts *o)
{
	json_t *lines = json_array(), *err;
	int ret;

	if (!lines || !o->nr_prefix)
		return lines;
	ret = kmsg_collect(KMSG_DEVICE, o->prefix, o->nr_prefix, lines);
	if (!ret || ret == -ENOMEM) {
		if (ret) {
			json_decref(lines);
			return NULL;
		}
		return lines;
	}
	/* not a list then: what kept us from reading the log */
	json_decref(lines);
	err = json_object();
	if (err && json_set_errno(err, "error", ret)) {
		json_decref(err);
		return NULL;
	}
	return err;
}

static json_t *roots_make(const struct snap_opts *o, bool present)
{
	json_t *roots = json_object(), *node;
	int fd, err, ret;
	char *key;
	size_t i;

	if (!roots || !present)
		return roots;
	fd = open(o->sysfs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = errno;
	for (i = 0; i < o->nr_roots; i++) {
		/* a root is named like the entries below it */
		key = name_encode(o->roots[i], strlen(o->roots[i]));
		if (!key)
			break;
		node = fd < 0 ? json_pack("{s:s}", "error", errno_name(err)) :
			walk_root(fd, o->roots[i]);
		ret = json_object_set_new(roots, key, node);
		free(key);
		if (ret)
			break;
	}
	if (fd >= 0)
		close(fd);
	if (i < o->nr_roots) {	/* out of memory */
		json_decref(roots);
		return NULL;
	}
	return roots;
}

/* The whole snapshot, or NULL when out of memory. */
static json_t *snapshot_make(const struct snap_opts *o,
			     const struct probe_list *probes)
{
	json_t *snap;
	bool present;

	snap = json_pack("{s:i, s:o, s:o}", "format", SNAPSHOT_FORMAT,
			 "header", header_make(),
			 "sysfs", sysfs_make(o, &present));
	if (!snap)
		return NULL;
	/* probes run first: kmsg then sees what they logged */
	if (json_object_set_new(snap, "probes",
				probe_list_run(probes, o->sysfs)) ||
	    json_object_set_new(snap, "kmsg", kmsg_make(o)) ||
	    json_object_set_new(snap, "roots", roots_make(o, present))) {
		json_decref(snap);
		return NULL;
	}
	return snap;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= n;
	}
	return 0;
}

/* Writes to @fd, named @name in messages, and closes it unless stdout. */
static int fd_write(int fd, const char *name, const char *buf, size_t len)
{
	int ret = write_all(fd, buf, len);

	if (fd != STDOUT_FILENO && close(fd) && !ret)
		ret = -errno;
	return ret ? error("cannot write '%s': %s", name, strerror(-ret)) : 0;
}

/*
 * -o FILE: a temporary file beside it, synced, then renamed over it, so
 * that a full disk or a crash leaves FILE as it was, never a part. A FIFO
 * or a device is written in place.
 */
static int output_write(const char *path, const char *buf, size_t len)
{
	struct stat st;
	mode_t mask;
	char *tmp;
	int fd, ret;

	/* a FIFO or a device (init's crash fault blocks in its open) */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return error("cannot open '%s': %s", path,
				     strerror(errno));
		return fd_write(fd, path, buf, len);
	}
	tmp = malloc(strlen(path) + sizeof(".tmp.XXXXXX"));
	if (!tmp)
		return error("out of memory");
	strcpy(stpcpy(tmp, path), ".tmp.XXXXXX");
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = error("cannot open '%s': %s", path, strerror(errno));
		goto out_free;
	}
	/* mkostemp() makes it 0600; 0644 as open() would have, less umask */
	mask = umask(0);
	umask(mask);
	ret = write_all(fd, buf, len);
	if (!ret && (fchmod(fd, 0644 & ~mask) || fsync(fd)))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		ret = error("cannot write '%s': %s", path, strerror(-ret));
	}
out_free:
	free(tmp);
	return ret;
}

/* Serialise @snap (framed if asked) to -o FILE or stdout. */
static int snapshot_write(const struct snap_opts *o, json_t *snap)
{
	char *json, *out, *framed = NULL;
	size_t len, olen;
	int ret;

	json = json_dumps(snap, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (!json)
		return error("out of memory");
	len = strlen(json);
	/* json_dumps() leaves out the final newline; a frame carries it */
	json[len] = '\n';
	out = json;
	olen = len + 1;
	if (o->frame) {
		olen = frame_size(len + 1);
		framed = malloc(olen);
		if (!framed) {
			ret = error("out of memory");
			goto out_free;
		}
		frame_encode(framed, olen, json, len + 1);
		out = framed;
	}
	ret = o->output ? output_write(o->output, out, olen) :
		fd_write(STDOUT_FILENO, "stdout", out, olen);
out_free:
	free(framed);
	free(json);
	return ret;
}

int main(int argc, char **argv)
{
	struct snap_opts opts = { .sysfs = "/sys" };
	struct probe_list probes = PROBE_LIST_INIT;
	int status = SNAP_EXIT_USAGE;
	json_t *snap;
	int ret;

	/*
	 * jansson seeds its hash tables from /dev/urandom on the first
	 * object. Early in a guest's boot the kernel's RNG is not ready, and
	 * a read of /dev/urandom makes 6.1 run its jitter loop until it is:
	 * 1-3 s of every TCG boot. The order of keys is insertion order
	 * whatever the seed; the seed only spreads buckets.
	 */
	json_object_seed(1);
	ret = opts_parse(&opts, argc, argv);
	if (ret) {
		status = ret > 0 ? SNAP_EXIT_OK : SNAP_EXIT_USAGE;
		goto out_opts;
	}
	/* every probe file is checked before any action runs */
	if (probes_load(&opts, &probes))
		goto out_probes;
	status = SNAP_EXIT_FAIL;
	snap = snapshot_make(&opts, &probes);
	if (!snap) {
		error("out of memory");
		goto out_probes;
	}
	if (!snapshot_write(&opts, snap))
		status = SNAP_EXIT_OK;
	json_decref(snap);
out_probes:
	probe_list_release(&probes);
out_opts:
	opts_release(&opts);
	/* --help and --version go through stdio: check it was written */
	if (fflush(stdout) || ferror(stdout)) {
		if (status == SNAP_EXIT_OK)
			error("cannot write 'stdout': %s", strerror(errno));
		status = SNAP_EXIT_FAIL;
	}
	return status;
}
