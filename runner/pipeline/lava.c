// SPDX-License-Identifier: GPL-2.0
/* A boot as a LAVA job, and through lava-run: see lava.h and LAVA.md. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "lib/paths.h"
#include "lib/proc.h"
#include "lib/yamlfile.h"
#include "pipeline/lava.h"

/* lava-run keeps a job's files here, as DISPATCHER_DOWNLOAD_DIR/JOB-ID. */
#define LAVA_TMP "/var/lib/lava/dispatcher/tmp"
#define DEPLOY_SECONDS 60	/* copying the images: local files, seconds */
#define LAVA_SLACK 90		/* lava-run's own start and end, at most */
#define LOG_MAX (64 << 20)	/* a lava-run log larger than this is cut */
#define LINE_MAX_BYTES (1 << 20)	/* a longer log line is skipped */
/* a shorter one too, unparsed: none of LAVA's lacks one of these */
#define LINE_MIN_BYTES (sizeof("{\"dt\": \"\", \"lvl\": \"\", \"msg\": \"\"}") - 1)

/* LAVA's `arch` (lava-server's qemu.jinja2) for the kernel's ARCH= */
static const char *lava_arch(const char *karch)
{
	return !strcmp(karch, "x86") ? "x86_64" : karch;
}

/* Does the template set -cpu and -machine itself for @arch? */
static int template_sets_cpu(const char *arch)
{
	return !strcmp(arch, "arm") || !strcmp(arch, "arm64") ||
	       !strcmp(arch, "aarch64");
}

/*
 * LAVA joins the QEMU command into one string and splits it again on
 * white space (Python's: U+00A0 and U+2028 too), and substitutes {NAME}
 * in image arguments: a word it would change is refused. "" when @w is
 * fine, else what is wrong with it. @spaces: ' ' is fine (inside quotes).
 */
static const char *lava_word_bad(const char *w, int spaces)
{
	if (!*w)
		return "nothing (an empty word)";
	for (const unsigned char *p = (const unsigned char *)w; *p; p++) {
		if (*p == ' ' && spaces)
			continue;
		if (*p <= ' ' || *p >= 0x7f)
			return "white space, a control character or a byte outside ASCII";
		if (strchr("\"'\\{}$`", *p))
			return "a quote, backslash, brace, '$' or '`'";
	}
	return "";
}

/* Refuses @what (named by @name) when LAVA's command line cannot carry it */
static int lava_word_check(const struct config *c, const char *name,
			   const char *what, int spaces, struct sf_err *err)
{
	const char *why = lava_word_bad(what, spaces);

	if (!*why)
		return 0;
	err_set(err, "%s: %s '%s' has %s, which LAVA's QEMU command line cannot carry",
		c->name, name, what, why);
	return -1;
}

/*
 * Is @s made of bytes a URL can carry as they are, and a LAVA command line
 * too (LAVA names a download after its URL's last part, unquoted)? "" if
 * so, else the first byte that is not, as text.
 */
static const char *url_bad(const char *s, char *buf)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("/._~+:%-", *s))) {
			snprintf(buf, 8, (unsigned char)*s < ' ' ||
				 (unsigned char)*s >= 0x7f ? "\\x%02x" : "'%c'",
				 (unsigned char)*s);
			return buf;
		}
	return "";
}

/* The length of the host name at @s: labels between dots, or 0 */
static size_t url_host_len(const char *s)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-";
	const char *p = s;

	for (;;) {
		size_t n = strspn(p, chars);

		if (!n || p[0] == '-' || p[n - 1] == '-')
			return 0;
		p += n;
		if (*p != '.')
			return p - s;
		p++;
	}
}

/*
 * What is wrong with @url, made of url_bad()'s bytes, as a base URL a
 * worker fetches as it is written: "" for nothing, else what.
 */
static const char *url_form_bad(const char *url)
{
	const char *p = strstr(url, "://") + 3;
	size_t n = url_host_len(p);

	if (!n)
		return "no host name (letters, digits and '-' between dots) after '//'";
	p += n;
	if (*p == ':') {
		n = strspn(++p, "0123456789");
		if (!n || n > 5 || atoi(p) < 1 || atoi(p) > 65535)
			return "no port (1 to 65535) after the host's ':'";
		p += n;
	}
	if (*p && *p != '/')
		return "its host is not followed by ':PORT' or a '/'";
	for (; *p; p++) {
		if (*p == '/' && p[1] == '.' &&
		    (!p[2] || p[2] == '/' || (p[2] == '.' &&
					      (!p[3] || p[3] == '/'))))
			return "'.' or '..' in its path (a server would resolve it)";
		if (*p == '%' && !(isxdigit((unsigned char)p[1]) &&
				   isxdigit((unsigned char)p[2])))
			return "a '%' not followed by two hex digits";
	}
	return "";
}

