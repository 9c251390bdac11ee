/*
 * store_private: what the files of lib/store share and its users do not
 * need (store.h is the interface): the walk of paths inside the store that
 * follows no symbolic link, temporary files, durable writes.
 *
 * Paths inside the store ("rel") are names separated by '/', relative to
 * the store's directory, such as "objects/ab/cdef...": never "..", never
 * absolute.  Every open of one goes through pv_store_openat(), which opens
 * it a name at a time from st->dirfd with O_NOFOLLOW, so that a link
 * anywhere on the way is refused (ELOOP, in st->err.errnum) rather than
 * followed out of the store.
 */
#ifndef PV_STORE_PRIVATE_H
#define PV_STORE_PRIVATE_H

#include <stddef.h>
#include <sys/types.h>

#include "store.h"
#include "strbuf.h"

/* the size of a read or write of objects and the index */
#define PV_STORE_BUFSIZE 65536

/* pv_store_openat(): rel is a directory, opened for reading */
#define PV_STORE_DIR (-1)

/* sb = "DIR/rel" (replacing what sb held), for messages */
void pv_store_path(const struct pv_store *st, struct pv_strbuf *sb,
		   const char *rel);

/*
 * Open rel with flags (and mode, for O_CREAT), or as a directory when
 * flags is PV_STORE_DIR, following no link: a file must be a regular
 * file (a FIFO, say, is refused before it can block).  Returns the fd
 * (O_CLOEXEC), or -1 with st->err set: errnum ENOENT for a name that is
 * not there, ELOOP for a link, ENOTDIR and EINVAL for the wrong kind of
 * file.
 */
int pv_store_openat(struct pv_store *st, const char *rel, int flags,
		    mode_t mode);

/*
 * A new file of mode 0600 in the directory tmpfd (DIR/tmp), named
 * prefix-PID-N, made with O_EXCL: its fd, its name in name; -1 with
 * st->err.
 */
int pv_store_tmpfile(struct pv_store *st, int tmpfd, const char *prefix,
		     struct pv_strbuf *name);

/*
 * Remove every file in DIR/tmp: only while no writer can be running (the
 * exclusive lock, or a shared one taken when no other process held it).
 * Links and files are removed, never followed; directories are left.
 * Counts what it removed when n and bytes are not NULL.  A missing
 * DIR/tmp is empty.
 */
int pv_store_clean_tmp(struct pv_store *st, size_t *n, uint64_t *bytes);

/*
 * Read the index into st->entry, as pv_store_index_load(); with bad not
 * NULL, tolerantly: each damaged line is noted in st->damaged and given
 * to bad(), and the reading goes on.
 */
int pv_store_index_read(struct pv_store *st,
			void (*bad)(void *arg, unsigned long line,
				    const char *msg),
			void *arg);
/* Replace DIR/index by text, atomically (a temporary file, renamed). */
int pv_store_index_replace(struct pv_store *st, const struct pv_strbuf *text);

/* fsync the directory fd, so that a new name in it survives a crash */
int pv_store_sync_fd(struct pv_store *st, int fd, const char *rel);
/* write(2) all of buf, again after EINTR; -1 with errno set */
int pv_store_write_all(int fd, const void *buf, size_t len);

#endif
