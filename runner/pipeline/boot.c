// SPDX-License-Identifier: GPL-2.0
/* Runs QEMU for one configuration and turns what came back into a verdict. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/jsonfile.h"
#include "lib/paths.h"
#include "lib/proc.h"
#include "pipeline/boot.h"
#include "snapshotter/frame.h"
#include "snapshotter/text.h"

#define PANIC_BEFORE 12		/* console lines kept before a panic */
#define PANIC_AFTER 4
#define TAIL_LINES 10

/* QEMU option values use ',' as separator: a literal one is doubled. */
static char *qemu_escape(const char *s)
{
	char *out = xmalloc(2 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		*o++ = *s;
		if (*s == ',')
			*o++ = ',';
	}
	*o = '\0';
	return out;
}

static void machine_args(const struct config *c, struct strv *argv)
{
	strv_push(argv, c->s.qemu_binary);
	strv_push(argv, "-M");
	strv_push(argv, c->s.qemu_machine);
	if (c->s.qemu_cpu) {
		strv_push(argv, "-cpu");
		strv_push(argv, c->s.qemu_cpu);
	}
	/*
	 * One core per socket: SeaBIOS's MP table lists only a socket's first
	 * core, and the tiny x86_64 kernel has no ACPI to find the others.
	 */
	strv_push(argv, "-smp");
	strv_pushf(argv, "%d,sockets=%d", c->s.smp ? c->s.smp : 1,
		   c->s.smp ? c->s.smp : 1);
	strv_push(argv, "-m");
	strv_pushf(argv, "%d", c->s.memory ? c->s.memory : 256);
	strv_push(argv, "-nodefaults");
	strv_push(argv, "-no-user-config");
	strv_push(argv, "-display");
	strv_push(argv, "none");
}

static int run_logged(struct strv *argv, const char *log, double timeout)
{
	struct proc p = PROC_INIT;
	int code;

	p.argv = strv_argv(argv);
	p.out_path = log;
	p.out_append = 1;
	p.err_to_out = 1;
	p.timeout = timeout;
	return proc_run(&p, &code) == PROC_EXITED && code == 0 ? 0 : -1;
}

/*
 * A file made only when its inputs change: the hash of what it was made
 * from is kept in path_key(@out). Remaking it goes stamp_clear(), make,
 * stamp_save(), which syncs @out before writing its key: neither a crash
 * nor a power cut leaves a key that lies.
 */
static int stamp_fresh(const char *out, uint64_t key)
{
	char *path = path_key(out), want[18];
	int fresh;

	snprintf(want, sizeof(want), "%016" PRIx64 "\n", key);
	fresh = stamp_matches(path, want) && path_exists(out);
	free(path);
	return fresh;
}

static void stamp_clear(const char *out)
{
	char *path = path_key(out);

	unlink(path);
	free(path);
}

static int stamp_save(const char *out, uint64_t key)
{
	char *path = path_key(out), text[18];
	int fd = open(out, O_RDONLY | O_CLOEXEC), ret = -1;

	/* on disk before its key: a power cut never keeps an empty @out */
	if (fd >= 0 && !fsync(fd)) {
		snprintf(text, sizeof(text), "%016" PRIx64 "\n", key);
		ret = file_write_atomic(path, text, 17);
	}
	if (fd >= 0)
		close(fd);
	free(path);
	return ret;
}

/* dtc -I IN_FMT -O OUT_FMT -o OUT IN, its messages to @log. */
static int dtc(const char *in, const char *in_fmt, const char *out,
	       const char *out_fmt, const char *log)
{
	const char *argv[] = { "dtc", "-q", "-I", in_fmt, "-O", out_fmt,
			       "-o", out, in, NULL };
	struct strv sv = STRV_INIT;
	int ret;

	for (const char *const *a = argv; *a; a++)
		strv_push(&sv, *a);
	ret = run_logged(&sv, log, 60);
	strv_release(&sv);
	return ret;
}

/*
 * QEMU's tree for @c's machine as outdir/virt.dts, dumped and decompiled
 * only when QEMU, dtc or the machine's options changed (stamp_fresh()).
 * Return: 0, or -1 with @err set.
 */