int lava_url_check(const char *url, struct sf_err *err)
{
	char buf[8];
	const char *bad;

	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)) {
		err_set(err, "--url '%s': not an http:// or https:// URL", url);
		return -1;
	}
	bad = url_bad(url, buf);
	if (*bad) {
		err_set(err, "--url: %s in '%s' is not carried as it is by a URL and LAVA's QEMU command line",
			bad, url);
		return -1;
	}
	bad = url_form_bad(url);
	if (*bad) {
		err_set(err, "--url '%s': %s", url, bad);
		return -1;
	}
	return 0;
}

char *lava_url_join(const char *base, const char *name)
{
	return xstrfmt("%s%s%s", base,
		       *base && base[strlen(base) - 1] == '/' ? "" : "/", name);
}

/*
 * file://PATH (LAVA opens a file:// URL's path without decoding it: a byte
 * that would need %XX is refused), or BASE/NAME.
 */
static char *image_url(const char *base, const char *path,
		       struct sf_err *err)
{
	const char *slash = strrchr(path, '/');
	char buf[8];
	const char *bad;

	if (base)
		return lava_url_join(base, slash ? slash + 1 : path);
	bad = url_bad(path, buf);
	if (*bad || strchr(path, '%')) {
		err_set(err, "%s: %s cannot be part of a file:// URL in a LAVA job (LAVA does not decode them)",
			path, *bad ? bad : "'%'");
		return NULL;
	}
	return xstrfmt("file://%s", path);
}

/* @path's sha256 as sha256sum gives it, into @sum (65 bytes). */
static int image_sha256(const char *path, char *sum, struct sf_err *err)
{
	const char *argv[] = { "sha256sum", "--", path, NULL };
	char out[256];
	/* a name with '\\' or a newline: the line starts with '\\' */
	const char *hex = out;

	if (proc_capture(argv, 60, out, sizeof(out), err))
		return -1;
	if (*hex == '\\')
		hex++;
	snprintf(sum, 65, "%.*s", (int)strcspn(hex, " "), hex);
	return 0;
}

/* One image of the deploy action: its URL, checksum and QEMU argument. */
static int add_image(json_t *images, const char *label, const char *path,
		     const char *arg, const char *base, struct sf_err *err)
{
	char sum[65], *url;
	json_t *img;

	if (image_sha256(path, sum, err))
		return -1;
	url = image_url(base, path, err);
	if (!url)
		return -1;
	img = json_pack("{s:s, s:s, s:s}", "url", url, "sha256sum", sum,
			"image_arg", arg);
	free(url);
	if (!img || json_object_set_new(images, label, img)) {
		err_set(err, "%s: cannot make its LAVA image entry (not UTF-8?)",
			path);
		return -1;
	}
	return 0;
}

static json_t *seconds(int n)
{
	return json_pack("{s:i}", "seconds", n);
}

/*
 * The job's context.extra_options: what our QEMU command has that the
 * template's options do not. The console is the first serial port, on
 * stdio, where LAVA reads it; the result channel is /dev/null (the frame
 * comes on the console).
 */
static json_t *extra_options(const struct config *c, const char *arch)
{
	json_t *x = json_array();

	if (!template_sets_cpu(arch)) {
		json_array_append_new(x, json_sprintf("-machine %s",
						      c->s.qemu_machine));
		if (c->s.qemu_cpu)
			json_array_append_new(x, json_sprintf("-cpu %s",
							      c->s.qemu_cpu));
	}
	json_array_append_new(x, json_sprintf("-smp %d,sockets=%d",
					      c->s.smp ? c->s.smp : 1,
					      c->s.smp ? c->s.smp : 1));
	json_array_append_new(x, json_string("-no-reboot"));
	json_array_append_new(x, json_string("-serial stdio"));
	json_array_append_new(x, json_string("-chardev null,id=channel"));
	for (size_t i = 0; i < c->s.qemu_args.n; i++)
		json_array_append_new(x, json_string(c->s.qemu_args.v[i]));
	return x;
}

