// SPDX-License-Identifier: GPL-2.0
/* Kernel versions: a tree's, from its Makefile, and their order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kversion.h"
#include "lib/util.h"

#define VERSION_CHARS "abcdefghijklmnopqrstuvwxyz" \
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-+_~"

char *kversion_of_tree(const char *dir)
{
	static const char *const keys[] = {
		"VERSION = ", "PATCHLEVEL = ", "SUBLEVEL = ", "EXTRAVERSION ="
	};
	char *mk = xstrfmt("%s/Makefile", dir), *line, *next;
	struct sf_err err = SF_ERR_INIT;	/* unread: no version */
	/* A FIFO or a huge file is no kernel's Makefile: refused, not read */
	char *text = input_read(mk, INPUT_MAX_TEXT, NULL, &err);
	char part[4][32] = { "", "", "", "" };

	free(mk);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (!*part[i] && !strncmp(line, keys[i], strlen(keys[i])))
				snprintf(part[i], sizeof(part[i]), "%s",
					 line + strlen(keys[i]) +
					 (line[strlen(keys[i])] == ' '));
		if (!strncmp(line, "NAME = ", 7))
			break;
	}
	free(text);
	if (!*part[0] || !*part[1])
		return NULL;
	/*
	 * The numbers are numbers ("VERSION = x" is no 0, "-1" no huge
	 * release: kversion_cmp() would order them so); the rest names
	 * directories and is printed: plain characters only.
	 */
	for (size_t i = 0; i < ARRAY_SIZE(part); i++)
		if (strspn(part[i], i < 3 ? "0123456789" : VERSION_CHARS) !=
		    strlen(part[i]) || (i < 3 && strlen(part[i]) > 9))
			return NULL;
	return xstrfmt("%s.%s%s%s%s", part[0], part[1], *part[2] ? "." : "",
		       part[2], part[3]);
}

int kversion_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		char *ea, *eb;
		unsigned long na = strtoul(a, &ea, 10);
		unsigned long nb = strtoul(b, &eb, 10);

		if (na != nb)
			return na < nb ? -1 : 1;
		/* The end of the numbers: "6.1-rc1" stops at '-' */
		a = *ea == '.' ? ea + 1 : ea + strlen(ea);
		b = *eb == '.' ? eb + 1 : eb + strlen(eb);
	}
	return 0;
}