static int machine_dts(const struct config *c, const char *outdir,
		       const char *log, struct sf_err *err)
{
	char *dumped = path_machine_dtb(outdir);
	char *dts = path_machine_dts(outdir);
	const char *qemu = proc_version(c->s.qemu_binary, err);
	const char *dtc_version = qemu ? proc_version("dtc", err) : NULL;
	struct strv argv = STRV_INIT;
	uint64_t key;
	char *esc;
	int ret = -1;

	if (!dtc_version)
		goto out;
	machine_args(c, &argv);
	key = hash_str(HASH_INIT, "machine dts 1");
	key = hash_str(hash_str(key, qemu), dtc_version);
	for (size_t i = 0; i < argv.n; i++)
		key = hash_str(key, argv.v[i]);
	ret = 0;
	if (stamp_fresh(dts, key))
		goto out;
	ret = -1;
	stamp_clear(dts);
	/* -M is given twice: the last one, with dumpdtb, wins. */
	esc = qemu_escape(dumped);
	strv_push(&argv, "-M");
	strv_pushf(&argv, "%s,dumpdtb=%s", c->s.qemu_machine, esc);
	free(esc);
	if (run_logged(&argv, log, 60)) {
		err_set(err, "cannot dump the %s device tree (see %s)",
			c->s.qemu_machine, log);
		goto out;
	}
	if (dtc(dumped, "dtb", dts, "dts", log)) {
		err_set(err, "dtc cannot decompile %s (see %s)", dumped, log);
		goto out;
	}
	/* not saved: the next boot dumps it again */
	stamp_save(dts, key);
	ret = 0;
out:
	strv_release(&argv);
	free(dumped);
	free(dts);
	return ret;
}

int boot_dtb(const struct matrix *m, const struct config *c,
	     const char *outdir, char **dtb, struct sf_err *err)
{
	char *dts = path_machine_dts(outdir);
	char *board = path_board_dts(outdir);
	char *log = path_dtc_log(outdir);
	char *out = path_board_dtb(outdir);
	char *made = path_board_new(outdir);
	char *text = NULL, *bin = NULL;
	size_t len;
	int ret = -1;

	*dtb = NULL;
	if (!c->s.dts.n) {
		ret = 0;
		goto out;
	}
	unlink(log);
	if (machine_dts(c, outdir, log, err))
		goto out;
	text = xstrfmt("/dts-v1/;\n/include/ \"%s\"\n", dts);
	for (size_t i = 0; i < c->s.dts.n; i++) {
		char *frag = matrix_file(m, c->s.dts.v[i]);
		char *more = xstrfmt("%s/include/ \"%s\"\n", text, frag);

		free(frag);
		free(text);
		text = more;
	}
	if (file_update(board, text, strlen(text)) < 0) {
		err_set(err, "%s: cannot write: %s", board, strerror(errno));
		goto out;
	}
	/*
	 * Compiled at each boot (milliseconds; dtc follows the fragments'
	 * own includes), booted from a board.dtb replaced only when it
	 * differs.
	 */
	if (dtc(board, "dts", made, "dtb", log)) {
		char *tail = file_tail(log, TAIL_LINES);

		err_set(err, "dtc cannot build %s:\n%s", board, tail);
		free(tail);
		goto out;
	}
	bin = file_read(made, &len);
	if (!bin) {
		err_set(err, "%s: cannot read: %s", made, strerror(errno));
		goto out;
	}
	if (file_update(out, bin, len) < 0) {
		err_set(err, "%s: cannot write: %s", out, strerror(errno));
		goto out;
	}
	*dtb = out;
	out = NULL;
	ret = 0;
out:
	unlink(made);
	free(made);
	free(bin);
	free(text);
	free(dts);
	free(board);
	free(log);
	free(out);
	return ret;
}