json_t *lava_job(const struct config *c, const struct lava_job_in *in,
		 struct sf_err *err)
{
	const struct boot *b = in->b;
	const char *arch = lava_arch(c->s.kernel_arch);
	json_t *job = NULL, *images = json_object(), *context, *meta;
	char *arg;
	int t = b->timeout;

	if (lava_word_check(c, "the kernel command line", b->cmdline, 1,
			    err) ||
	    lava_word_check(c, "QEMU", c->s.qemu_binary, 0, err) ||
	    lava_word_check(c, "the QEMU machine", c->s.qemu_machine, 0,
			    err) ||
	    (c->s.qemu_cpu &&
	     lava_word_check(c, "the QEMU CPU", c->s.qemu_cpu, 0, err)) ||
	    (in->url && lava_url_check(in->url, err)))
		goto out;
	for (size_t i = 0; i < c->s.qemu_args.n; i++)
		if (lava_word_check(c, "QEMU argument", c->s.qemu_args.v[i], 0,
				    err))
			goto out;
	arg = xstrfmt("-kernel {kernel} -append \"%s\"", b->cmdline);
	if (add_image(images, "kernel", b->kernel, arg, in->url, err)) {
		free(arg);
		goto out;
	}
	free(arg);
	if (add_image(images, "ramdisk", b->initramfs, "-initrd {ramdisk}",
		      in->url, err) ||
	    (in->dtb && add_image(images, "dtb", in->dtb, "-dtb {dtb}",
				  in->url, err)))
		goto out;
	context = json_pack("{s:s, s:s, s:i, s:o}", "arch", arch,
			    "machine", c->s.qemu_machine,
			    "memory", c->s.memory ? c->s.memory : 256,
			    "extra_options", extra_options(c, arch));
	if (c->s.qemu_cpu)
		json_object_set_new(context, "cpu", json_string(c->s.qemu_cpu));
	if (strcmp(b->accel, "kvm"))
		json_object_set_new(context, "no_kvm", json_integer(1));
	meta = json_pack("{s:s, s:s}", "sysfarm.config", c->name,
			 "sysfarm.key", c->key);
	if (in->metadata)
		json_object_update(meta, in->metadata);
	job = json_pack("{s:s+, s:s, s:s, s:s, s:{s:o, s:o}, s:o, s:o, s:[]}",
			"job_name", "sysfarm ", c->name,
			"device_type", "qemu", "visibility", "public",
			"priority", "medium",
			"timeouts", "job",
			seconds(t + DEPLOY_SECONDS + LAVA_SLACK),
			"action", seconds(t),
			"context", context, "metadata", meta, "actions");
	json_array_append_new(json_object_get(job, "actions"),
		json_pack("{s:{s:s, s:o, s:o}}", "deploy", "to", "tmpfs",
			  "timeout", seconds(DEPLOY_SECONDS),
			  "images", json_incref(images)));
	json_array_append_new(json_object_get(job, "actions"),
		json_pack("{s:{s:s, s:s, s:o}}", "boot", "method", "qemu",
			  "media", "tmpfs", "timeout", seconds(t)));
	/*
	 * No LAVA shell overlay: our init is static and reports on the
	 * console. The monitor waits from the frame's first marker to the
	 * line after its last (LAVA logs a line only once it has ended);
	 * its pattern matches no line of base64, so it finds no test case.
	 */
	json_array_append_new(json_object_get(job, "actions"),
		json_pack("{s:{s:o, s:[{s:s, s:s, s:s, s:s}]}}", "test",
			  "timeout", seconds(t), "monitors", "name", "sysfarm",
			  "start", CONSOLE_BEGIN, "end", CONSOLE_SENT,
			  "pattern",
			  "sysfarm-case: (?P<test_case_id>\\S+) (?P<result>pass|fail)"));
	if (!job || json_array_size(json_object_get(job, "actions")) != 3) {
		json_decref(job);
		job = NULL;
		err_set(err, "%s: cannot make its LAVA job (a value not UTF-8?)",
			c->name);
	}
out:
	json_decref(images);
	return job;
}

/*
 * What lava-server's qemu.jinja2 renders for the job's context, as
 * lava-run wants a device: the template's options, the job's extra ones.
 */
