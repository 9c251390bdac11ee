/*
 * store_cat: the store's objects read back (see store.h): their bytes as
 * stored, checked against their names, or their records through the
 * record reader with roles, versions and runs set for a pair.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "record.h"
#include "store.h"
#include "store_private.h"
#include "xalloc.h"

int
pv_store_cat(struct pv_store *st, const char *hash, FILE *out,
	     uint64_t *size)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	struct pv_sha256 sha;
	unsigned char digest[PV_SHA256_LEN];
	char hex[PV_SHA256_HEXLEN + 1];
	char *buf = pv_xmalloc(PV_STORE_BUFSIZE);
	uint64_t total = 0;
	gzFile gz;
	int fd, n, rc = -1, zerr;

	pv_store_obj_path(st, hash, &p);
	fd = open(p.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT) {
			pv_err_set(&st->err, "object %s is missing", hash);
			rc = 2;
		} else {
			pv_err_set_errno(&st->err, errno, "cannot open '%s'",
					 p.buf);
		}
		goto out;
	}
	gz = gzdopen(fd, "rb");
	if (gz == NULL) {
		close(fd);
		pv_err_set(&st->err, "cannot read '%s': out of memory", p.buf);
		goto out;
	}
	pv_sha256_init(&sha);
	while ((n = gzread(gz, buf, PV_STORE_BUFSIZE)) > 0) {
		pv_sha256_update(&sha, buf, (size_t)n);
		total += (uint64_t)n;
		if (out != NULL)
			fwrite(buf, 1, (size_t)n, out);
	}
	if (n < 0) {
		const char *msg = gzerror(gz, &zerr);

		if (zerr == Z_ERRNO) {
			pv_err_set_errno(&st->err, errno, "cannot read '%s'",
					 p.buf);
		} else {
			/* zlib names the file "<fd:N>": leave that out */
			if (strncmp(msg, "<fd:", 4) == 0 &&
			    strstr(msg, ": ") != NULL)
				msg = strstr(msg, ": ") + 2;
			pv_err_set(&st->err, "object %s is corrupt (%s)", hash,
				   msg);
			rc = 1;
		}
		gzclose_r(gz);
		goto out;
	}
	if ((gzerror(gz, &zerr), zerr == Z_BUF_ERROR)) {
		pv_err_set(&st->err, "object %s is corrupt (truncated)", hash);
		gzclose_r(gz);
		rc = 1;
		goto out;
	}
	gzclose_r(gz);
	pv_sha256_final(&sha, digest);
	pv_sha256_hex(digest, hex);
	if (strcmp(hex, hash) != 0) {
		pv_err_set(&st->err, "object %s is corrupt (its bytes hash to "
			   "%.12s)", hash, hex);
		rc = 1;
		goto out;
	}
	if (size != NULL)
		*size = total;
	rc = 0;
out:
	free(buf);
	pv_strbuf_release(&p);
	return rc;
}

static int
want_section(const char *experiment, const struct pv_str *x)
{
	return experiment == NULL || pv_str_eq(*x, experiment);
}

/* A sample record with RUN moved on by base (the top of the runs before). */
static int
write_sample_after(struct pv_store *st, FILE *out, const struct pv_record *rec,
		   uint64_t *base, uint64_t *top)
{
	struct pv_str f[11];
	char num[24];

	if (rec->run > UINT64_MAX - 1 - *base)
		return pv_err_set(&st->err, "run %llu cannot follow %llu "
				  "earlier runs", (unsigned long long)rec->run,
				  (unsigned long long)*base);
	if (rec->run > *top)
		*top = rec->run;
	memcpy(f, rec->field, sizeof(f));
	f[8].s = num;
	f[8].len = (size_t)snprintf(num, sizeof(num), "%llu",
				    (unsigned long long)rec->run +
				    (unsigned long long)*base);
	pv_write_fields(out, f, 11);
	return 0;
}

int
pv_store_cat_records(struct pv_store *st, const char *hash, FILE *out,
		     const char *role, const char *version,
		     const char *experiment, uint64_t *run_base)
{
	struct pv_strbuf p = PV_STRBUF_INIT;
	struct pv_reader *r;
	struct pv_record rec;
	struct pv_str none = { "", 0 }, f[4];
	int rc, in_section = 0, keep = 0;
	uint64_t top = 0;

	pv_store_obj_path(st, hash, &p);
	r = pv_reader_open(p.buf);
	if (r == NULL) {
		rc = pv_err_set_errno(&st->err, errno, "cannot open '%s'",
				      p.buf);
		pv_strbuf_release(&p);
		return rc;
	}
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_VERSION)
			continue;	/* the caller writes one at the top */
		if (rec.type == PV_REC_SECTION) {
			in_section = 1;
			keep = want_section(experiment, &rec.experiment);
			if (!keep)
				continue;
			if (role == NULL) {
				pv_write_raw(out, &rec);
				continue;
			}
			memcpy(f, rec.field, sizeof(f));
			f[1].s = role;
			f[1].len = strlen(role);
			if (version != NULL) {
				f[2].s = version;
				f[2].len = strlen(version);
			}
			pv_write_fields(out, f, 4);
			continue;
		}
		if (!in_section) {
			/* the unnamed section before any section record */
			in_section = 1;
			keep = want_section(experiment, &none);
			if (keep && role != NULL)
				pv_write_section(out, role, version, NULL);
		}
		if (keep && run_base != NULL && rec.type == PV_REC_SAMPLE) {
			if (write_sample_after(st, out, &rec, run_base,
					       &top) < 0) {
				pv_reader_close(r);
				pv_strbuf_release(&p);
				return -1;
			}
		} else if (keep) {
			pv_write_raw(out, &rec);
		}
	}
	if (rc < 0)
		pv_err_set(&st->err, "%lu: %s", pv_reader_lineno(r),
			   pv_reader_error(r));
	pv_reader_close(r);
	pv_strbuf_release(&p);
	if (rc >= 0 && run_base != NULL)
		*run_base += top;
	return rc < 0 ? -1 : 0;
}
