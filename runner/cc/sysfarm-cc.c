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
 * ours) that it missed: the compiler has just made that object. (So a
 * stats_log set in ccache.conf, not in CCACHE_STATSLOG, misses kernel
 * compiles.)
 *
 * The include directories and sources under ccache's base directory are
 * handed to ccache relative to the working directory, as ccache would hash
 * them: the dependency file the compiler writes then names relative paths,
 * which ccache need not resolve one by one (kernel/exit.o: 14,600 readlink
 * calls, 5% of the compile's CPU time, without this).
 *
 * Usage: sysfarm-cc COMPILER ARG... ; without a -Wp,-MD/-MMD,FILE or -MF
 * FILE dependency file, or with the source on standard input ("-"), or
 * with CCACHE_DISABLE set, plain ccache, its arguments untouched.
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
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++)
		if (!strcasecmp(v, refused[i]))
			return false;
	return true;
}

/* Is @arg one of @list's @n words? */
static bool one_of(const char *arg, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(arg, list[i]))
			return true;
	return false;
}

#define ONE_OF(arg, list) one_of(arg, list, ARRAY_SIZE(list))

/*
 * Spell relative, in place, what a compile finds its inputs by, where it
 * lies under ccache's base directory: the include directories and files
 * (-I, -isystem, -iquote, -idirafter, joined or not; -include, -imacros)
 * and the sources (.c, .S, .s). Nothing else: not -o, not a make target,
 * not what an option's value means to the linker.
 */
static void relative_args(int argc, char **argv)
{
	static const char *const dirs[] = { "-I", "-isystem", "-iquote",
					    "-idirafter" };
	static const char *const files[] = { "-include", "-imacros" };
	/* options whose next argument is theirs, not a source */
	static const char *const valued[] = { "-o", "-MF", "-MT", "-MQ", "-x",
		"-T", "-Xlinker", "-Xassembler", "-Xpreprocessor" };
	const char *base = getenv("CCACHE_BASEDIR");
	char cwd[PATH_MAX];

	if (!base || *base != '/' || !getcwd(cwd, sizeof(cwd)))
		return;
	while (strlen(base) > 1 && base[strlen(base) - 1] == '/')
		base = xstrfmt("%.*s", (int)strlen(base) - 1, base);
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i], *dot = strrchr(arg, '.'), *lead;
		size_t k = 0;
		char *rel;

		if (ONE_OF(arg, valued)) {
			i++;
			continue;
		}
		if (ONE_OF(arg, dirs) || ONE_OF(arg, files)) {
			if (++i == argc)
				break;
		} else if (*arg == '-') {
			for (size_t j = 0; j < ARRAY_SIZE(dirs); j++)
				if (!strncmp(arg, dirs[j], strlen(dirs[j])) &&
				    arg[strlen(dirs[j])] == '/')
					k = strlen(dirs[j]);
			if (!k)
				continue;
		} else if (!dot || strlen(dot) != 2 || !strchr("cSs", dot[1])) {
			continue;	/* not a source */
		}
		rel = path_relative(base, cwd, argv[i] + k);
		if (!rel)
			continue;
		/* "-x.c" would be an option, "-I=inc" under the sysroot */
		lead = *rel == '-' || *rel == '=' ? "./" : "";
		argv[i] = xstrfmt("%.*s%s%s", (int)k, argv[i], lead, rel);
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

int main(int argc, char **argv)
{
	const char *dep = dep_file(argc - 2, argv + 2);
	int status, log;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: sysfarm-cc COMPILER ARG...\n", stderr);
		return 2;
	}
	if (!dep || ccache_disabled())
		exec_ccache(argv);
	relative_args(argc - 2, argv + 2);
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
	/* of the two, ccache heeds the one later in the environment */
	unsetenv("CCACHE_NODISABLE");
	setenv("CCACHE_DISABLE", "1", 1);
	exec_ccache(argv);
}