static json_t *lava_device(const struct config *c, json_t *job)
{
	json_t *ctx = json_object_get(job, "context");
	const char *arch = json_string_value(json_object_get(ctx, "arch"));
	json_t *opts = json_array();
	json_t *extra = json_object_get(ctx, "extra_options");
	json_t *constants, *qemu;

	if (template_sets_cpu(arch)) {
		json_array_append_new(opts, json_sprintf("-cpu %s",
			c->s.qemu_cpu ? c->s.qemu_cpu : "cortex-a57"));
		json_array_append_new(opts, json_sprintf("-machine %s",
						      c->s.qemu_machine));
	} else if (!json_object_get(ctx, "no_kvm")) {
		json_array_append_new(opts, json_string("-cpu host"));
		json_array_append_new(opts, json_string("-enable-kvm"));
	}
	json_array_append_new(opts, json_string("-nographic"));
	json_array_append_new(opts, json_string(
		"-net nic,model=virtio,macaddr=52:54:00:12:34:58 -net user"));
	json_array_append_new(opts, json_sprintf("-m %d",
		(int)json_integer_value(json_object_get(ctx, "memory"))));
	json_array_append_new(opts, json_string("-monitor none"));
	constants = json_pack("{s:{s:s, s:s, s:s}, s:s, s:s, s:s, s:s, s:i, s:n}",
		"posix", "lava_test_sh_cmd", "/bin/sh",
		"lava_test_results_dir", "/lava-%s",
		"lava_test_shell_file", "~/.bashrc",
		"default-shell-prompt", "lava-test: # ",
		"shutdown-message", "The system is going down for reboot NOW",
		"kernel-start-message", "Linux version [0-9]",
		"spawn_maxread", "4092", "failure_retry", 1, "boot_retry");
	qemu = json_pack("{s:{s:s, s:o, s:O}}", "parameters",
			 "command", c->s.qemu_binary, "options", opts,
			 "extra", extra);
	return json_pack("{s:o, s:[s], s:{s:{s:{s:n}, s:{s:n, s:{s:{s:{s:i, s:s, s:s}}}}}, s:{s:{s:n}, s:{s:o}}}, s:{s:{}, s:{}}}",
		"constants", constants, "available_architectures", arch,
		"actions",
		"deploy", "connections", "serial", "methods", "tmpfs",
		"image", "parameters", "guest", "size", 512,
		"interface", "ide", "driveid", "lavatest",
		"boot", "connections", "serial", "methods", "qemu", qemu,
		"timeouts", "actions", "connections");
}

/*
 * Each line of lava-run's log is one YAML flow mapping, {dt, lvl, msg},
 * as lava_common's dump() writes it: every scalar double-quoted, shorter
 * than 10^6 characters, nested three deep at most (a result's msg.extra).
 * A line is walked once, as libyaml's events (its document loader takes
 * time quadratic in the nesting), and only the fields below are kept. A
 * line LAVA would not write is skipped, the walk stopped where it shows:
 * shorter than LINE_MIN_BYTES (unparsed: a parser for each of 64 MiB of
 * empty lines took half a minute) or longer than LINE_MAX_BYTES, nested
 * deeper than LINE_DEPTH_MAX, an alias, a second document, a field
 * written twice or holding a NUL (but the console's), or not YAML.
 */
#define LINE_DEPTH_MAX 8
#define LINE_KEY_MAX 16		/* longer than the keys below */

enum line_field {
	F_LVL, F_MSG, F_DEFINITION, F_CASE, F_RESULT, F_ERROR_TYPE,
	F_ERROR_MSG, F_LABEL, F_SHA256SUM, F_NR
};

/* Where each field is: its keys, from the line's mapping down. */
static const char *const line_fields[F_NR][3] = {
	[F_LVL] = { "lvl" },
	[F_MSG] = { "msg" },
	[F_DEFINITION] = { "msg", "definition" },
	[F_CASE] = { "msg", "case" },
	[F_RESULT] = { "msg", "result" },
	[F_ERROR_TYPE] = { "msg", "error_type" },
	[F_ERROR_MSG] = { "msg", "error_msg" },
	[F_LABEL] = { "msg", "extra", "label" },
	[F_SHA256SUM] = { "msg", "extra", "sha256sum" },
};

