/*
 * store_cat: the store's objects read back (see store.h): checked against
 * their names, their bytes as stored, or their records through the record
 * reader with roles, versions and runs set for a pair.  Readers check every
 * object before they write any (pv_store_check()): verify, then copy.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "input.h"
#include "rec_runstart.h"
#include "record.h"
#include "store.h"
#include "store_private.h"
#include "xalloc.h"

/* Open object hash: the fd, or -1 with the result of a verify in *rc. */
static int
open_object(struct pv_store *st, const char *hash, int *rc)
{
	struct pv_strbuf rel = PV_STRBUF_INIT;
	int fd;

	pv_strbuf_addf(&rel, "objects/%.2s/%s", hash, hash + 2);
	fd = pv_store_openat(st, rel.buf, O_RDONLY, 0);
	pv_strbuf_release(&rel);
	if (fd >= 0)
		return fd;
	switch (st->err.errnum) {
	case ENOENT:
		pv_err_set(&st->err, "object %s is missing", hash);
		*rc = 2;
		break;
	case ELOOP:
	case EINVAL:
	case ENOTDIR:
		/* a link or another kind of file in an object's place */
		pv_err_prefix(&st->err, "object %s is corrupt", hash);
		*rc = 1;
		break;
	default:
		*rc = -1;
		break;
	}
	return -1;
}

/*
 * Decompress object hash, hashing its bytes and writing them to out (NULL:
 * nowhere); 0, 1, 2 or -1 as pv_store_verify().
 */
static int
read_object(struct pv_store *st, const char *hash, FILE *out, uint64_t *size)
{
	struct pv_sha256 sha;
	unsigned char digest[PV_SHA256_LEN];
	char hex[PV_SHA256_HEXLEN + 1];
	char *buf;
	uint64_t total = 0;
	gzFile gz;
	int fd, n, rc = -1, zerr;

	if ((fd = open_object(st, hash, &rc)) < 0)
		return rc;
	if ((gz = gzdopen(fd, "rb")) == NULL) {
		close(fd);
		return pv_err_set(&st->err, "cannot read object %s: out of "
				  "memory", hash);
	}
	buf = pv_xmalloc(PV_STORE_BUFSIZE);
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
			pv_err_set_errno(&st->err, errno, "cannot read object "
					 "%s", hash);
		} else {
			/* zlib names the file "<fd:N>": leave that out */
			if (strncmp(msg, "<fd:", 4) == 0 &&
			    strstr(msg, ": ") != NULL)
				msg = strstr(msg, ": ") + 2;
			pv_err_set(&st->err, "object %s is corrupt (%s)", hash,
				   msg);
			rc = 1;
		}
		goto out;
	}
	if ((gzerror(gz, &zerr), zerr == Z_BUF_ERROR)) {
		pv_err_set(&st->err, "object %s is corrupt (truncated)", hash);
		rc = 1;
		goto out;
	}
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
	gzclose_r(gz);
	free(buf);
	return rc;
}

int
pv_store_verify(struct pv_store *st, const char *hash, uint64_t *size)
{
	return read_object(st, hash, NULL, size);
}

int
pv_store_check(struct pv_store *st, const struct pv_store_entry *const *e,
	       size_t n, size_t *bad)
{
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		if ((rc = pv_store_verify(st, e[i]->hash, NULL)) != 0) {
			*bad = i;
			return rc;
		}
	}
	return 0;
}

int
pv_store_cat(struct pv_store *st, const char *hash, FILE *out)
{
	return read_object(st, hash, out, NULL);
}

static int
want_section(const char *experiment, const struct pv_str *x)
{
	return experiment == NULL || pv_str_eq(*x, experiment);
}

/*
 * Whether rec is one of pv-stat's records that carry their own ROLE
 * VERSION EXPERIMENT in fields 1 to 3, and the index of its RUN (0 none).
 */
static int
is_derived(const struct pv_record *rec, size_t *run)
{
	/*
	 * the least number of fields of a runval record (14, or 15 with
	 * QUANTUM), and where its RUN is
	 */
	static const struct {
		const char *type;
		size_t nfield, run;
	} derived[] = {
		{ "runval", 14, 11 },
		{ "stat", 0, 0 },
		{ "statroll", 0, 0 },
	};
	size_t i;

	if (rec->type != PV_REC_OTHER)
		return 0;
	for (i = 0; i < sizeof(derived) / sizeof(derived[0]); i++)
		if (pv_str_eq(rec->field[0], derived[i].type) &&
		    rec->nfield >= 4) {
			*run = derived[i].nfield != 0 &&
				rec->nfield >= derived[i].nfield ?
				derived[i].run : 0;
			return 1;
		}
	return 0;
}

/* Whether rec is a runstart record (a well-formed one), and its RUN. */
static int
is_runstart(const struct pv_record *rec, uint64_t *run)
{
	struct pv_runstart rs;
	struct pv_err e = PV_ERR_INIT;

	if (rec->type != PV_REC_OTHER || rec->nfield == 0 ||
	    !pv_str_eq(rec->field[0], "runstart") ||
	    pv_rec_runstart_parse(rec, &rs, &e) < 0)
		return 0;
	*run = rs.run;
	return 1;
}

