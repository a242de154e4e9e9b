// SPDX-License-Identifier: GPL-2.0
/*
 * sysfarm-cc: the compiler launcher of the farm's kernel builds,
 * CC="sysfarm-cc gcc": ccache in depend mode, made safe for .incbin.
 *
 * Depend mode hashes the source and the files its dependency file names,
 * never running the preprocessor: a cache miss costs one compiler run,
 * where ccache's default mode costs two (arm-sysfs-off from an empty cache
 * here: 245 s through this launcher, 294-328 s in the default mode, 222-238
 * s without ccache). But ccache 4.7 does not see .incbin in depend mode; a
 * dependency file never names what .incbin reads: arm's piggy.S came back
 * from the cache holding the last kernel. So once the compiler has run,
 * every file the dependency file names is searched for "incbin"; where
 * one has it, the object is compiled again with ccache out of the way
 * (its default mode would not do: its direct mode finds the entry depend
 * mode made). A stale object never outlives the command. The search is
 * skipped where ccache tells (through its stats log, on a descriptor of
 * ours) that it missed: the compiler has just made that object.
 *
 * Paths under ccache's base directory are handed to ccache relative to
 * the working directory, as ccache would hash them: the dependency file
 * the compiler writes then names relative paths, which ccache need not
 * resolve one by one (kernel/exit.o: 14,600 readlink calls, 5% of the
 * compile's CPU time, without this).
 *
 * Usage: sysfarm-cc COMPILER ARG... ; without a -Wp,-MD/-MMD,FILE or -MF
 * FILE dependency file, or with the source on standard input ("-"), plain
 * ccache in its default mode; with ccache disabled (CCACHE_DISABLE), the
 * compiler alone, its arguments untouched.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"

/*
 * The dependency file the compiler is told to write, or NULL; NULL too for
 * a source on standard input, which could not be read a second time.
 */
static const char *dep_file(int argc, char **argv)
{
	const char *dep = NULL;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-"))
			return NULL;
		if (!strncmp(argv[i], "-Wp,-MD,", 8))
			dep = argv[i] + 8;
		if (!strncmp(argv[i], "-Wp,-MMD,", 9))
			dep = argv[i] + 9;
		if (!strcmp(argv[i], "-MF") && i + 1 < argc)
			dep = argv[i + 1];
	}
	return dep;
}

/* Does any file @dep names ("target: a.c b.h \ ...") contain .incbin? */
static int dep_has_incbin(const char *dep)
{
	size_t len;
	char *buf = file_read(dep, &len), *p, *tok;
	int found = 0;

	if (!buf)
		return 1;	/* cannot tell: be safe */
	p = strchr(buf, ':');
	for (p = p ? p + 1 : buf; !found && (tok = strtok(p, " \t\n\\")); p = NULL) {
		size_t n;
		char *text = file_read(tok, &n);

		/* an unreadable input: be safe, as for an unreadable .d */
		found = !text || memmem(text, n, "incbin", 6);
		free(text);
	}
	free(buf);
	return found;
}

/*
 * Is ccache told to stay out of the way? As ccache reads CCACHE_DISABLE:
 * set means true, but for the words it refuses (it fails on those, and so
 * it shall here).
 */
static bool ccache_disabled(void)
{
	static const char *const refused[] = { "0", "false", "disable", "no" };
	const char *v = getenv("CCACHE_DISABLE");

	if (!v || getenv("CCACHE_NODISABLE"))
		return false;
	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++)
		if (!strcasecmp(v, refused[i]))
			return false;
	return true;
}

/*
 * @path relative to the working directory @cwd when both lie under @base,
 * or NULL: "/b/src/include" from "/b/kernels/k" is "../../src/include".
 * @cwd is physical (getcwd), so each ".." climbs a real directory.
 */
