// SPDX-License-Identifier: GPL-2.0
/* Lines of a .config or a kconfig fragment, read the one way both need. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kconfig.h"

int kconfig_line(const char *line, char name[KCONFIG_NAME_MAX],
		 const char **value)
{
	const char *eq;

	if (sscanf(line, "# %127[A-Za-z0-9_] is not set", name) == 1 &&
	    !strncmp(name, "CONFIG_", 7)) {
		*value = NULL;
		return 1;
	}
	if (strncmp(line, "CONFIG_", 7) || !(eq = strchr(line, '=')))
		return 0;
	snprintf(name, KCONFIG_NAME_MAX, "%.*s", (int)(eq - line), line);
	*value = eq + 1;
	return 1;
}

int kconfig_read_set(const char *path, struct strv *options,
		     struct sf_err *err)
{
	char *line, *next, *buf;

	buf = input_read(path, INPUT_MAX_TEXT, NULL, err);
	if (!buf)
		return -1;
	for (line = buf; line; line = next) {
		char name[KCONFIG_NAME_MAX];
		const char *value;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (kconfig_line(line, name, &value) && value &&
		    (!strcmp(value, "y") || !strcmp(value, "m")))
			strv_push(options, name);
	}
	free(buf);
	return 0;
}
