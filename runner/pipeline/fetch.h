/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel source fetched from a Debian suite (the matrix's kernel.suite):
 * its .deb downloaded by apt-get, which checks the suite's signature and
 * the .deb's hash, into the build directory, with apt's state of its own
 * there (BUILD/apt/, lib/paths.h): the system's /etc/apt and apt lists
 * are only read, never written, and never updated.
 *
 * A .deb fetched and verified once is kept (BUILD/debs/PKG_VERSION/, its
 * record last): a rerun asks nothing of the network while the version it
 * wants is there. The archive moves on under a pin: a version the suite
 * no longer has, or a package it no longer has, is could-not-test (125)
 * naming what the suite has now.
 */
#ifndef SYSFARM_FETCH_H
#define SYSFARM_FETCH_H

#include "lib/util.h"
#include "pipeline/matrix.h"

/* Where a suite is fetched from when kernel.archive names nothing. */
#define FETCH_ARCHIVE "http://deb.debian.org/debian"
/* ... for a suite named *-security (bookworm-security) */
#define FETCH_ARCHIVE_SECURITY "http://deb.debian.org/debian-security"
#define FETCH_KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg"

/* A fetched source as the matrix names it (kernel.*): borrowed strings. */
struct fetch_spec {
	const char *package;
	const char *suite;
	const char *version;	/* the pin, or NULL: the suite's current */
	const char *sha256;	/* the .deb's pin, or NULL */
	const char *archive;	/* never NULL: the default filled in */
	const char *keyring;	/* never NULL */
};

/* What was fetched (malloc'd), for the snapshot's header. */
struct fetched {
	char *version;
	char *sha256;		/* of the .deb */
	char *tarball;		/* BUILD/debs/PKG_VERSION/root/usr/src/PKG.tar.xz */
};

#define FETCHED_INIT { 0 }

/*
 * fetch_spec_of() - @s's fetched source in @sp (the default archive
 * and keyring filled in): 1, or 0 when it names none (an installed
 * package's tarball).
 */
int fetch_spec_of(const struct settings *s, struct fetch_spec *sp);

/*
 * fetch_name() - the name of a fetched source's tree under BUILD/sources:
 * PACKAGE_VERSION for a pin, PACKAGE_SUITE for the suite's current (a
 * matrix name: characters other than [a-z0-9.-] of the version become
 * '_'), so that a pinned 6.1 and today's installed 6.1 keep a tree each.
 */
char *fetch_name(const struct fetch_spec *sp);

/*
 * config_source_name() - the name of @s's source (its tree's directory
 * under BUILD/sources): fetch_name() for a fetched source, else its
 * tarball's source_name() (malloc'd; NULL for a tarball without .tar).
 */
char *config_source_name(const struct settings *s);

/**
 * fetch_source() - the .deb @sp names, fetched unless it is there already
 * @build: the build directory (absolute)
 * @refresh: update the suite's list even when it was updated before, so
 *	that an unpinned source becomes the suite's current version
 *	(`sysfarm fetch`); else a list is updated only when the version
 *	wanted is not fetched yet
 * @out: filled on success
 * @err: ERR_UNTESTABLE: apt-get failed (an unsigned or wrongly signed
 *	suite, no network), the suite has no such version or package any
 *	more (naming the version it has), or the .deb is not the one pinned
 *
 * Return: 0, or -1 with @err set.
 */
int fetch_source(const char *build, const struct fetch_spec *sp,
		 int refresh, struct fetched *out, struct sf_err *err);

void fetched_release(struct fetched *fd);

#endif