static char *relative(const char *base, const char *cwd, const char *path)
{
	size_t n = strlen(base), common = n, up = 0;
	char *rel;

	if (strncmp(path, base, n) || path[n] != '/' ||
	    strncmp(cwd, base, n) || (cwd[n] && cwd[n] != '/'))
		return NULL;
	/* the longest run of whole directories @cwd and @path share */
	for (size_t i = n; cwd[i] == path[i] || (!cwd[i] && path[i] == '/'); i++) {
		if (!cwd[i] || cwd[i] == '/')
			common = i;
		if (!cwd[i])
			break;
	}
	for (const char *p = cwd + common; *p; p++)
		up += *p == '/';
	rel = xmalloc(3 * up + strlen(path + common) + 2);
	rel[0] = 0;
	for (size_t i = 0; i < up; i++)
		strcat(rel, "../");
	strcat(rel, path[common] ? path + common + 1 : "");
	if (!*rel)
		strcpy(rel, ".");
	else if (rel[strlen(rel) - 1] == '/')
		rel[strlen(rel) - 1] = 0;
	return rel;
}

/*
 * Spell relative, in place, each argument that is a path under ccache's
 * base directory: a source, the value of "-include FILE", "-I DIR", or a
 * joined -I, -isystem, -iquote or -idirafter; never a make target that
 * -MT or -MQ names for the dependency file.
 */
static void relative_args(int argc, char **argv)
{
	static const char *const joined[] = { "-I", "-isystem", "-iquote",
					      "-idirafter" };
	const char *base = getenv("CCACHE_BASEDIR");
	char cwd[PATH_MAX];

	if (!base || *base != '/' || !getcwd(cwd, sizeof(cwd)))
		return;
	while (strlen(base) > 1 && base[strlen(base) - 1] == '/')
		base = xstrfmt("%.*s", (int)strlen(base) - 1, base);
	for (int i = 0; i < argc; i++) {
		size_t k = 0;
		char *rel;

		if (!strcmp(argv[i], "-MT") || !strcmp(argv[i], "-MQ")) {
			i++;
			continue;
		}
		for (size_t j = 0; !k && j < sizeof(joined) / sizeof(*joined); j++)
			if (!strncmp(argv[i], joined[j], strlen(joined[j])) &&
			    argv[i][strlen(joined[j])] == '/')
				k = strlen(joined[j]);
		rel = relative(base, cwd, argv[i] + k);
		if (rel)
			argv[i] = k ? xstrfmt("%.*s%s", (int)k, argv[i], rel) : rel;
	}
}

/*
 * A file only this process and its children see, for ccache's stats log,
 * or -1 where the user keeps a stats log of their own (or none can be made).
 */
static int stats_log(void)
{
	char path[32];
	int fd;

	if (getenv("CCACHE_STATSLOG"))
		return -1;
	fd = memfd_create("sysfarm-cc-stats", 0);
	if (fd < 0)
		return -1;
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	setenv("CCACHE_STATSLOG", path, 1);
	return fd;
}

/* Did ccache just run the compiler itself, by the record in @fd? */
static bool ccache_missed(int fd)
{
	char buf[512];
	ssize_t n;

	if (fd < 0)
		return false;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return false;
	buf[n] = 0;
	/* "# SOURCE\ncache_miss\n...": one line per counter */
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (!strcmp(line, "cache_miss") || !strcmp(line, "recache"))
			return true;
	return false;
}

/* ccache COMPILER ARG...: @argv with "ccache" in place of our name */
static void exec_ccache(char **argv)
{
	argv[0] = "ccache";
	execvp("ccache", argv);
	fprintf(stderr, "sysfarm-cc: cannot run ccache: %s\n", strerror(errno));
	exit(127);
}

/* COMPILER ARG..., ccache out of the way */
static void exec_compiler(char **argv)
{
	execvp(argv[1], argv + 1);
	fprintf(stderr, "sysfarm-cc: cannot run %s: %s\n", argv[1],
		strerror(errno));
	exit(127);
}

int main(int argc, char **argv)
{
	const char *dep = dep_file(argc - 2, argv + 2);
	int status, log;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: sysfarm-cc COMPILER ARG...\n", stderr);
		return 2;
	}
	if (ccache_disabled())
		exec_compiler(argv);
	relative_args(argc - 2, argv + 2);
	if (!dep)
		exec_ccache(argv);
	log = stats_log();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "sysfarm-cc: cannot fork: %s\n", strerror(errno));
		return 127;
	}
	if (!pid) {
		setenv("CCACHE_DEPEND", "1", 1);
		exec_ccache(argv);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	if (!WIFEXITED(status))
		return 128 + WTERMSIG(status);
	if (WEXITSTATUS(status) || ccache_missed(log) || !dep_has_incbin(dep))
		return WEXITSTATUS(status);
	exec_compiler(argv);
}
