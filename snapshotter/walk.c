// SPDX-License-Identifier: GPL-2.0
/* Walking a sysfs subtree into a JSON tree of dir, file, link nodes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attr.h"
#include "text.h"
#include "walk.h"

/* The following rule looks at the first four components only. */
#define WALK_RULE_DEPTH	4

/*
 * A dir node WALK_DEPTH_MAX levels below its root is not listed, so that
 * the host's parser (jansson, as here) takes every snapshot: the root's
 * node is the third value down from the top, each level two more ("entries"
 * and the node), a followed link's node one more, and the deepest value is
 * a member of a dir at the limit. 1000 also keeps the walk's open
 * directories (one a level) below the 1024 descriptors a process has by
 * default.
 */
#define WALK_DEPTH_MAX	1000
_Static_assert(3 + 2 * WALK_DEPTH_MAX + 1 + 1 <= JSON_PARSER_MAX_DEPTH,
	       "the host's jansson would refuse the deepest snapshot");

/**
 * struct walk_pos - where the walk is, counted from the sysfs mount
 * @comp: the first WALK_RULE_DEPTH path components (borrowed)
 * @depth: number of components of the current entry's path
 * @root_depth: number of components of the root's path
 */
struct walk_pos {
	const char *comp[WALK_RULE_DEPTH];
	unsigned int depth, root_depth;
};

static json_t *node_make(int at, const char *name, struct walk_pos *pos);

static bool walk_follows(const struct walk_pos *pos)
{
	if (pos->depth == 3)
		return !strcmp(pos->comp[0], "class");
	if (pos->depth == 4)
		return !strcmp(pos->comp[0], "bus") &&
			!strcmp(pos->comp[2], "devices");
	return false;
}

int walk_root_check(char *root)
{
	char *src = root, *dst = root;

	if (*root == '/' || !*root)
		return -EINVAL;
	while (*src) {
		size_t n = strcspn(src, "/");

		if ((n == 1 && src[0] == '.') ||
		    (n == 2 && src[0] == '.' && src[1] == '.'))
			return -EINVAL;
		if (dst != root)
			*dst++ = '/';
		memmove(dst, src, n);
		dst += n;
		src += n;
		src += strspn(src, "/");
	}
	*dst = '\0';
	return 0;
}

static json_t *node_new(const char *type, const struct stat *st)
{
	char mode[8];

	snprintf(mode, sizeof(mode), "%04o", (unsigned int)st->st_mode & 07777);
	return json_pack("{s:s, s:s}", "type", type, "mode", mode);
}

static json_t *node_error(int err)
{
	return json_pack("{s:s}", "error", errno_name(err));
}

static bool is_dot_or_dotdot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

/*
 * @node's dir at WALK_DEPTH_MAX: "truncated" if it holds anything, else
 * its empty "entries", as above the limit. Takes @dir.
 */
static json_t *dir_cut(json_t *node, DIR *dir)
{
	struct dirent *de;
	bool more;
	int err;

	while ((errno = 0, de = readdir(dir)) && is_dot_or_dotdot(de->d_name))
		;
	err = errno;
	more = de;
	closedir(dir);
	if (more ? json_object_set_new(node, "truncated", json_true()) :
	    json_object_set_new(node, "entries", json_object()) ||
	    (err && json_set_errno(node, "error", err))) {
		json_decref(node);
		return NULL;
	}
	return node;
}

