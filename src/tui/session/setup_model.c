// SPDX-License-Identifier: MIT
/*
 * setup_model.c - the setup screen's choices and the numbers shown beside
 * them. Pure functions over plain arrays so tests can feed their own
 * /proc/stat and /proc/meminfo (read by fts_record_mem_available).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "app/env.h"
#include "app/flight_segment.h"
#include "tui/session/setup_model.h"

int fts_cpustat_read(const char *path, struct fts_cpustat *st)
{
	char line[512];
	FILE *f;

	memset(st, 0, sizeof(*st));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[10] = { 0 };
		int cpu, n;

		if (strncmp(line, "cpu", 3) || !isdigit((unsigned char)line[3]))
			continue;
		n = sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n < 5 || cpu < 0 || cpu > 65535)
			continue;
		if (cpu >= st->n) {
			int nn = cpu + 1;
			uint64_t *b = realloc(st->busy, (size_t)nn * sizeof(*b)), *t;

			if (!b)
				goto nomem;
			st->busy = b;
			t = realloc(st->total, (size_t)nn * sizeof(*t));
			if (!t)
				goto nomem;
			st->total = t;
			for (int i = st->n; i < nn; i++)
				st->busy[i] = st->total[i] = 0;
			st->n = nn;
		}
		/* user nice system idle iowait irq softirq steal: idle and iowait are not busy */
		st->total[cpu] = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		st->busy[cpu] = st->total[cpu] - v[3] - v[4];
	}
	fclose(f);
	return 0;
nomem:
	fclose(f);
	fts_cpustat_free(st);
	return -ENOMEM;
}

void fts_cpustat_free(struct fts_cpustat *st)
{
	free(st->busy);
	free(st->total);
	memset(st, 0, sizeof(*st));
}

double fts_cpustat_util(const struct fts_cpustat *a, const struct fts_cpustat *b, int cpu)
{
	uint64_t dt, db;

	if (cpu < 0 || cpu >= a->n || cpu >= b->n || !b->total[cpu] || b->total[cpu] <= a->total[cpu])
		return -1;
	dt = b->total[cpu] - a->total[cpu];
	db = b->busy[cpu] >= a->busy[cpu] ? b->busy[cpu] - a->busy[cpu] : 0;
	return db > dt ? 1.0 : (double)db / (double)dt;
}

void fts_setup_free(struct fts_setup *s)
{
	free(s->cpu);
	free(s->node);
	free(s->sel);
	free(s->util);
	s->cpu = s->node = NULL;
	s->sel = NULL;
	s->util = NULL;
	s->ncpus = 0;
}

/*
 * `record --tui --flight ...`: the flight recorder's mode, segment, keep and
 * triggers from the preset. Its flight_triggers is the setup's text (';'
 * between, "lost" among them). The segment is said as a size or seconds.
 */
static void preset_flight(struct fts_setup *s, const struct fts_record_opts *o, struct fts_err *err)
{
	uint64_t b = o->flight_segment_bytes;

	if (o->flight_segment_s <= 0 && !b)
		return;
	s->flight = 1;
	if (b && b % (1ull << 30) == 0)
		snprintf(s->segment, sizeof(s->segment), "%lluG", (unsigned long long)(b >> 30));
	else if (b && b % (1ull << 20) == 0)
		snprintf(s->segment, sizeof(s->segment), "%lluM", (unsigned long long)(b >> 20));
	else if (b)
		snprintf(s->segment, sizeof(s->segment), "%lluK", (unsigned long long)(b >> 10));
	else
		snprintf(s->segment, sizeof(s->segment), "%gs", o->flight_segment_s);
	s->segment_s = b ? 0 : o->flight_segment_s;
	s->segment_bytes = b;
	if (o->flight_keep > 0)
		s->keep = o->flight_keep;
	/* checked as the command line took them: nothing to refuse here */
	if (o->flight_triggers)
		(void)fts_setup_set_triggers(s, o->flight_triggers, err);
}

