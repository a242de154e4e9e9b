// SPDX-License-Identifier: GPL-2.0
/* JSON files: read as bounded inputs with positions, written atomically. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonfile.h"

int json_file_parse(const char *name, const char *buf, size_t len,
		    json_t **out, struct sf_err *err)
{
	json_error_t jerr;

	*out = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (*out)
		return 0;
	err_at(err, ERR_INPUT, name, jerr.line,
	       jerr.column > 0 ? jerr.column : 1, "%s", jerr.text);
	return INPUT_EBAD;
}

int json_file_read(const char *path, json_t **out, struct sf_err *err)
{
	size_t len;
	int ret;
	char *buf = input_read(path, INPUT_MAX_JSON, &len, err);

	if (!buf)
		return input_status(err);
	ret = json_file_parse(path, buf, len, out, err);
	free(buf);
	return ret;
}

int json_file_write(const char *path, json_t *j, struct sf_err *err)
{
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	char *nl = text ? xstrfmt("%s\n", text) : NULL;
	int ret = 0;

	if (!nl || file_write_atomic(path, nl, strlen(nl)))
		ret = err_set(err, "%s: cannot write: %s", path,
			      nl ? strerror(errno) : "cannot serialize");
	free(text);
	free(nl);
	return ret;
}