/* The console lines around "Kernel panic", or NULL when there is none. */
static char *panic_evidence(const char *console)
{
	const char *hit = strstr(console, "Kernel panic - not syncing");
	const char *start = hit, *end = hit;
	int n;

	if (!hit)
		return NULL;
	for (n = 0; start > console && n <= PANIC_BEFORE; start--)
		if (start[-1] == '\n')
			n++;
	for (n = 0; *end && n < PANIC_AFTER; end++)
		if (*end == '\n')
			n++;
	while (*start == '\n')
		start++;
	return xstrfmt("%.*s", (int)(end - start), start);
}

/* The command, shell-quoted, so that a developer can rerun the boot. */
static void log_command(const char *log, const struct strv *argv)
{
	FILE *f = fopen(log, "w");

	if (!f)
		return;
	fputs("#", f);
	for (size_t i = 0; i < argv->n; i++) {
		fputs(" '", f);
		for (const char *c = argv->v[i]; *c; c++) {
			if (*c == '\'')
				fputs("'\\''", f);
			else
				fputc(*c, f);
		}
		fputs("'", f);
	}
	fputs("\n", f);
	fclose(f);
}

char *boot_cmdline(const struct config *c, const struct strv *append)
{
	char *cmdline = xstrfmt("console=%s panic=-1 oops=panic sysfarm.channel=%s",
				c->s.qemu_console, c->s.qemu_channel);

	for (size_t i = 0; i < c->s.append.n + append->n; i++) {
		const char *w = i < c->s.append.n ? c->s.append.v[i] :
			append->v[i - c->s.append.n];
		char *more = xstrfmt("%s %s", cmdline, w);

		free(cmdline);
		cmdline = more;
	}
	return cmdline;
}

/*
 * The frame the guest printed on the console (sysfarm.result=console):
 * the base64 lines between the marker lines, decoded into @out (malloc'd).
 * Return: 0, FRAME_ENOFRAME without a begin marker line, FRAME_ETRUNC
 * without the end one, FRAME_EMALFORMED for text that is not base64.
 */
static int console_frame(const char *console, size_t len, char **out,
			 size_t *olen)
{
	const char *p = console, *end = console + len;
	char *text = xmalloc(len + 1);
	size_t tlen = 0;
	ssize_t got;
	int in = 0, done = 0;

	*out = NULL;
	while (p < end && !done) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p;

		while (n && p[n - 1] == '\r')
			n--;
		if (!in && n == strlen(CONSOLE_BEGIN) &&
		    !memcmp(p, CONSOLE_BEGIN, n)) {
			in = 1;
		} else if (in && n == strlen(CONSOLE_END) &&
			   !memcmp(p, CONSOLE_END, n)) {
			done = 1;
		} else if (in) {
			memcpy(text + tlen, p, n);
			tlen += n;
		}
		p = nl ? nl + 1 : end;
	}
	if (!done) {
		free(text);
		return in ? FRAME_ETRUNC : FRAME_ENOFRAME;
	}
	*out = xmalloc(3 * (tlen / 4) + 1);
	got = tlen % 4 ? -EINVAL : base64_decode(*out, text, tlen);
	free(text);
	if (got < 0) {
		free(*out);
		*out = NULL;
		return FRAME_EMALFORMED;
	}
	*olen = (size_t)got;
	return 0;
}

