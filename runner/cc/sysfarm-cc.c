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
 * mode made). A stale object never outlives the command.
 *
 * Usage: sysfarm-cc COMPILER ARG... ; without a -Wp,-MD/-MMD,FILE or -MF
 * FILE dependency file, or with the source on standard input ("-"), plain
 * ccache in its default mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	int status;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: sysfarm-cc COMPILER ARG...\n", stderr);
		return 2;
	}
	if (!dep)
		exec_ccache(argv);
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
	if (WEXITSTATUS(status) || !dep_has_incbin(dep))
		return WEXITSTATUS(status);
	setenv("CCACHE_DISABLE", "1", 1);
	exec_ccache(argv);
}
