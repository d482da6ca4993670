/* Placeholder: the libtracecmd reader replaces this file. */
#include "core/reader.h"
#include <errno.h>
int fts_read_dat(const char *path, const struct fts_read_opts *opts,
		 struct fts_read_stats *st, struct fts_err *err)
{
	(void)opts; (void)st;
	return fts_err_set(err, -ENOSYS, "%s: trace.dat reading is not built yet", path);
}