/* A line as its events are walked; depth 1 is the line's own node. */
struct log_line {
	int depth, docs;
	char is_map[LINE_DEPTH_MAX + 1];
	char want_key[LINE_DEPTH_MAX + 1];
	/* at each depth, the key of the value to come; "" for none of ours */
	char key[LINE_DEPTH_MAX + 1][LINE_KEY_MAX];
	char *v[F_NR];		/* the fields the line has (malloc'd) */
	size_t n[F_NR];		/* their lengths */
};

/* The field at @ln's keys down to @depth, or F_NR for none of ours. */
static enum line_field line_field_at(const struct log_line *ln, int depth)
{
	for (int f = 0; f < F_NR; f++) {
		int d = 0;

		while (d < 3 && line_fields[f][d] &&
		       !strcmp(ln->key[d + 1], line_fields[f][d]))
			d++;
		if (d == depth && (d == 3 || !line_fields[f][d]))
			return f;
	}
	return F_NR;
}

/* A mapping's key or value, or an item, ended at @ln's depth. */
static void line_node_done(struct log_line *ln)
{
	if (ln->depth && ln->is_map[ln->depth])
		ln->want_key[ln->depth] ^= 1;
}

/* One event of the line. Return: 0, or -1 when it is not LAVA's line. */
static int line_event(struct log_line *ln, const yaml_event_t *ev)
{
	const char *s;
	int d = ln->depth, in_map = d && ln->is_map[d];
	enum line_field f;
	size_t n;

	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		return ++ln->docs > 1 ? -1 : 0;
	case YAML_ALIAS_EVENT:
		return -1;
	case YAML_SCALAR_EVENT:
		s = (const char *)ev->data.scalar.value;
		n = ev->data.scalar.length;
		if (in_map && ln->want_key[d]) {
			if (n < LINE_KEY_MAX && !memchr(s, 0, n))
				memcpy(ln->key[d], s, n + 1);
			else
				ln->key[d][0] = '\0';
		} else if (in_map && (f = line_field_at(ln, d)) != F_NR) {
			if (ln->v[f] || (f != F_MSG && memchr(s, 0, n)))
				return -1;
			ln->v[f] = xmalloc(n + 1);
			memcpy(ln->v[f], s, n + 1);
			ln->n[f] = n;
		}
		line_node_done(ln);
		return 0;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (d == LINE_DEPTH_MAX)
			return -1;
		/* a key that is no scalar is none of ours */
		if (in_map && ln->want_key[d])
			ln->key[d][0] = '\0';
		ln->depth = ++d;
		ln->is_map[d] = ev->type == YAML_MAPPING_START_EVENT;
		ln->want_key[d] = 1;
		ln->key[d][0] = '\0';
		return 0;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		ln->depth--;
		line_node_done(ln);
		return 0;
	default:
		return 0;
	}
}

static void line_release(struct log_line *ln)
{
	for (int f = 0; f < F_NR; f++)
		free(ln->v[f]);
}

/* The @n bytes at @text walked into @ln. Return: 0, or -1 (not LAVA's). */
static int line_walk(struct log_line *ln, const char *text, size_t n)
{
	yaml_parser_t p;
	yaml_event_t ev;
	int ret = -1;

	memset(ln, 0, sizeof(*ln));
	if (n < LINE_MIN_BYTES || n > LINE_MAX_BYTES ||
	    !yaml_parser_initialize(&p))
		return -1;
	yaml_parser_set_input_string(&p, (const unsigned char *)text, n);
	while (yaml_parser_parse(&p, &ev)) {
		int bad = line_event(ln, &ev);
		int end = ev.type == YAML_STREAM_END_EVENT;

		yaml_event_delete(&ev);
		if (bad || end) {
			ret = bad;
			break;
		}
	}
	yaml_parser_delete(&p);
	return ret;
}

/* Is @ln's field @f exactly @s? */
static int line_is(const struct log_line *ln, enum line_field f,
		   const char *s)
{
	return ln->v[f] && !strcmp(ln->v[f], s);
}

/* What lava.c reads of a lava-run log, or a lab's. */
struct lava_log {
	char *console;		/* the target's lines */
	size_t clen, csize;
	char *command;		/* "Boot command: ..." (the first) */
	int commands_differ;	/* a later one is not the first */
	char *result;		/* the job's: pass or fail */
	char *error_type;	/* Infrastructure, Job, Configuration, ... */
	char *error_msg;
	char *sums[3];		/* the sha256 of each image LAVA fetched */
	int too_large;		/* only its first LOG_MAX bytes were read */
};

