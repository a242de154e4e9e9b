// SPDX-License-Identifier: GPL-2.0
/* sysfarm fetch: the selected configurations' fetched sources, fetched. */
#include <stdio.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "pipeline/farm.h"

static const char about[] =
	"Fetches the .deb of each selected configuration's source that names\n"
	"a Debian suite (kernel.suite) into the build directory, the suite's\n"
	"list updated first (an unpinned source becomes the suite's current\n"
	"version); a pinned version already fetched is kept. Prints each\n"
	"fetched source's package, version and sha256. make deps runs it.\n";

static const struct opt_cmd fetch_cmd = {
	.usage = "sysfarm fetch [OPTIONS] [CONFIG...]",
	.about = about,
	.nargs = OPT_CONFIGS,
};

int cmd_fetch(int argc, char **argv)
{
	struct farm f;
	int status;

	farm_init(&f);
	f.fetch_refresh = 1;
	if (ui_setup(&f, argc, argv, &fetch_cmd, NULL, &status))
		goto out;
	for (size_t i = 0; i < f.nsrcs; i++) {
		const struct farm_source *fs = &f.srcs[i];

		if (fs->fetch)
			printf("%s %s %s sha256 %s: %s\n", fs->spec.package,
			       fs->got.version, fs->spec.suite,
			       fs->got.sha256, fs->tarball);
	}
out:
	farm_release(&f);
	return status;
}
