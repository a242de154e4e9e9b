// SPDX-License-Identifier: GPL-2.0
/* sysfarm shell: a configuration's guest with a shell on this terminal. */
#include <stdio.h>
#include <string.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "lib/exitcode.h"
#include "pipeline/farm.h"
#include "pipeline/run.h"

static const char about[] =
	"Builds the configuration's kernel as `run` does and boots it with the\n"
	"same initramfs and command line, but the guest's init gives a shell on\n"
	"the console (this terminal) instead of taking a snapshot: /sys is\n"
	"sysfs, the probes the snapshotter runs are in /etc/sysfarm/probes.\n"
	"For exploring sysfs before writing probes or an ABI row. `exit` ends\n"
	"the guest, Ctrl-A X ends QEMU. No time limit.\n"
	"Exit status: QEMU's; 125 when the kernel cannot be built or booted.\n";

static const struct opt_cmd shell_cmd = {
	.usage = "sysfarm shell [OPTIONS] CONFIG",
	.about = about,
	.nargs = OPT_CONFIGS,
};

int cmd_shell(int argc, char **argv)
{
	struct run *runs = NULL;
	struct farm f;
	int status;

	farm_init(&f);
	f.uses_source = 1;
	if (ui_setup(&f, argc, argv, &shell_cmd, NULL, &status))
		goto out;
	status = SF_EXIT_USAGE;
	if (strcmp(f.backend, "qemu")) {
		fprintf(stderr, "sysfarm shell: --backend %s cannot give a shell on this terminal: the shell boots in QEMU here (--backend qemu)\n",
			f.backend);
		goto out;
	}
	if (f.nsel != 1) {
		fprintf(stderr, "sysfarm shell: takes one configuration, and %zu %s selected (usage: %s)\n",
			f.nsel, f.nsel == 1 ? "is" : "are", shell_cmd.usage);
		goto out;
	}
	runs = run_alloc(&f);
	/* returns only when it could not become QEMU */
	run_shell(&f, runs);
	status = ui_summary(&f, runs);
out:
	run_free(&f, runs);
	farm_release(&f);
	return status;
}