/* The deploy action's image labels, as lava_job() names them. */
static const char *const labels[3] = { "kernel", "ramdisk", "dtb" };

/* A field of @ln as a new string, or NULL (it has none) */
static char *line_take(struct log_line *ln, enum line_field f)
{
	char *s = ln->v[f];

	ln->v[f] = NULL;
	return s;
}

/* What the line @ln adds to @l. */
static void log_line_apply(struct lava_log *l, struct log_line *ln)
{
	const char *msg = ln->v[F_MSG];
	size_t m = ln->n[F_MSG];

	if (line_is(ln, F_LVL, "target") && msg) {
		if (l->clen + m + 2 > l->csize) {
			l->csize = 2 * (l->clen + m + 2);
			l->console = xrealloc(l->console, l->csize);
		}
		memcpy(l->console + l->clen, msg, m);
		l->clen += m;
		l->console[l->clen++] = '\n';
	} else if (line_is(ln, F_LVL, "info") && msg && strlen(msg) == m &&
		   !strncmp(msg, "Boot command: ", 14)) {
		if (!l->command)
			l->command = xstrdup(msg + 14);
		else if (strcmp(l->command, msg + 14))
			l->commands_differ = 1;
	} else if (!line_is(ln, F_LVL, "results") ||
		   !line_is(ln, F_DEFINITION, "lava")) {
		return;
	} else if ((line_is(ln, F_CASE, "file-download") ||
		    line_is(ln, F_CASE, "http-download")) &&
		   ln->v[F_LABEL] && ln->v[F_SHA256SUM]) {
		/* file:// URLs, or http(s):// under --url */
		for (int i = 0; i < 3; i++)
			if (line_is(ln, F_LABEL, labels[i])) {
				free(l->sums[i]);
				l->sums[i] = line_take(ln, F_SHA256SUM);
			}
	} else if (line_is(ln, F_CASE, "job")) {
		free(l->result);
		free(l->error_type);
		free(l->error_msg);
		l->result = line_take(ln, F_RESULT);
		l->error_type = line_take(ln, F_ERROR_TYPE);
		l->error_msg = line_take(ln, F_ERROR_MSG);
	}
}

static void log_line(struct lava_log *l, const char *line, size_t n)
{
	struct log_line ln;

	/* `lavacli jobs logs --raw` gives the same lines as a YAML list */
	if (n > 2 && line[0] == '-' && line[1] == ' ') {
		line += 2;
		n -= 2;
	}
	if (!line_walk(&ln, line, n))
		log_line_apply(l, &ln);
	line_release(&ln);
}

/*
 * @l from at most LOG_MAX bytes of @path, read once. Return: 0, or -1
 * with @err set when it cannot be read or is not a regular file (a FIFO
 * would block, a directory has no lines).
 */
static int log_read(struct lava_log *l, const char *path, struct sf_err *err)
{
	int fd = input_open(path, SIZE_MAX, err);
	char *text, *p, *end;
	size_t len = 0;
	ssize_t got;

	memset(l, 0, sizeof(*l));
	l->console = xmalloc(1);
	l->csize = 1;
	if (fd < 0)
		return -1;
	text = xmalloc(LOG_MAX);
	while (len < LOG_MAX &&
	       (got = read(fd, text + len, LOG_MAX - len)) > 0)
		len += got;
	l->too_large = len == LOG_MAX && read(fd, &(char){ 0 }, 1) > 0;
	close(fd);
	for (p = text, end = text + len; p < end;) {
		char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p;

		log_line(l, p, n);
		p += n + 1;
	}
	free(text);
	return 0;
}

static void log_release(struct lava_log *l)
{
	free(l->console);
	free(l->command);
	free(l->result);
	free(l->error_type);
	free(l->error_msg);
	for (int i = 0; i < 3; i++)
		free(l->sums[i]);
}

/*
 * Did LAVA end the job because an action ran out of time ("lava-test-
 * monitor timed out after 10 seconds"), not its infrastructure (a
 * download's "Read timed out")?
 */
static int log_timed_out(const struct lava_log *l)
{
	return l->error_msg && strstr(l->error_msg, " timed out after ") &&
	       (!l->error_type || strcmp(l->error_type, "Infrastructure"));
}