int fts_setup_init(struct fts_setup *s, const struct fts_record_caps *caps,
		   const struct fts_record_opts *preset, struct fts_err *err)
{
	struct fts_record_opts def;
	int n = caps->ncpus > 0 ? caps->ncpus : 0;

	memset(s, 0, sizeof(*s));
	if (!preset) {
		fts_record_opts_init(&def);
		def.duration_s = 30;
		preset = &def;
	}
	s->cpu = calloc((size_t)n + 1, sizeof(*s->cpu));
	s->node = calloc((size_t)n + 1, sizeof(*s->node));
	s->sel = calloc((size_t)n + 1, 1);
	s->util = calloc((size_t)n + 1, sizeof(*s->util));
	if (!s->cpu || !s->node || !s->sel || !s->util) {
		fts_setup_free(s);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	s->ncpus = n;
	for (int i = 0; i < n; i++) {
		s->cpu[i] = caps->cpu[i].cpu;
		s->node[i] = caps->cpu[i].node;
		s->sel[i] = 1;
		s->util[i] = -1;
	}
	s->nnodes = caps->nnodes > 0 ? caps->nnodes : 1;
	s->sched = preset->sched;
	s->irq = preset->irq;
	s->futex = preset->futex;
	s->bf_kb = preset->bf_size_kb ? preset->bf_size_kb : 40960;
	s->duration_s = preset->duration_s > 0 ? (long)preset->duration_s : 0;
	snprintf(s->output, sizeof(s->output), "%s", preset->output ? preset->output : "trace.dat");
	s->nspid = preset->nspid;
	snprintf(s->pid_mapping, sizeof(s->pid_mapping), "%s", preset->pid_mapping ? preset->pid_mapping : "");
	s->live_top = 1;
	s->backend = preset->backend;
	snprintf(s->exclude, sizeof(s->exclude), "%s", preset->exclude ? preset->exclude : "");
	s->reader_nice = preset->reader_nice;
	snprintf(s->segment, sizeof(s->segment), "30s");
	s->segment_s = 30;
	s->keep = FTS_FLIGHT_KEEP_DEFAULT;
	preset_flight(s, preset, err);
	if (preset->cpus && *preset->cpus)
		return fts_setup_select_list(s, preset->cpus, err);
	return 0;
}

static int index_of(const struct fts_setup *s, long cpu)
{
	for (int i = 0; i < s->ncpus; i++) {
		if (s->cpu[i] == cpu)
			return i;
	}
	return -1;
}

int fts_setup_select_list(struct fts_setup *s, const char *list, struct fts_err *err)
{
	unsigned char *want = calloc((size_t)s->ncpus + 1, 1);
	const char *p = list;
	int any = 0;

	if (!want)
		return fts_err_set(err, -ENOMEM, "out of memory");
	while (*p) {
		char *end;
		long a, b;

		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				goto bad;
			b = strtol(p + 1, &end, 10);
			p = end;
		}
		if (b < a || b - a > 65536)
			goto bad;
		for (long c = a; c <= b; c++) {
			int i = index_of(s, c);

			if (i < 0) {
				free(want);
				return fts_err_set(err, -EINVAL, "CPU %ld is not online (online: %d-%d)", c,
						   s->ncpus ? s->cpu[0] : 0, s->ncpus ? s->cpu[s->ncpus - 1] : 0);
			}
			want[i] = 1;
			any = 1;
		}
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	if (!any)
		goto bad;
	memcpy(s->sel, want, (size_t)s->ncpus);
	free(want);
	return 0;
bad:
	free(want);
	return fts_err_set(err, -EINVAL, "not a CPU list: '%s' (write it as 0-3,8)", list);
}

int fts_setup_select_node(struct fts_setup *s, int node)
{
	int n = 0;

	for (int i = 0; i < s->ncpus; i++)
		n += s->node[i] == node;
	if (!n)
		return 0;
	for (int i = 0; i < s->ncpus; i++)
		s->sel[i] = s->node[i] == node;
	return n;
}

int fts_setup_selected(const struct fts_setup *s)
{
	int n = 0;

	for (int i = 0; i < s->ncpus; i++)
		n += s->sel[i] != 0;
	return n;
}

const char *fts_setup_cpulist(const struct fts_setup *s, char *buf, size_t len, int all_empty)
{
	size_t off = 0;
	int i = 0;

	buf[0] = 0;
	if (all_empty && fts_setup_selected(s) == s->ncpus)
		return buf;
	while (i < s->ncpus) {
		int j;

		if (!s->sel[i]) {
			i++;
			continue;
		}
		/* a run of selected CPUs with consecutive numbers */
		for (j = i; j + 1 < s->ncpus && s->sel[j + 1] && s->cpu[j + 1] == s->cpu[j] + 1; j++)
			;
		if (off < len) {
			int w = j > i ? snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", s->cpu[i], s->cpu[j])
				      : snprintf(buf + off, len - off, "%s%d", off ? "," : "", s->cpu[i]);
			off += w > 0 ? (size_t)w : 0;
		}
		i = j + 1;
	}
	if (off >= len && len)
		buf[len - 1] = 0;
	return buf;
}

uint64_t fts_setup_mem_bytes(const struct fts_setup *s)
{
	return (uint64_t)fts_setup_selected(s) * (uint64_t)s->bf_kb * 1024u;
}

void fts_setup_opts(const struct fts_setup *s, struct fts_record_opts *o, char *cpubuf, size_t len)
{
	fts_record_opts_init(o);
	fts_front_env_record(o);
	o->cpus = fts_setup_cpulist(s, cpubuf, len, 1);
	o->output = s->output;
	o->bf_size_kb = s->bf_kb;
	o->backend = s->backend;
	o->sched = s->sched;
	o->irq = s->irq;
	o->futex = s->futex;
	o->nspid = s->nspid;
	o->pid_mapping = s->nspid && s->pid_mapping[0] ? s->pid_mapping : NULL;
	o->live_top = s->live_top && s->sched;
	o->duration_s = (double)s->duration_s;
	o->exclude = s->exclude[0] ? s->exclude : NULL;
	o->reader_nice = s->reader_nice;
	if (s->flight) { /* as record --flight: segments until stopped */
		o->flight_segment_s = s->segment_s;
		o->flight_segment_bytes = s->segment_bytes;
		o->flight_keep = s->keep;
		o->duration_s = 0;
		o->flight_triggers = s->triggers[0] ? s->triggers : NULL;
		o->flight_post_trigger_s = 2;   /* record --post_trigger's default */
	}
}

int fts_setup_set_triggers(struct fts_setup *s, const char *text, struct fts_err *err)
{
	char out[sizeof(s->triggers)] = "", why[256];
	size_t off = 0;
	const char *p = text;

	while (*p) {
		const char *semi = strchr(p, ';'), *e = semi ? semi : p + strlen(p);
		char one[256];

		while (p < e && isspace((unsigned char)*p))
			p++;
		while (e > p && isspace((unsigned char)e[-1]))
			e--;
		if (e > p) {
			if ((size_t)(e - p) >= sizeof(one) || off + (size_t)(e - p) + 2 > sizeof(out))
				return fts_err_set(err, -EINVAL, "the triggers are too long (%zu bytes at most)",
						   sizeof(out) - 1);
			memcpy(one, p, (size_t)(e - p));
			one[e - p] = 0;
			/* "lost" too: every trigger is the library's, as record --trigger hands it over */
			if (fts_record_trigger_check(one, why, sizeof(why)))
				return fts_err_set(err, -EINVAL, "%s", why);
			off += (size_t)snprintf(out + off, sizeof(out) - off, "%s%s", off ? ";" : "", one);
		}
		p = semi ? semi + 1 : p + strlen(p);
	}
	memcpy(s->triggers, out, sizeof(out));
	return 0;
}

int fts_setup_set_snap_last(struct fts_setup *s, const char *text, struct fts_err *err)
{
	char *end;
	double v;

	while (isspace((unsigned char)*text))
		text++;
	if (!strcmp(text, "all")) {
		s->snap_last_s = 0;
		return 0;
	}
	v = strtod(text, &end);
	while (end != text && isspace((unsigned char)*end))
		end++;
	if (end == text || *end || !(v >= 0 && v <= 86400))
		return fts_err_set(err, -EINVAL, "a snapshot keeps the last N seconds (0..86400; 0 or all: every "
				   "segment kept), not '%s'", text);
	s->snap_last_s = v;
	return 0;
}

int fts_setup_set_flight(struct fts_setup *s, const char *text, struct fts_err *err)
{
	char seg[sizeof(s->segment)], rest[32], extra[2];
	double sec;
	uint64_t bytes;
	long keep = s->keep;
	int n = sscanf(text, " %31s %31s %1s", seg, rest, extra);

	if (n < 1 || n > 2)
		return fts_err_set(err, -EINVAL, "type the segment and the segments kept, e.g. 30s 4 or 64M 8");
	if (fts_flight_parse_segment(seg, &sec, &bytes))
		return fts_err_set(err, -EINVAL, "a segment is a length (30s, 2m, 1h) or a size (64M, 1G), not '%s'",
				   seg);
	/* the recorder's floors (recorder.c), said here rather than after r */
	if ((sec > 0 && sec < 0.5) || (bytes && bytes < (1u << 20)))
		return fts_err_set(err, -EINVAL, "a segment lasts at least 0.5 s or holds at least 1M, not '%s'", seg);
	if (n == 2) {
		char *end;

		errno = 0;
		keep = strtol(rest, &end, 10);
		if (errno || end == rest || *end || keep < 1 || keep > FTS_FLIGHT_KEEP_MAX)
			return fts_err_set(err, -EINVAL, "the segments kept are a number, 1..%d, not '%s'",
					   FTS_FLIGHT_KEEP_MAX, rest);
	}
	snprintf(s->segment, sizeof(s->segment), "%s", seg);
	s->segment_s = sec;
	s->segment_bytes = bytes;
	s->keep = (int)keep;
	return 0;
}

const char *fts_shell_quote(const char *s, char *buf, size_t len)
{
	size_t off = 0;
	int plain = *s != 0;

	for (const char *p = s; *p; p++) {
		if (!isalnum((unsigned char)*p) && !strchr("/._-+,:=@%", *p))
			plain = 0;
	}
	if (plain) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	/* single quotes; a ' inside becomes '\'' */
	if (off + 1 < len)
		buf[off++] = '\'';
	for (const char *p = s; *p && off + 5 < len; p++) {
		if (*p == '\'') {
			memcpy(buf + off, "'\\''", 4);
			off += 4;
		} else {
			buf[off++] = *p;
		}
	}
	if (off + 1 < len)
		buf[off++] = '\'';
	buf[off < len ? off : len - 1] = 0;
	return buf;
}

/*
 * Events left out: the record flag --events, "sched,irq,-sched:sched_stat_runtime"
 * (the groups, then each left-out event as -system:event). Returns the new @off.
 */
static size_t events_flag(const struct fts_setup *s, char *buf, size_t len, size_t off)
{
	const char *sep = " --events ";

	if (s->sched && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%ssched", sep), sep = ",";
	if (s->irq && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%sirq", sep), sep = ",";
	if (s->futex && off < len)
		off += (size_t)snprintf(buf + off, len - off, "%sfutex", sep), sep = ",";
	for (const char *p = s->exclude; *p && off < len;) {
		size_t n = strcspn(p, ","), sl = strcspn(p, "/");

		if (sl < n) /* group/event -> -group:event */
			off += (size_t)snprintf(buf + off, len - off, "%s-%.*s:%.*s", sep, (int)sl, p, (int)(n - sl - 1),
						p + sl + 1);
		else
			off += (size_t)snprintf(buf + off, len - off, "%s-%.*s", sep, (int)n, p);
		sep = ",";
		p += n + (p[n] == ',');
	}
	return off;
}

const char *fts_setup_cmdline(const struct fts_setup *s, char *buf, size_t len)
{
	static const char *const backend[] = { "auto", "tracefs", "trace-cmd" };
	char cpus[1024], out[8200];
	size_t off;

	fts_setup_cpulist(s, cpus, sizeof(cpus), 1);
	off = (size_t)snprintf(buf, len, "ftscope record");
	if (cpus[0] && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --cpu %s", cpus);
	if (s->exclude[0] && off < len)
		off = events_flag(s, buf, len, off);
	else if (off < len)
		off += (size_t)snprintf(buf + off, len - off, " --sched %d --irq %d", s->sched, s->irq);
	if (s->futex && !s->exclude[0] && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --futex 1");
	if (s->flight && off < len) {
		const char *p = s->triggers;

		off += (size_t)snprintf(buf + off, len - off, " --flight --segment %s --keep %d", s->segment, s->keep);
		while (*p && off < len) {
			const char *semi = strchr(p, ';');
			size_t n = semi ? (size_t)(semi - p) : strlen(p);
			char one[256];

			snprintf(one, sizeof(one), "%.*s", (int)n, p);
			off += (size_t)snprintf(buf + off, len - off, " --trigger %s", fts_shell_quote(one, out, sizeof(out)));
			p += n + (semi ? 1 : 0);
		}
	} else if (off < len)
		off += (size_t)snprintf(buf + off, len - off, " --record_time %ld", s->duration_s);
	if (s->bf_kb != 40960 && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --bf_size %u", s->bf_kb);
	if (s->backend != FTS_BACKEND_AUTO && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --backend %s", backend[s->backend]);
	if (s->nspid && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --NSpid");
	if (s->nspid && s->pid_mapping[0] && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --pid_mapping %s",
					fts_shell_quote(s->pid_mapping, out, sizeof(out)));
	if (s->live_top && s->sched && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --live_top");
	if (s->reader_nice && off < len)
		off += (size_t)snprintf(buf + off, len - off, " --reader_nice %d", s->reader_nice);
	if (strcmp(s->output, "trace.dat") && off < len)
		snprintf(buf + off, len - off, " -o %s", fts_shell_quote(s->output, out, sizeof(out)));
	return buf;
}

double fts_buffer_lasts_s(unsigned bf_kb, double bytes_per_s)
{
	if (bytes_per_s <= 0)
		return -1;
	return (double)bf_kb * 1024.0 / bytes_per_s;
}

/* The recorder's rule (fts_record_buffer_kb), so the TUI and `ftscope record` advise alike. */
unsigned fts_buffer_advice_kb(double bytes_per_s)
{
	unsigned kb = fts_record_buffer_kb(bytes_per_s, 1024);

	return kb < FTS_BUFFER_MAX_KB ? kb : FTS_BUFFER_MAX_KB;
}

/* Where @name sits in the comma list @list, or NULL. */
static const char *list_find(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return p;
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

int fts_setup_event_excluded(const struct fts_setup *s, const char *name)
{
	return list_find(s->exclude, name) != NULL;
}

int fts_setup_toggle_event(struct fts_setup *s, const char *name)
{
	const char *at = list_find(s->exclude, name);
	size_t n = strlen(name), len = strlen(s->exclude);

	if (at) { /* take it and one comma out */
		char *p = s->exclude + (at - s->exclude);
		size_t cut = n + (p[n] == ',');

		memmove(p, p + cut, strlen(p + cut) + 1);
		len = strlen(s->exclude);
		if (len && s->exclude[len - 1] == ',')
			s->exclude[len - 1] = 0;
		return 0;
	}
	if (len + n + 2 > sizeof(s->exclude))
		return -ENOSPC;
	snprintf(s->exclude + len, sizeof(s->exclude) - len, "%s%s", len ? "," : "", name);
	return 0;
}

int fts_setup_check_output(const char *path, const char *example, char *why, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat sb;
	struct statvfs vfs;

	why[0] = 0;
	if (!path[0]) {
		snprintf(why, len, "the output needs a file name");
		return -1;
	}
	if (slash && !slash[1]) {
		snprintf(why, len, "%s is a directory: add a file name, e.g. %s%s", path, path, example);
		return -1;
	}
	if (lstat(path, &sb) == 0) {
		if (S_ISLNK(sb.st_mode))
			snprintf(why, len, "%s is a symbolic link; ftscope never writes through one: choose another name", path);
		else if (S_ISDIR(sb.st_mode))
			snprintf(why, len, "%s is a directory: add a file name, e.g. %s/%s", path, path, example);
		else if (!S_ISREG(sb.st_mode))
			snprintf(why, len, "%s is not a regular file (a device or a pipe): choose another name", path);
		if (why[0])
			return -1;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &sb)) {
		snprintf(why, len, "the directory %s does not exist", dir);
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		snprintf(why, len, "%s is not a directory", dir);
		return -1;
	}
	if ((statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_RDONLY)) || (access(dir, W_OK) && errno == EROFS)) {
		snprintf(why, len, "%s is on a read-only file system: choose a directory you can write", dir);
		return -1;
	}
	if (access(dir, W_OK)) {
		snprintf(why, len, "the directory %s cannot be written (%s)", dir, strerror(errno));
		return -1;
	}
	return 0;
}