/* The RUN in f moved on by *base; *top is the largest RUN seen. */
static int
move_run(struct pv_store *st, struct pv_str *f, uint64_t run, uint64_t *base,
	 uint64_t *top, char num[24])
{
	if (run > UINT64_MAX - 1 - *base)
		return pv_err_set(&st->err, "run %llu cannot follow %llu "
				  "earlier runs", (unsigned long long)run,
				  (unsigned long long)*base);
	if (run > *top)
		*top = run;
	f->s = num;
	f->len = (size_t)snprintf(num, 24, "%llu", (unsigned long long)run +
				  (unsigned long long)*base);
	return 0;
}

/* Copy a record of fields with ROLE, VERSION and RUN (at run) set. */
static int
write_changed(struct pv_store *st, FILE *out, const struct pv_record *rec,
	      size_t role_at, const char *role, const char *version,
	      size_t run_at, uint64_t run, uint64_t *base, uint64_t *top)
{
	struct pv_str small[24], *f = small;
	char num[24];
	int rc = 0;

	if (rec->nfield > sizeof(small) / sizeof(small[0]))
		f = pv_xreallocarray(NULL, rec->nfield, sizeof(*f));
	memcpy(f, rec->field, rec->nfield * sizeof(*f));
	if (role_at > 0 && role != NULL) {
		f[role_at].s = role;
		f[role_at].len = strlen(role);
		if (version != NULL) {
			f[role_at + 1].s = version;
			f[role_at + 1].len = strlen(version);
		}
	}
	if (run_at > 0 && base != NULL)
		rc = move_run(st, &f[run_at], run, base, top, num);
	if (rc == 0)
		pv_write_fields(out, f, rec->nfield);
	if (f != small)
		free(f);
	return rc;
}

int
pv_store_cat_records(struct pv_store *st, const char *hash, FILE *out,
		     const char *role, const char *version,
		     const char *experiment, uint64_t *run_base)
{
	struct pv_reader *r;
	struct pv_record rec;
	struct pv_str none = { "", 0 };
	int fd, rc, in_section = 0, keep = 0;
	uint64_t top = 0, run;
	size_t run_at;

	if ((fd = open_object(st, hash, &rc)) < 0)
		return -1;
	r = pv_reader_open_input(pv_input_open_fd(fd, hash));
	while ((rc = pv_reader_next(r, &rec)) > 0) {
		if (rec.type == PV_REC_VERSION) {
			/*
			 * The caller writes one at the top.  A stream that
			 * follows another in the object (cat(1) of two
			 * collections) numbers its runs on, as a stored
			 * stream after another does: its pv-format line,
			 * which told pv-stat so, is not written.
			 */
			if (run_base != NULL) {
				*run_base += top;
				top = 0;
			}
			continue;
		}
		if (rec.type == PV_REC_SECTION) {
			in_section = 1;
			keep = want_section(experiment, &rec.experiment);
			if (keep && role == NULL)
				pv_write_raw(out, &rec);
			else if (keep)
				(void)write_changed(st, out, &rec, 1, role,
						    version, 0, 0, NULL, NULL);
			continue;
		}
		/* pv-stat's records: their own identity, after the sections */
		if (is_derived(&rec, &run_at)) {
			struct pv_str x = rec.field[3];

			if (pv_str_eq(x, "-"))
				x = none;
			if (!want_section(experiment, &x))
				continue;
			run = 0;
			if (run_at > 0 && pv_parse_u64(rec.field[run_at].s,
						       rec.field[run_at].len,
						       &run) < 0)
				run_at = 0;
			if (role == NULL && (run_at == 0 || run_base == NULL))
				pv_write_raw(out, &rec);
			else if (write_changed(st, out, &rec, 1, role, version,
					       run_at, run, run_base,
					       &top) < 0)
				break;
			continue;
		}
		if (!in_section) {
			/* the unnamed section before any section record */
			in_section = 1;
			keep = want_section(experiment, &none);
			if (keep && role != NULL)
				pv_write_section(out, role, version, NULL);
		}
		if (!keep)
			continue;
		if (run_base != NULL && rec.type == PV_REC_SAMPLE) {
			if (write_changed(st, out, &rec, 0, NULL, NULL, 8,
					  rec.run, run_base, &top) < 0)
				break;
		} else if (run_base != NULL && is_runstart(&rec, &run)) {
			/* a run's start goes with its samples */
			if (write_changed(st, out, &rec, 0, NULL, NULL, 1,
					  run, run_base, &top) < 0)
				break;
		} else {
			pv_write_raw(out, &rec);
		}
	}
	if (rc < 0)
		pv_err_set(&st->err, "%lu: %s", pv_reader_lineno(r),
			   pv_reader_error(r));
	pv_reader_close(r);
	if (rc > 0)
		return -1;	/* a run that cannot be moved on: st->err */
	if (rc == 0 && run_base != NULL)
		*run_base += top;
	return rc < 0 ? -1 : 0;
}