static int write_yaml(const char *path, json_t *j, struct sf_err *err)
{
	int ret = j ? yaml_write_json(path, j,
				      "# Written by sysfarm (runner/pipeline/lava.c).\n",
				      err) : -1;

	if (!j)
		err_set(err, "%s: cannot make it", path);
	json_decref(j);
	return ret;
}

/*
 * The verdict of @l, the LAVA log @logf, as boot_decode() gives it from
 * the console lines it holds (written to console.log; LAVA's boot command
 * to qemu.log); @st and @code say how lava-run ended.
 */
static enum verdict log_verdict(const struct boot *b,
				const struct lava_log *l, const char *logf,
				enum proc_status st, int code, json_t **snap,
				struct sf_err *err)
{
	char *con = path_console(b->outdir), *qlog = path_qemu_log(b->outdir);
	enum verdict v = V_QEMU_FAIL;
	char *cmd;

	if (l->too_large) {
		err_set(err, "%s: larger than %d MiB: only its beginning was read",
			logf, LOG_MAX >> 20);
		sink_error(err);
		err_clear(err);
	}
	if (l->command) {
		cmd = xstrfmt("# LAVA's boot command: %s\n", l->command);
		file_put(qlog, cmd, strlen(cmd), 1);
		free(cmd);
	}
	if (file_write_atomic(con, l->console, l->clen)) {
		err_set(err, "%s: cannot write: %s", con, strerror(errno));
		goto out;
	}
	if (st == PROC_EXITED && log_timed_out(l))
		st = PROC_TIMEOUT;
	v = boot_decode(b, st, code, snap, err);
	if (st == PROC_START_FAILED) {
		err_clear(err);
		err_set(err, "cannot start lava-run: %s (it is in Debian's lava-dispatcher)",
			strerror(code));
	} else if (v == V_QEMU_FAIL || (v == V_NO_SNAPSHOT && !l->clen)) {
		v = V_QEMU_FAIL;
		err_clear(err);
		err_set(err, "the LAVA job ended before the guest printed anything: %s%s%s (see %s)",
			l->error_type ? l->error_type : "no job result",
			l->error_type ? " error: " : "",
			l->error_msg ? l->error_msg : "", logf);
	}
out:
	free(con);
	free(qlog);
	return v;
}

/*
 * Did LAVA's boot command @cmd give the kernel exactly @cmdline? Our
 * image argument puts it in as -append "CMDLINE" (lava_job()), a word of
 * its own, and nothing else appends: a second -append, or one that says
 * more or less, is another command line.
 */
static int log_cmdline_is(const char *cmd, const char *cmdline)
{
	static const char opt[] = " -append \"";
	const char *arg = strstr(cmd, opt), *end;

	if (!arg)
		return 0;
	arg += strlen(opt);
	end = arg + strlen(cmdline);
	return !strncmp(arg, cmdline, strlen(cmdline)) && *end == '"' &&
	       (!end[1] || end[1] == ' ') && !strstr(end, " -append ");
}

/*
 * Is @l, the lab's log at @logf, that of a finished job that booted these
 * very images with this command line? A log that cannot show it (no
 * checksum of an image, no boot command) is not. 0, or -1 with @err
 * saying what is not.
 */
static int lab_log_check(const struct boot *b, const char *dtb,
			 const struct lava_log *l, const char *logf,
			 struct sf_err *err)
{
	const char *paths[3] = { b->kernel, b->initramfs, dtb };
	char sum[65];

	if (!l->result)
		return err_set(err, "%s: no job result: the job has not ended, or this is not its log",
			       logf);
	for (int i = 0; i < 3; i++) {
		if (!paths[i] && !l->sums[i])
			continue;
		if (!paths[i])
			return err_set(err, "%s: the lab booted a %s, this build has none: write the jobs again (lava-jobs) and submit them",
				       logf, labels[i]);
		if (!l->sums[i])
			return err_set(err, "%s: no sha256sum of the %s LAVA downloaded: the log cannot show that the lab booted this build's",
				       logf, labels[i]);
		if (image_sha256(paths[i], sum, err))
			return -1;
		if (strcmp(sum, l->sums[i]))
			return err_set(err, "%s: the lab booted another %s (sha256 %.12s, this build's %.12s): write the jobs again (lava-jobs) and submit them",
				       logf, labels[i], l->sums[i], sum);
	}
	if (!l->command)
		return err_set(err, "%s: no boot command: the log cannot show that the lab booted \"%s\"",
			       logf, b->cmdline);
	if (l->commands_differ)
		return err_set(err, "%s: two boot commands that differ: the log cannot show that the lab booted only \"%s\"",
			       logf, b->cmdline);
	if (!log_cmdline_is(l->command, b->cmdline))
		return err_set(err, "%s: the lab booted another kernel command line than \"%s\": write the jobs again (lava-jobs) and submit them",
			       logf, b->cmdline);
	return 0;
}

