/*
 * rec_section: the codecs of the records that frame a stream and its
 * sections, pv-format(5):
 *
 *   pv-format VERSION
 *   section ROLE VERSION EXPERIMENT
 *   meta KEY VALUE
 *   env KEY VALUE
 *
 * The reader (record.h) parses these itself, into a struct pv_record
 * (PV_REC_VERSION, PV_REC_SECTION, PV_REC_META, PV_REC_ENV); here they
 * are written.  Each writer appends one record, with its newline, to sb.
 * An empty ROLE, VERSION or EXPERIMENT is written '-', the absent value;
 * KEY and VALUE are written as they are, escaped.
 */
#ifndef PV_REC_SECTION_H
#define PV_REC_SECTION_H

#include "record.h"
#include "strbuf.h"

/* "pv-format 1", the stream's first line */
void pv_rec_pv_format_write(struct pv_strbuf *sb);
void pv_rec_section_write(struct pv_strbuf *sb, struct pv_str role,
			  struct pv_str version, struct pv_str experiment);
void pv_rec_meta_write(struct pv_strbuf *sb, struct pv_str key,
		       struct pv_str value);
void pv_rec_env_write(struct pv_strbuf *sb, struct pv_str key,
		      struct pv_str value);

#endif
