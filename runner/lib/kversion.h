/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel versions: a tree's, from its Makefile, and their order. */
#ifndef SYSFARM_KVERSION_H
#define SYSFARM_KVERSION_H

/**
 * kversion_of_tree() - "6.1.192" from the top Makefile of the tree in @dir
 * (VERSION, PATCHLEVEL, SUBLEVEL and EXTRAVERSION)
 *
 * Return: the version (malloc'd), or NULL when the Makefile has none, is
 * not a regular file of at most 4 MiB, or holds a part that is not
 * letters, digits and .-+_~ (the version names directories).
 */
char *kversion_of_tree(const char *dir);

/**
 * kversion_cmp() - order two versions by their dotted numbers
 * A missing part counts as 0 ("6.12" == "6.12.0" < "6.12.118"); the
 * numbers end at the first character that is neither a digit nor a dot,
 * so "6.1.192-rc1" is "6.1.192".
 *
 * Return: <0, 0 or >0 as @a is older than, the same as or newer than @b.
 */
int kversion_cmp(const char *a, const char *b);

#endif