enum verdict lava_log_run(const struct boot *b, const char *dtb,
			  const char *logf, json_t **snap, struct sf_err *err)
{
	char *con = path_console(b->outdir), *qlog = path_qemu_log(b->outdir);
	char *chan = path_channel(b->outdir), *cmd;
	enum verdict v = V_QEMU_FAIL;
	struct lava_log l;

	unlink(con);
	unlink(chan);
	unlink(qlog);
	if (!path_exists(logf)) {
		err_set(err, "no LAVA log at %s: fetch the job's with `lavacli jobs logs --raw ID > %s`",
			logf, logf);
		goto out;
	}
	if (log_read(&l, logf, err) ||
	    lab_log_check(b, dtb, &l, logf, err))
		goto out_release;
	cmd = xstrfmt("# a lab's boot: its LAVA log %s\n", logf);
	file_put(qlog, cmd, strlen(cmd), 0);
	free(cmd);
	/* the job's own result says how it ended, as lava-run's status */
	v = log_verdict(b, &l, logf, PROC_EXITED, 0, snap, err);
out_release:
	log_release(&l);
out:
	free(con);
	free(qlog);
	free(chan);
	return v;
}

enum verdict lava_boot_run(const struct config *c, const struct boot *b,
			   const char *dtb, json_t *metadata, json_t **snap,
			   struct sf_err *err)
{
	static int njobs;
	char *dir = path_lava_run(b->outdir);
	char *jobf = path_lava_job(dir), *devf = path_lava_device(dir);
	char *dispf = path_lava_dispatcher(dir), *logf = path_lava_log(dir);
	char *outd = path_lava_output(dir), *con = path_console(b->outdir);
	char *chan = path_channel(b->outdir), *qlog = path_qemu_log(b->outdir);
	char *id = xstrfmt("sysfarm-%d-%d", (int)getpid(), ++njobs);
	char *tmp = xstrfmt("%s/%s", LAVA_TMP, id), *cmd;
	struct lava_job_in in = { .b = b, .dtb = dtb, .metadata = metadata };
	struct proc p = PROC_INIT;
	struct lava_log l;
	enum proc_status st;
	enum verdict v = V_QEMU_FAIL;
	json_t *job;
	int code;

	unlink(con);
	unlink(chan);
	unlink(qlog);
	rm_rf(dir);
	/* one a crashed sysfarm of the same pid left */
	rm_rf(tmp);
	mkdir_p(outd);
	job = lava_job(c, &in, err);
	if (!job)
		goto out;
	if (write_yaml(devf, lava_device(c, job), err) ||
	    write_yaml(jobf, json_incref(job), err) ||
	    write_yaml(dispf, json_pack("{s:s}", "dispatcher_ip",
					"127.0.0.1"), err)) {
		json_decref(job);
		goto out;
	}
	json_decref(job);
	{
		const char *argv[] = { "lava-run", "--job-id", id,
				       "--output-dir", outd, "--device", devf,
				       "--dispatcher", dispf, jobf, NULL };

		cmd = xstrfmt("# lava-run --job-id %s --output-dir %s --device %s --dispatcher %s %s\n",
			      id, outd, devf, dispf, jobf);
		file_put(qlog, cmd, strlen(cmd), 0);
		free(cmd);
		p.argv = argv;
		p.out_path = logf;
		p.err_to_out = 1;
		p.timeout = b->timeout + DEPLOY_SECONDS + LAVA_SLACK;
		st = proc_run(&p, &code);
	}
	/* killed before LAVA could clean up: what it left is ours to remove */
	rm_rf(tmp);
	/* none when lava-run did not start: its status says so */
	if (log_read(&l, logf, err))
		err_clear(err);
	v = log_verdict(b, &l, logf, st, code, snap, err);
	log_release(&l);
out:
	free(dir);
	free(jobf);
	free(devf);
	free(dispf);
	free(logf);
	free(outd);
	free(con);
	free(chan);
	free(qlog);
	free(id);
	free(tmp);
	return v;
}
