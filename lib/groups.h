/*
 * groups: the frames of a comparison (stackdiff.h) put into groups, for
 * pv-diff(1)'s roll-ups: where did the time go, by address space, module,
 * source file and subsystem.
 *
 * What a frame is comes from the frame records of the inputs
 * (pv_stackdiff_add_frame()), the target's where both describe it (the
 * version under study), else the baseline's; frames that no record
 * describes (the root frames that name processes, folded input) are in no
 * group.  A described frame is in one group of each kind
 * (PV_GROUP_*, rec_profile.h):
 *   - space: "kernel" or "user", as the record says;
 *   - module: the file name of its module, without the directories, so
 *     that one library at two paths is one module; a kernel module
 *     "NAME.ko" (or .ko.gz, .ko.xz, .ko.zst) is "[NAME]", as perf names
 *     it when it has not the file; a JIT's map ("/tmp/perf-PID.map",
 *     "jitted-PID-N.so") is "[jit]", the same in every run;
 *   - file: the source file, as the record says;
 *   - subsystem: the subsystem of the file, from opt.subsys (subsys.h),
 *     else as the record says;
 * and "unknown" where it is not known.  A kind that no frame is known for
 * (no record has a source file, say) has no groups.
 *
 * pv_groups_prepare() gives every name its groups (d->gid, d->gdef)
 * before the walk of stackdiff.c counts them; the writers write the frame
 * records of the output (with the group names each frame was counted in)
 * and the group records.  Called by stackdiff.c only.
 */
#ifndef PV_GROUPS_H
#define PV_GROUPS_H

#include <stdio.h>

#include "stackdiff.h"
#include "strbuf.h"

void pv_groups_prepare(struct pv_stackdiff *d);
void pv_groups_write_frames(const struct pv_stackdiff *d,
			    struct pv_strbuf *sb, FILE *out);
void pv_groups_write(const struct pv_stackdiff *d, struct pv_strbuf *sb,
		     FILE *out);

#endif