enum verdict boot_decode(const struct boot *b, enum proc_status st,
			 int code, json_t **snap, struct sf_err *err)
{
	char *chan_path = path_channel(b->outdir);
	char *con_path = path_console(b->outdir);
	char *qlog = path_qemu_log(b->outdir);
	size_t clen = 0, conlen = 0, plen;
	char *chan = file_read(chan_path, &clen);
	char *console = file_read(con_path, &conlen);
	char *evidence = NULL, *tail = NULL;
	const char *payload, *where = chan_path;
	struct sf_err je = SF_ERR_INIT;
	enum verdict v;
	int fr;

	if (st == PROC_START_FAILED) {
		v = V_QEMU_FAIL;
		err_set(err, "cannot start QEMU: %s", strerror(code));
		goto out;
	}
	fr = chan ? frame_decode(chan, clen, &payload, &plen) :
		    FRAME_ENOFRAME;
	if (fr == FRAME_ENOFRAME && console) {
		/* the console's frame, when the channel has none */
		free(chan);
		chan = NULL;
		fr = console_frame(console, conlen, &chan, &clen);
		if (!fr)
			fr = frame_decode(chan, clen, &payload, &plen);
		else
			clen = conlen;
		if (fr != FRAME_ENOFRAME)
			where = con_path;
	}
	if (fr == 0) {
		/* as every JSON input is parsed: a duplicate key is refused */
		if (json_file_parse("payload", payload, plen, snap, &je)) {
			v = V_CORRUPT;
			err_set(err, "the frame in %s is intact but its JSON is bad: %d:%d: %s",
				where, je.line, je.col, je.text);
			goto out;
		}
		v = V_SNAPSHOT;
		goto out;
	}
	evidence = panic_evidence(console ? console : "");
	if (evidence) {
		v = V_PANIC;
		err_set(err, "the kernel panicked (%s):\n%s", con_path,
			evidence);
		goto out;
	}
	tail = file_tail(con_path, TAIL_LINES);
	if (fr != FRAME_ENOFRAME) {
		v = V_CORRUPT;
		err_set(err, "the %s is corrupt: %s (%zu bytes in %s)",
			where == con_path ? "frame on the console" :
					    "result channel",
			frame_strerror(fr), clen, where);
	} else if (st == PROC_TIMEOUT) {
		v = V_TIMEOUT;
		err_set(err, "no snapshot within %d s; guest killed; console tail:\n%s",
			b->timeout, tail);
	} else if (!conlen && (st != PROC_EXITED || code)) {
		free(tail);
		tail = file_tail(qlog, TAIL_LINES);
		v = V_QEMU_FAIL;
		err_set(err, "QEMU failed (%s %d) before the guest printed anything:\n%s",
			st == PROC_SIGNALED ? "signal" : "status", code, tail);
	} else {
		v = V_NO_SNAPSHOT;
		err_set(err, "the guest ended without sending a snapshot; console tail:\n%s",
			tail);
	}
out:
	free(chan);
	free(console);
	free(evidence);
	free(tail);
	free(chan_path);
	free(con_path);
	free(qlog);
	return v;
}

/*
 * QEMU's command line for @b: the console to console.log, or with
 * @b->interactive to the terminal (stdio, Ctrl-A X quits QEMU); the
 * result channel to channel.out.
 */
static void boot_argv(const struct config *c, const struct boot *b,
		      const char *dtb, struct strv *argv)
{
	char *con = path_console(b->outdir);
	char *chan = path_channel(b->outdir);
	char *esc;

	machine_args(c, argv);
	strv_push(argv, "-accel");
	strv_push(argv, b->accel);
	strv_push(argv, "-no-reboot");
	strv_push(argv, "-kernel");
	strv_push(argv, b->kernel);
	strv_push(argv, "-initrd");
	strv_push(argv, b->initramfs);
	if (dtb) {
		strv_push(argv, "-dtb");
		strv_push(argv, dtb);
	}
	strv_push(argv, "-append");
	strv_push(argv, b->cmdline);
	esc = qemu_escape(con);
	strv_push(argv, "-chardev");
	if (b->interactive)
		strv_push(argv, "stdio,id=console,mux=on,signal=off");
	else
		strv_pushf(argv, "file,id=console,path=%s", esc);
	free(esc);
	strv_push(argv, "-serial");
	strv_push(argv, "chardev:console");
	esc = qemu_escape(chan);
	strv_push(argv, "-chardev");
	strv_pushf(argv, "file,id=channel,path=%s", esc);
	free(esc);
	strv_extend(argv, &c->s.qemu_args);
	free(con);
	free(chan);
}

/* What frame_arrived() watches: the file the frame comes on. */
struct frame_watch {
	const char *path;	/* channel.out, or console.log */
	int console;		/* @path is the console */
	off_t seen;		/* its size when last read */
	off_t scanned;		/* console: searched for CONSOLE_SENT up to */
	int sent;		/* console: a CONSOLE_SENT line not yet tried */
};

/*
 * Does the console hold a CONSOLE_SENT line (its newline too) in the
 * bytes since @w->scanned? Only those are read: a chatty console costs
 * each byte once.
 */
