/*
 * store_private: what the files of lib/store share and its users do not
 * need (store.h is the interface): paths in the store, durable writes.
 */
#ifndef PV_STORE_PRIVATE_H
#define PV_STORE_PRIVATE_H

#include <stddef.h>

#include "store.h"
#include "strbuf.h"

/* the size of a read or write of objects and the index */
#define PV_STORE_BUFSIZE 65536

/* sb = "DIR/rel" (replacing what sb held) */
void pv_store_path(const struct pv_store *st, struct pv_strbuf *sb,
		   const char *rel);
/* fsync directory dir, so that a new name in it survives a crash */
int pv_store_sync_dir(struct pv_store *st, const char *dir);
/* write(2) all of buf, again after EINTR; -1 with errno set */
int pv_store_write_all(int fd, const void *buf, size_t len);

#endif