static json_t *dir_node(int at, const char *name, const struct stat *st,
			bool follow, struct walk_pos *pos)
{
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	json_t *node = node_new("dir", st), *entries;
	struct dirent *de;
	int fd, err;
	DIR *dir;

	if (!node)
		return NULL;
	fd = openat(at, name, follow ? flags : flags | O_NOFOLLOW);
	if (fd < 0) {
		err = errno;
		goto out_error;
	}
	dir = fdopendir(fd);
	if (!dir) {
		err = errno;
		close(fd);
		goto out_error;
	}
	if (pos->depth - pos->root_depth == WALK_DEPTH_MAX)
		return dir_cut(node, dir);
	entries = json_object();
	if (json_object_set_new(node, "entries", entries))
		goto out_nomem;
	while ((errno = 0, de = readdir(dir))) {
		json_t *child;
		char *key;

		if (is_dot_or_dotdot(de->d_name))
			continue;
		if (pos->depth < WALK_RULE_DEPTH)
			pos->comp[pos->depth] = de->d_name;
		pos->depth++;
		child = node_make(dirfd(dir), de->d_name, pos);
		pos->depth--;
		key = name_encode(de->d_name, strlen(de->d_name));
		if (!key || json_object_set_new(entries, key, child)) {
			free(key);
			goto out_nomem;
		}
		free(key);
	}
	/* entries read so far stay: a partial listing is still data */
	if (errno && json_set_errno(node, "error", errno))
		goto out_nomem;
	closedir(dir);
	return node;

out_nomem:
	closedir(dir);
	json_decref(node);
	return NULL;
out_error:
	if (json_set_errno(node, "error", err)) {
		json_decref(node);
		return NULL;
	}
	return node;
}

static json_t *file_node(int at, const char *name, const struct stat *st,
			 bool follow)
{
	struct attr_buf buf = ATTR_BUF_INIT;
	json_t *node = node_new("file", st);
	int ret;

	if (!node)
		return NULL;
	ret = attr_read_at(at, name, follow, &buf);
	if (ret == -ENOMEM)
		goto out_nomem;
	if (ret < 0 ? json_set_errno(node, "error", ret) :
	    json_set_attr(node, &buf))
		goto out_nomem;
	attr_buf_release(&buf);
	return node;

out_nomem:
	attr_buf_release(&buf);
	json_decref(node);
	return NULL;
}

/* A node for what @st describes, which is not a symlink. */
static json_t *node_from_stat(int at, const char *name,
			      const struct stat *st, bool follow,
			      struct walk_pos *pos)
{
	if (S_ISDIR(st->st_mode))
		return dir_node(at, name, st, follow, pos);
	if (S_ISREG(st->st_mode))
		return file_node(at, name, st, follow);
	return node_new("other", st);
}

static json_t *link_node(int at, const char *name, const struct stat *st,
			 struct walk_pos *pos)
{
	json_t *node = node_new("link", st), *follow;
	char target[PATH_MAX];
	struct stat tst;
	ssize_t n;

	if (!node)
		return NULL;
	n = readlinkat(at, name, target, sizeof(target));
	if (n == sizeof(target)) {
		n = -1;
		errno = ENAMETOOLONG;
	}
	if (n < 0 ? json_set_errno(node, "error", errno) :
	    json_set_bytes(node, "target", "target_base64", target, n))
		goto out_nomem;
	if (!walk_follows(pos))
		return node;
	if (fstatat(at, name, &tst, 0))
		follow = node_error(errno);
	else
		follow = node_from_stat(at, name, &tst, true, pos);
	if (json_object_set_new(node, "follow", follow))
		goto out_nomem;
	return node;

out_nomem:
	json_decref(node);
	return NULL;
}

static json_t *node_make(int at, const char *name, struct walk_pos *pos)
{
	struct stat st;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW))
		return node_error(errno);
	if (S_ISLNK(st.st_mode))
		return link_node(at, name, &st, pos);
	return node_from_stat(at, name, &st, false, pos);
}

json_t *walk_root(int sysfd, const char *root)
{
	struct walk_pos pos = { .depth = 0 };
	char *comps, *comp, *save;
	json_t *node;

	comps = strdup(root);
	if (!comps)
		return NULL;
	for (comp = strtok_r(comps, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		if (pos.depth < WALK_RULE_DEPTH)
			pos.comp[pos.depth] = comp;
		pos.depth++;
	}
	pos.root_depth = pos.depth;
	node = node_make(sysfd, root, &pos);
	free(comps);
	return node;
}