static int console_sent(struct frame_watch *w, off_t size)
{
	static const char sent[] = "\n" CONSOLE_SENT;
	off_t from = w->scanned > (off_t)sizeof(sent) ?
		     w->scanned - (off_t)sizeof(sent) : 0;
	size_t len, n = 0;
	char *buf;
	int fd, found = 0;

	if (size <= from)
		return 0;
	len = size - from;
	buf = xmalloc(len + 1);
	fd = open(w->path, O_RDONLY | O_CLOEXEC);

	while (fd >= 0 && n < len) {
		ssize_t got = pread(fd, buf + n, len - n, from + n);

		if (got <= 0)
			break;
		n += got;
	}
	if (fd >= 0)
		close(fd);
	for (const char *p = buf; n >= sizeof(sent) &&
	     (p = memmem(p, n - (p - buf), sent, sizeof(sent) - 1)); p++) {
		const char *after = p + sizeof(sent) - 1;

		if (after < buf + n && (*after == '\n' || *after == '\r')) {
			found = 1;
			break;
		}
	}
	w->scanned = from + n;
	free(buf);
	return found;
}

/*
 * Has the guest sent a whole frame? What it does after that (its reboot)
 * is no part of the answer: on x86_64 the reboot waits for the PS/2
 * mouse's probe, 0.4 s a boot. The channel is decoded each time it has
 * grown (the frame is all it carries); the console only once a
 * CONSOLE_SENT line has come, the guest's last word.
 */
static int frame_arrived(void *arg)
{
	struct frame_watch *w = arg;
	char *buf, *frame = NULL;
	size_t len, plen, flen;
	const char *payload;
	struct stat st;
	int fr;

	if (stat(w->path, &st) || st.st_size == w->seen)
		return 0;
	if (w->console && !w->sent)
		w->sent = console_sent(w, st.st_size);
	if (w->console && !w->sent) {
		w->seen = st.st_size;
		return 0;
	}
	buf = file_read(w->path, &len);
	if (!buf)
		return 0;	/* tried again at the next poll */
	w->seen = st.st_size;
	if (w->console) {
		fr = console_frame(buf, len, &frame, &flen);
		if (!fr)
			fr = frame_decode(frame, flen, &payload, &plen);
		free(frame);
		/* not a frame after all: wait for another last word */
		w->sent = 0;
	} else {
		fr = frame_decode(buf, len, &payload, &plen);
	}
	free(buf);
	return !fr;
}

enum verdict boot_run(const struct matrix *m, const struct config *c,
		      const struct boot *b, const char *dtb, json_t **snap,
		      struct sf_err *err)
{
	char *con = path_console(b->outdir);
	char *chan = path_channel(b->outdir);
	char *qlog = path_qemu_log(b->outdir);
	struct strv argv = STRV_INIT;
	struct frame_watch watch = { .path = b->console ? con : chan,
				     .console = b->console };
	struct proc p = PROC_INIT;
	enum proc_status st;
	enum verdict v;
	int code;

	/* Nothing from an earlier boot may be mistaken for this one's. */
	unlink(con);
	unlink(chan);
	boot_argv(c, b, dtb, &argv);
	log_command(qlog, &argv);
	p.argv = strv_argv(&argv);
	p.out_path = qlog;
	p.out_append = 1;
	p.err_to_out = 1;
	p.timeout = b->timeout;
	p.done = frame_arrived;
	p.done_arg = &watch;
	st = proc_run(&p, &code);
	v = boot_decode(b, st, code, snap, err);
	strv_release(&argv);
	free(con);
	free(chan);
	free(qlog);
	return v;
}

int boot_exec(const struct config *c, const struct boot *b, const char *dtb,
	      struct sf_err *err)
{
	char *qlog = path_qemu_log(b->outdir);
	struct strv argv = STRV_INIT;

	boot_argv(c, b, dtb, &argv);
	log_command(qlog, &argv);
	free(qlog);
	execvp(argv.v[0], (char *const *)strv_argv(&argv));
	err_set(err, "cannot run %s: %s", argv.v[0], strerror(errno));
	strv_release(&argv);
	return -1;
}
