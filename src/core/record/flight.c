// SPDX-License-Identifier: MIT
/*
 * flight.c - the flight recorder: a thread that, every segment (time or
 * bytes), hands the readers fresh stream files (rec_stream_rotate: between
 * whole pages, so no event is lost or doubled at a boundary), assembles the
 * closed streams into `<stem>.NNNNNN.dat` while the next segment streams,
 * and deletes the oldest segment beyond `keep`. Snapshots hard-link (or
 * copy) the kept segments into a directory with a manifest.
 *
 * Scheduling triggers (trigger.c) are tested by the live top's decoder,
 * the lost-events trigger on the health sampler's lost total; this thread
 * takes their hits, waits post_s, rotates and snapshots, then stays quiet
 * for a whole ring (at least 10 s) so two automatic snapshots never share a
 * segment; hits meanwhile are only counted. A trigger snapshot whose event
 * is older than its oldest segment (the decoder came too late) says so;
 * trigger snapshots are capped on disk (snapcap.c).
 *
 * The segment ring is the one shared state; `lock` guards it, never held
 * while a segment is assembled or a file copied.
 *
 * Every file and directory is made, linked and removed relative to the
 * output directory held open from the start (`dfd`) and a snapshot's own
 * descriptor, never through a path: the directory's owner (the user root
 * records for under sudo) may rename it or swap it for a symlink at any
 * moment, and root must then neither write nor chown through the swap.
 * Paths are kept only to name things to the user.
 */
#include "core/record/record_local.h"
#include "core/util/tempfile.h"
#include "core/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS 100000000L   /* how often the thread looks at the clock, the bytes and the disk */
#define ROOM_BYTES (16ull << 20)   /* free space kept beyond two seconds of pages */
#define ROOM_NOTE_NS 5000000000ull /* "nothing left to remove" said at most this often */

struct seg {
	char name[NAME_MAX + 1];     /* in the output directory (dfd) */
	dev_t dev;                   /* the file as assembled: a snapshot links only it */
	ino_t ino;
	unsigned seq;
	uint64_t size;
	int64_t rt_from, rt_to;      /* CLOCK_REALTIME ns: streamed from the rotation before .. this one */
	int64_t raw_from, raw_to;    /* the same instants in CLOCK_MONOTONIC_RAW (the trace clock) */
	uint64_t lost;               /* the kernel's lost events (all CPUs) while it streamed */
};

struct rec_flight {
	struct rec_flight_cfg cfg;
	char stem[PATH_MAX];         /* output without ".dat" */
	char base[NAME_MAX + 1];     /* the stem's last part: segments are <base>.NNNNNN.dat */
	char dir[PATH_MAX];          /* the output's directory as given (names only) */
	atomic_int dfd;              /* that directory, held open: everything goes through it */
	int gone_dfd;                /* the one before, when it was removed (follow_place) */
	int n;                       /* recorded CPUs */
	int *cpu;
	uint64_t *bytes_at;          /* each reader's bytes at the last rotation */
	struct rec_cpu_stats *prev;  /* each CPU's kernel counters at the last rotation */
	uint64_t run;                /* this run's id, in every segment (segstats.c) and manifest */
	pthread_t thread;
	int started;
	atomic_int stop;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* under lock: */
	struct seg *ring;            /* the kept segments, oldest first */
	int nring;
	unsigned next_seq;           /* the number the streaming segment will get */
	int64_t rt_from, raw_from;   /* when the streaming segment began */
	struct rec_clock clk_from;   /* the clock sample then (the flight thread's, and the stop's) */
	unsigned rotations;          /* segments closed so far */
	unsigned begun;              /* rotations begun so far (one more than closed while one runs) */
	int want_rotate;             /* a snapshot asks for the streaming segment */
	int failed;
	char failure[256];
	int trig_snaps;              /* snapshots the triggers took */
	uint64_t trig_hits;          /* their hits, rate-limited ones too */
	char trig_note[1024];        /* the last trigger snapshot, or why it failed */
	char disk_note[512];         /* the last room made on a short disk, or why none could be */
	unsigned room_segs;          /* ring segments removed early: the disk was short */
	unsigned room_snaps;         /* trigger snapshots removed for the same */
	unsigned lost_segs;          /* segments a full disk kept from being written */
	int lost_rule;               /* the index of "lost" in the rules, or -1 */
	struct rec_snapcap cap;      /* the trigger snapshots kept (the flight thread's) */
	uint64_t t0_ns;              /* the start (mono): the stream's mean rate */
	uint64_t room_said_ns;       /* the last "nothing left" note (the flight thread's) */
};

/* What a trigger adds to its snapshot; the manual ones have none. */
struct snap_trig {
	const char *json;            /* the manifest's "trigger" object */
	uint64_t event_raw;          /* the trigger's event (trace ns, mono_raw) */
	int held;                    /* out: the snapshot's segments hold the event */
	double early_s;              /* out: when not, how much older than their oldest data it is */
};

static int64_t now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void set_failure(struct rec_flight *f, const char *msg)
{
	pthread_mutex_lock(&f->lock);
	if (!f->failed) {
		f->failed = 1;
		snprintf(f->failure, sizeof(f->failure), "%s", msg);
	}
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* Delete the ring's oldest segment and forget it (under lock, a segment kept). */
static void drop_oldest(struct rec_flight *f)
{
	(void)unlinkat(f->dfd, f->ring[0].name, 0);
	memmove(f->ring, f->ring + 1, (size_t)(f->nring - 1) * sizeof(*f->ring));
	f->nring--;
}

/* Drop the oldest segments beyond keep (under lock). */
static void prune(struct rec_flight *f)
{
	while (f->nring > f->cfg.keep)
		drop_oldest(f);
}

/*
 * Segment @seq's CPUSTAT texts in @stats (its own loss, the run's totals,
 * its run, number and clock pair: segstats.c), ending at @to; its lost
 * events. The next segment starts counting and timing here.
 */
static uint64_t take_stats(struct rec_flight *f, char **stats, unsigned seq, const struct rec_clock *to)
{
	char meta[600];
	uint64_t lost = 0;

	rec_segstats_meta(meta, sizeof(meta), f->run, seq, &f->clk_from, to);
	for (int i = 0; i < f->n; i++) {
		struct rec_cpu_stats s = { 0 };
		char *kernel = NULL;
		uint64_t l = 0;

		stats[i] = NULL;
		if (rec_instance_stats(f->cfg.in, f->cpu[i], &s, &kernel))
			s = f->prev[i];   /* unknown: counted as nothing lost */
		stats[i] = rec_segstats_text(kernel, &s, &f->prev[i], i ? NULL : meta, &l);
		free(kernel);
		lost += l;
		f->prev[i] = s;
	}
	f->clk_from = *to;
	return lost;
}

uint64_t rec_flight_last_stats(struct rec_flight *f, const struct rec_clock *stop, char **stats)
{
	uint64_t lost;
	unsigned seq;

	pthread_mutex_lock(&f->lock);
	seq = f->next_seq;
	pthread_mutex_unlock(&f->lock);
	for (int i = 0; i < f->n; i++)
		free(stats[i]);
	lost = take_stats(f, stats, seq, stop);
	return lost;
}

static int assemble_segment(struct rec_flight *f, const char *name, const int *fds, char **stats,
			    struct fts_err *err)
{
	char path[PATH_MAX + NAME_MAX + 2];
	struct rec_assembly a = {
		.output = path, .name = name, .dirfd = f->dfd, .owner = f->cfg.owner, .text = 0,
		.tracing_dir = f->cfg.tracing_dir,
		.events = f->cfg.events, .clock_text = rec_instance_clock(f->cfg.in), .clock_line = "",
		.page_size = rec_instance_subbuf(f->cfg.in), .ncpu = f->n, .cpu = f->cpu, .fd = fds,
		.stats = stats,
	};
	int cut = 0;

	rec_flight_shown(f, name, path, sizeof(path));
	return rec_assemble(&a, NULL, NULL, &cut, err);
}

/* Register the closed segment @name (under lock) and prune. */
static void add_segment(struct rec_flight *f, const char *name, uint64_t lost, int64_t rt_to,
			int64_t raw_to)
{
	struct seg *s = &f->ring[f->nring++];
	struct stat st;

	snprintf(s->name, sizeof(s->name), "%s", name);
	s->seq = f->next_seq++;
	if (fstatat(f->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)) {
		s->size = (uint64_t)st.st_size;
		s->dev = st.st_dev;
		s->ino = st.st_ino;
	} else {
		s->size = 0;
		s->dev = 0;
		s->ino = 0;
	}
	s->rt_from = f->rt_from;
	s->raw_from = f->raw_from;
	s->rt_to = rt_to;
	s->raw_to = raw_to;
	s->lost = lost;
	f->rt_from = rt_to;
	f->raw_from = raw_to;
	f->rotations++;
	prune(f);
}

/* The directory as given while it still leads to the held one; else the held one's name now. */
static void shown_dir(const struct rec_flight *f, char *buf, size_t len)
{
	char link[64], now[PATH_MAX];
	const char *del = " (deleted)";
	struct stat a, b;
	ssize_t n;

	if (stat(f->dir, &a) == 0 && fstat(f->dfd, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		snprintf(buf, len, "%s", f->dir);
		return;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", f->dfd);
	n = readlink(link, now, sizeof(now) - 1);
	if (n > 0 && now[0] == '/') {
		now[n] = 0;
		if (!((size_t)n >= strlen(del) && !strcmp(now + n - strlen(del), del))) {
			snprintf(buf, len, "%s", now);
			return;
		}
	}
	snprintf(buf, len, "%s", f->dir);
}

void rec_flight_shown(const struct rec_flight *f, const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX];

	shown_dir(f, dir, sizeof(dir));
	snprintf(buf, len, "%s/%s", strcmp(dir, "/") ? dir : "", name);
}

int rec_flight_segment_name(const struct rec_flight *f, unsigned seq, char *buf, size_t len)
{
	if ((size_t)snprintf(buf, len, "%s.%06u.dat", f->base, seq) >= len || strlen(buf) > NAME_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* A new stream file per reader, beside the segments (@fds: -1 where none yet). Returns 0 or a negative errno. */
static int new_streams(struct rec_flight *f, int *fds, struct fts_err *err)
{
	int rc = 0;

	for (int i = 0; i < f->n; i++)
		fds[i] = -1;
	for (int i = 0; i < f->n && !rc; i++) {
		fds[i] = fts_rec_tempfile_at(f->dfd);
		if (fds[i] < 0)
			rc = fts_err_set(err, fds[i], "cannot create a stream file beside %.200s: %s", f->stem,
					 strerror(-fds[i]));
	}
	return rc;
}

/*
 * The output directory removed while recording (its link count 0): the
 * segments go on in the directory the place made for what it saves
 * (ftscope-saved-*, said on the status lines), so the streaming segment and
 * the next ones are kept. The kept ones went with the directory: the ring
 * starts again. Only the flight thread (and the stop, after it) calls this.
 */
static void follow_place(struct rec_flight *f)
{
	struct stat a, b;
	int nfd;

	if (!f->cfg.place || fstat(f->dfd, &a) || a.st_nlink)
		return;
	rec_place_poll(f->cfg.place, 1);
	nfd = rec_place_dirfd(f->cfg.place);
	if (nfd < 0 || fstat(nfd, &b) || (a.st_dev == b.st_dev && a.st_ino == b.st_ino) || !b.st_nlink)
		return;
	nfd = fcntl(nfd, F_DUPFD_CLOEXEC, 0);
	if (nfd < 0)
		return;
	pthread_mutex_lock(&f->lock);
	if (f->gone_dfd >= 0)
		close(f->gone_dfd);
	f->gone_dfd = f->dfd;   /* a snapshot may be using it: closed at the end */
	f->dfd = nfd;
	f->nring = 0;
	pthread_mutex_unlock(&f->lock);
}

/* ---- a full disk ----------------------------------------------------------- */

/*
 * Bytes free on the output's filesystem (to root's reserve: not ours), or
 * UINT64_MAX when unknown; its size in *@size when asked (UINT64_MAX: unknown).
 */
static uint64_t disk_free(const struct rec_flight *f, uint64_t *size)
{
	struct statvfs v;

	if (fstatvfs(f->dfd, &v)) {
		if (size)
			*size = UINT64_MAX;
		return UINT64_MAX;
	}
	if (size)
		*size = (uint64_t)v.f_blocks * v.f_frsize;
	return (uint64_t)v.f_bavail * v.f_frsize;
}

/*
 * The room wanted free: two seconds of pages at the run's mean rate, and
 * ROOM_BYTES; on a small filesystem a quarter of it at most, or the room
 * would leave no ring at all.
 */
static uint64_t room_wanted(const struct rec_flight *f)
{
	uint64_t all = 0, ns = fts__clock_mono_ns() - f->t0_ns, want, size;

	for (int i = 0; i < f->n; i++)
		all += rec_stream_bytes(f->cfg.st, i);
	want = ROOM_BYTES + (ns > 1000000000ull ? (uint64_t)(2e9 * (double)all / (double)ns) : all * 2);
	(void)disk_free(f, &size);
	return want < size / 4 ? want : size / 4;
}

static void set_disk_note(struct rec_flight *f, const char *note)
{
	pthread_mutex_lock(&f->lock);
	snprintf(f->disk_note, sizeof(f->disk_note), "%s", note);
	pthread_mutex_unlock(&f->lock);
}

/*
 * The segment @name the disk refused at its assembly (a full disk the room
 * kept could not prevent: another writer filled it): its pages are gone, the
 * next segment goes on from the rotation, and the note says so. A flight
 * recording is left on for hours; one lost segment must not end it.
 */
static void segment_refused(struct rec_flight *f, const char *name, int64_t rt, int64_t raw)
{
	char note[sizeof(f->disk_note)];

	pthread_mutex_lock(&f->lock);
	f->lost_segs++;
	snprintf(note, sizeof(note), "disk full: segment %.300s (%.1f s of events) could not be written, its "
		 "events are lost (%u segment%s so far)", name, (double)(rt - f->rt_from) / 1e9, f->lost_segs,
		 f->lost_segs == 1 ? "" : "s");
	f->rt_from = rt;
	f->raw_from = raw;
	pthread_mutex_unlock(&f->lock);
	set_disk_note(f, note);
}

/* The segment @name assembled (@rc 0) is kept; one a full disk refused is counted: 0. Else @rc. */
static int segment_closed(struct rec_flight *f, int rc, const char *name, uint64_t lost, int64_t rt, int64_t raw)
{
	if (rc == -ENOSPC || rc == -EDQUOT) {
		segment_refused(f, name, rt, raw);
		return 0;
	}
	if (!rc) {
		pthread_mutex_lock(&f->lock);
		add_segment(f, name, lost, rt, raw);
		pthread_cond_broadcast(&f->cond);
		pthread_mutex_unlock(&f->lock);
	}
	return rc;
}

/* Remove the oldest ring segment while more than @least are kept: its name in @gone, or 0. */
static int drop_oldest_segment(struct rec_flight *f, int least, char *gone, size_t len)
{
	int done = 0;

	pthread_mutex_lock(&f->lock);
	if (f->nring > least) {
		snprintf(gone, len, "%s", f->ring[0].name);
		drop_oldest(f);
		f->room_segs++;
		done = 1;
	}
	pthread_mutex_unlock(&f->lock);
	return done;
}

/*
 * Keep room_wanted() free on the output's disk, so the readers never meet a
 * full one: the ring's oldest segments go first (the newest closed one
 * stays), then the oldest trigger snapshots, then, under half the room, the
 * newest closed segment too (the streaming one, newer, is worth more and
 * needs the room to be assembled); the operator's own snapshots
 * and other files are never touched. What went, or that nothing is left to
 * remove (the readers then lose pages until there is room: stream.c), is the
 * flight note. The flight thread's, each tick and when a write was refused.
 */
static void keep_room(struct rec_flight *f, int refused)
{
	uint64_t want = room_wanted(f), now = fts__clock_mono_ns();
	char last[NAME_MAX + 1] = "", note[sizeof(f->disk_note)];
	int segs = 0, snaps = 0, quiet = now - f->room_said_ns < ROOM_NOTE_NS;

	while (disk_free(f, NULL) < want) {
		struct rec_snapcap_ent e;

		if (drop_oldest_segment(f, 1, last, sizeof(last))) {
			segs++;
		} else if (rec_snapcap_drop_oldest(&f->cap, f->dfd, &e) != -ENOENT) {
			snprintf(last, sizeof(last), "%s", e.name);
			snaps++;
		} else if (disk_free(f, NULL) < want / 2 && drop_oldest_segment(f, 0, last, sizeof(last))) {
			segs++;   /* the streaming segment, newer, could not be assembled beside it */
		} else {
			break;
		}
	}
	/* a trigger snapshot removed is always said; the ring shrinking, every ROOM_NOTE_NS at most */
	if (snaps || (segs && !quiet)) {
		pthread_mutex_lock(&f->lock);
		f->room_snaps += (unsigned)snaps;
		snprintf(note, sizeof(note), "disk low (%.0f MiB wanted free): %u segments and %u trigger snapshots "
			 "removed early so far (the last %.200s); the ring keeps %d of %d",
			 (double)want / 1048576.0, f->room_segs, f->room_snaps, last, f->nring, f->cfg.keep);
		pthread_mutex_unlock(&f->lock);
	} else if (!segs && !quiet && (refused || disk_free(f, NULL) < want / 2)) {
		snprintf(note, sizeof(note), "disk %s: %.0f MiB free of %.0f MiB wanted and nothing of the flight "
			 "recorder's left to remove; %llu page writes refused so far (those pages are lost); "
			 "free space in %.300s", refused ? "full" : "low", (double)disk_free(f, NULL) / 1048576.0,
			 (double)want / 1048576.0, (unsigned long long)rec_stream_refused(f->cfg.st), f->dir);
	} else {
		return;
	}
	f->room_said_ns = now;
	set_disk_note(f, note);
}

/* Close the streaming segment: new files for the readers, the old ones assembled. */
static int rotate(struct rec_flight *f)
{
	int *fds = calloc((size_t)f->n, sizeof(int)), *old = calloc((size_t)f->n, sizeof(int));
	char **stats = calloc((size_t)f->n, sizeof(char *));
	char name[NAME_MAX + 1];
	struct fts_err err = { 0 };
	struct rec_clock ck;
	int64_t rt, raw;
	uint64_t lost;
	unsigned seq;
	int rc = 0;

	if (!fds || !old || !stats) {
		rc = -ENOMEM;
		fts_err_set(&err, rc, "out of memory");
		goto out;
	}
	follow_place(f);
	rc = new_streams(f, fds, &err);
	if (rc)
		goto out;
	rec_clock_sample(&ck);
	rt = ck.rt;
	raw = ck.raw;
	/* From here on the streaming segment holds what a snapshot asked after this point. */
	pthread_mutex_lock(&f->lock);
	f->begun++;
	f->want_rotate = 0;
	pthread_mutex_unlock(&f->lock);
	rec_stream_rotate(f->cfg.st, fds, old);
	/*
	 * A clock marker for the new segment, so each converts to epoch time on
	 * its own (convert reads the first one, within its first events). Written
	 * right after the swap, its page can only land in the new streams, and
	 * before anything slow (the top's catch-up, the old segment's assembly:
	 * seconds under load, i.e. hundreds of thousands of events that would
	 * come first); from a recorded CPU, as at start.
	 */
	rec_instance_clock_marker(f->cfg.in, f->cpu[0], NULL, NULL, 0);
	/* the top reads the old files to their end before they are assembled */
	if (f->cfg.top)
		rec_top_rotated(f->cfg.top);
	pthread_mutex_lock(&f->lock);
	for (int i = 0; i < f->n; i++) {
		f->bytes_at[i] = rec_stream_bytes(f->cfg.st, i);
		fds[i] = old[i];   /* the closed streams, closed below */
	}
	seq = f->next_seq;
	pthread_mutex_unlock(&f->lock);
	lost = take_stats(f, stats, seq, &ck);
	rc = rec_flight_segment_name(f, seq, name, sizeof(name));
	if (!rc)
		rc = assemble_segment(f, name, fds, stats, &err);
	else
		fts_err_set(&err, rc, "the segment name is too long");
	rc = segment_closed(f, rc, name, lost, rt, raw);
out:
	for (int i = 0; fds && i < f->n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	for (int i = 0; stats && i < f->n; i++)
		free(stats[i]);
	free(stats);
	free(old);
	free(fds);
	if (rc) {
		char msg[256];

		snprintf(msg, sizeof(msg), "flight segment: %.200s", err.msg);
		set_failure(f, msg);
	}
	return rc;
}

/* Under lock (bytes_at changes at a rotation). */
static uint64_t streaming_bytes(struct rec_flight *f)
{
	uint64_t b = 0;

	for (int i = 0; i < f->n; i++)
		b += rec_stream_bytes(f->cfg.st, i) - f->bytes_at[i];
	return b;
}

static void trigger_snapshot(struct rec_flight *f, const struct rec_trig_hit *h);

/* Pacing of the triggers' snapshots (mono ns; the flight thread's only). */
struct trig_pace {
	uint64_t due;                /* a snapshot is due then; 0: none pending */
	uint64_t quiet_until;        /* no new one before */
	struct rec_trig_hit hit;     /* what the pending one is for */
	uint64_t lost_seen;          /* the lost total at the last step */
	uint64_t lost_at;            /* ... when the pending "lost" hit came */
};

/* New loss since the last step: a "lost" hit into @h (1), else 0. */
static int lost_hit(struct rec_flight *f, struct trig_pace *p, struct rec_trig_hit *h)
{
	uint64_t lost;

	if (f->lost_rule < 0 || !f->cfg.health)
		return 0;
	lost = rec_health_lost(f->cfg.health, NULL);
	if (lost <= p->lost_seen)
		return 0;
	memset(h, 0, sizeof(*h));
	h->rule = f->lost_rule;
	h->ts = (uint64_t)now_ns(CLOCK_MONOTONIC_RAW);
	h->count = 1;
	h->lost = p->lost_seen;   /* the total before: the loss counts from here */
	p->lost_seen = lost;
	return 1;
}

/* Start the pending snapshot for @h, unless one is pending or it is quiet. */
static void trig_arm(struct rec_flight *f, struct trig_pace *p, const struct rec_trig_hit *h, uint64_t now)
{
	if (p->due || now < p->quiet_until)
		return;
	p->hit = *h;
	p->hit.seen = (uint64_t)now_ns(CLOCK_MONOTONIC_RAW);
	p->lost_at = h->lost;
	p->due = now + (uint64_t)(f->cfg.post_s * 1e9) + 1;
}

/* Take the top's hits and new loss; 1 when a trigger snapshot is due now. */
static int trig_step(struct rec_flight *f, struct trig_pace *p)
{
	uint64_t now = fts__clock_mono_ns();
	double ring_s = f->cfg.segment_s * f->cfg.keep;
	struct rec_trig_hit h;

	if (!f->cfg.nrules)
		return 0;
	if (f->cfg.top && rec_top_take_hit(f->cfg.top, &h)) {
		pthread_mutex_lock(&f->lock);
		f->trig_hits += h.count;
		pthread_mutex_unlock(&f->lock);
		trig_arm(f, p, &h, now);
	}
	if (lost_hit(f, p, &h))
		trig_arm(f, p, &h, now);
	if (!p->due || now < p->due)
		return 0;
	p->due = 0;
	if ((int)p->hit.rule == f->lost_rule)
		p->hit.lost = p->lost_seen - p->lost_at;
	/* a whole ring (10 s at least; 60 s when segments go by size) */
	p->quiet_until = now + (uint64_t)((ring_s > 10 ? ring_s : f->cfg.segment_s > 0 ? 10 : 60) * 1e9);
	return 1;
}

static void *flight_main(void *arg)
{
	struct rec_flight *f = arg;
	uint64_t seg_ns = f->cfg.segment_s > 0 ? (uint64_t)(f->cfg.segment_s * 1e9) : 0;
	uint64_t began = fts__clock_mono_ns();
	struct trig_pace pace = { 0 };

	pthread_setname_np(pthread_self(), "fts-flight");
	while (!atomic_load(&f->stop)) {
		int want;

		nanosleep(&(struct timespec){ 0, TICK_NS }, NULL);
		uint64_t streamed;

		pthread_mutex_lock(&f->lock);
		want = f->want_rotate;
		streamed = streaming_bytes(f);
		pthread_mutex_unlock(&f->lock);
		if (atomic_load(&f->stop))
			break;
		keep_room(f, rec_stream_full_seen(f->cfg.st));
		if (trig_step(f, &pace)) {
			began = fts__clock_mono_ns();
			if (rotate(f))
				break;
			trigger_snapshot(f, &pace.hit);
			continue;
		}
		if (!want && !(seg_ns && fts__clock_mono_ns() - began >= seg_ns) &&
		    !(f->cfg.segment_bytes && streamed >= f->cfg.segment_bytes))
			continue;
		began = fts__clock_mono_ns();
		if (rotate(f))
			break;
	}
	return NULL;
}

/*
 * The number after the highest segment already in the directory (a run
 * before this one, killed or stopped): its segments are never overwritten,
 * and being not this run's, never deleted either.
 */
static unsigned first_seq(const struct rec_flight *f)
{
	const char *base = f->base;
	size_t bl = strlen(base);
	uint64_t max = 0;
	struct dirent *e;
	int fd = openat(f->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 1;
	}
	while ((e = readdir(d))) {
		const char *p = e->d_name;
		uint64_t v = 0;
		int k;

		if (strncmp(p, base, bl) || p[bl] != '.')
			continue;
		p += bl + 1;
		/* past 999999 the names grow a digit: those count too, or a new run would overwrite them */
		for (k = 0; k < 10 && p[k] >= '0' && p[k] <= '9'; k++)
			v = v * 10 + (p[k] - '0');
		if (k >= 6 && !strcmp(p + k, ".dat") && v > max)
			max = v;
	}
	closedir(d);
	return max < UINT_MAX - 1 ? (unsigned)max + 1 : UINT_MAX - 1;
}

/* A run's id: random, so two runs in one directory (or copied together) never share one. */
static uint64_t run_id(void)
{
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), 0) != (ssize_t)sizeof(id) || !id)
		id = (uint64_t)now_ns(CLOCK_REALTIME) ^ ((uint64_t)getpid() << 40) ^ (uint64_t)now_ns(CLOCK_MONOTONIC_RAW);
	return id ? id : 1;
}

int rec_flight_start(const struct rec_flight_cfg *cfg, struct rec_flight **out, struct fts_err *err)
{
	struct rec_flight *f = calloc(1, sizeof(*f));
	const char *slash;
	size_t l;
	int rc;

	*out = NULL;
	if (!f)
		return fts_err_set(err, -ENOMEM, "out of memory");
	f->cfg = *cfg;
	f->dfd = -1;
	f->gone_dfd = -1;
	l = strlen(cfg->output);
	if (l >= sizeof(f->stem))
		l = sizeof(f->stem) - 1;
	if (l > 4 && !strcmp(cfg->output + l - 4, ".dat"))
		l -= 4;
	memcpy(f->stem, cfg->output, l);
	f->stem[l] = 0;
	slash = strrchr(cfg->output, '/');
	if (!slash)
		snprintf(f->dir, sizeof(f->dir), ".");
	else
		snprintf(f->dir, sizeof(f->dir), "%.*s", slash == cfg->output ? 1 : (int)(slash - cfg->output),
			 cfg->output);
	snprintf(f->base, sizeof(f->base), "%.*s", NAME_MAX,
		 strrchr(f->stem, '/') ? strrchr(f->stem, '/') + 1 : f->stem);
	/* the very directory the recorder holds since the start, not what its path leads to now */
	f->dfd = openat(cfg->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (f->dfd < 0) {
		rc = -errno;
		rec_flight_free(f);
		return fts_err_set(err, rc, "cannot open the output's directory: %s", strerror(-rc));
	}
	f->n = rec_stream_count(cfg->st);
	f->cpu = calloc((size_t)f->n, sizeof(*f->cpu));
	f->bytes_at = calloc((size_t)f->n, sizeof(*f->bytes_at));
	f->prev = calloc((size_t)f->n, sizeof(*f->prev));
	f->ring = calloc((size_t)cfg->keep + 1, sizeof(*f->ring));
	f->lost_rule = cfg->rules ? rec_trig_lost_rule(cfg->rules, cfg->nrules) : -1;
	rec_snapcap_init(&f->cap, cfg->trig_keep, cfg->trig_bytes);
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	f->next_seq = first_seq(f);
	rec_clock_sample(&f->clk_from);
	f->rt_from = f->clk_from.rt;
	f->raw_from = f->clk_from.raw;
	f->run = run_id();
	f->t0_ns = fts__clock_mono_ns();
	if (!f->cpu || !f->bytes_at || !f->prev || !f->ring) {
		rec_flight_free(f);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	for (int i = 0; i < f->n; i++) {
		f->cpu[i] = rec_stream_cpu(cfg->st, i);
		(void)rec_instance_stats(cfg->in, f->cpu[i], &f->prev[i], NULL);
	}
	rc = fts__thread_start(&f->thread, NULL, flight_main, f);
	if (rc) {
		rec_flight_free(f);
		return fts_err_set(err, rc, "cannot start the flight thread: %s", strerror(-rc));
	}
	f->started = 1;
	*out = f;
	return 0;
}

void rec_flight_halt(struct rec_flight *f)
{
	atomic_store(&f->stop, 1);
	if (f->started)
		pthread_join(f->thread, NULL);
	f->started = 0;
	pthread_mutex_lock(&f->lock);
	pthread_cond_broadcast(&f->cond);   /* a snapshot waiting for a rotation gives up */
	pthread_mutex_unlock(&f->lock);
}

int rec_flight_last_name(struct rec_flight *f, char *buf, size_t len)
{
	unsigned seq;

	follow_place(f);   /* after halt: the stop's assembly goes where the segments went */
	pthread_mutex_lock(&f->lock);
	seq = f->next_seq;
	pthread_mutex_unlock(&f->lock);
	return rec_flight_segment_name(f, seq, buf, len);
}

int rec_flight_dirfd(const struct rec_flight *f)
{
	return f->dfd;
}

void rec_flight_closed(struct rec_flight *f, uint64_t lost)
{
	char name[NAME_MAX + 1];

	pthread_mutex_lock(&f->lock);
	if (rec_flight_segment_name(f, f->next_seq, name, sizeof(name)) == 0)
		add_segment(f, name, lost, f->clk_from.rt, f->clk_from.raw);   /* the stop's (last_stats) */
	pthread_mutex_unlock(&f->lock);
}

void rec_flight_counts(struct rec_flight *f, int *segments, uint64_t *disk_bytes)
{
	uint64_t b = 0;

	pthread_mutex_lock(&f->lock);
	for (int i = 0; i < f->nring; i++)
		b += f->ring[i].size;
	*segments = f->nring;
	if (f->started)
		b += streaming_bytes(f);
	pthread_mutex_unlock(&f->lock);
	*disk_bytes = b;
}

void rec_flight_disk(struct rec_flight *f, unsigned *removed, unsigned *lost_segs, uint64_t *refused, char *note,
		     size_t len)
{
	pthread_mutex_lock(&f->lock);
	*removed = f->room_segs + f->room_snaps;
	*lost_segs = f->lost_segs;
	snprintf(note, len, "%s", f->disk_note);
	pthread_mutex_unlock(&f->lock);
	*refused = rec_stream_refused(f->cfg.st);
}

int rec_flight_failed(struct rec_flight *f, char *buf, size_t len)
{
	int failed;

	pthread_mutex_lock(&f->lock);
	failed = f->failed;
	if (failed && buf && len)
		snprintf(buf, len, "%s", f->failure);
	pthread_mutex_unlock(&f->lock);
	return failed;
}

/* ---- snapshots ------------------------------------------------------------- */

/* @reason as a file-name part: [A-Za-z0-9._-], others '_', no leading '.', 48 bytes at most. */
void rec_flight_reason_name(const char *reason, char *buf, size_t len)
{
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)(reason ? reason : ""); *p && o + 1 < len && o < 48; p++) {
		int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			 *p == '-' || *p == '_' || (*p == '.' && o > 0);
		buf[o++] = ok ? (char)*p : '_';
	}
	buf[o] = 0;
	if (!o)
		snprintf(buf, len, "manual");
}

/*
 * @name in directory @to as a hard link of the open file @in, or a copy of
 * it when the link cannot be made (another filesystem, ...). Linking the
 * descriptor links exactly the file opened, whatever its name leads to now.
 */
static int link_or_copy(int in, int to, const char *name)
{
	char buf[1 << 16], proc[64];
	off_t at = 0;
	int out, rc = 0;
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", in);
	if (linkat(AT_FDCWD, proc, to, name, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno == EEXIST)
		return -EEXIST;
	out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (out < 0)
		return -errno;
	while ((n = pread(in, buf, sizeof(buf), at)) > 0) {
		if (write(out, buf, (size_t)n) != n) {
			rc = -(errno ? errno : EIO);
			break;
		}
		at += n;
	}
	if (n < 0)
		rc = -errno;
	if (close(out) < 0 && !rc)
		rc = -errno;
	if (rc)
		unlinkat(to, name, 0);
	return rc;
}

/* Open @name in @dfd for reading: a regular file only, no symlink, never blocking (a FIFO). */
static int open_file_at(int dfd, const char *name, struct stat *st)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void utc_text(int64_t ns, char *buf, size_t len, int compact)
{
	time_t t = (time_t)(ns / 1000000000LL);
	struct tm tm;

	gmtime_r(&t, &tm);
	if (compact)
		strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm);
	else {
		char s[32];

		strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(buf, len, "%s.%03dZ", s, (int)(ns % 1000000000LL / 1000000));
	}
}

static void manifest_body(FILE *fp, uint64_t run, const char *reason, int64_t trigger_rt, const char *trigger,
			  const char *extra, const struct seg *s, int n, const char *pidmap)
{
	char a[48], b[48];
	uint64_t lost = 0;

	for (int i = 0; i < n; i++)
		lost += s[i].lost;
	utc_text(trigger_rt, a, sizeof(a), 0);
	fputs("{\n  \"reason\": ", fp);
	fts__json_fputs(fp, reason ? reason : "", 0);
	fprintf(fp, ",\n  \"trigger_time\": \"%s\",\n  \"trigger_realtime_ns\": %lld,\n", a,
		(long long)trigger_rt);
	if (trigger)
		fprintf(fp, "  \"trigger\": %s,\n", trigger);
	if (extra)
		fputs(extra, fp);
	if (n) {
		utc_text(s[0].rt_from, a, sizeof(a), 0);
		utc_text(s[n - 1].rt_to, b, sizeof(b), 0);
		fprintf(fp, "  \"time_range\": {\"from\": \"%s\", \"to\": \"%s\", \"from_realtime_ns\": %lld, "
			"\"to_realtime_ns\": %lld, \"from_mono_raw_ns\": %lld, \"to_mono_raw_ns\": %lld},\n", a, b,
			(long long)s[0].rt_from, (long long)s[n - 1].rt_to, (long long)s[0].raw_from,
			(long long)s[n - 1].raw_to);
	} else {
		fputs("  \"time_range\": null,\n", fp);
	}
	/* the sum of the segments' own losses, as each segment's CPUSTAT says (segstats.c) */
	fprintf(fp, "  \"run\": \"%016llx\",\n  \"lost_events\": %llu,\n  \"pid_mapping\": ",
		(unsigned long long)run, (unsigned long long)lost);
	if (pidmap)
		fts__json_fputs(fp, pidmap, 0);
	else
		fputs("null", fp);
	fputs(",\n  \"segments\": [", fp);
	for (int i = 0; i < n; i++) {
		fprintf(fp, "%s\n    {\"file\": ", i ? "," : "");
		fts__json_fputs(fp, s[i].name, 0);
		fprintf(fp, ", \"seq\": %u, \"bytes\": %llu, \"from_realtime_ns\": %lld, \"to_realtime_ns\": %lld, "
			"\"from_mono_raw_ns\": %lld, \"to_mono_raw_ns\": %lld, \"lost_events\": %llu}",
			s[i].seq, (unsigned long long)s[i].size, (long long)s[i].rt_from, (long long)s[i].rt_to,
			(long long)s[i].raw_from, (long long)s[i].raw_to, (unsigned long long)s[i].lost);
	}
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", fp);
}

/* manifest.json in the snapshot directory open as @sfd (temp + rename, both in @sfd). */
static int write_manifest(int sfd, const char *shown, uint64_t run, const char *reason, int64_t trigger_rt,
			  const char *trigger, const char *extra, const struct seg *s, int n, const char *pidmap,
			  struct fts_err *err)
{
	static const char tmp[] = ".manifest.json.tmp";
	FILE *fp;
	int fd;

	fd = openat(sfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return fts_err_set(err, -e, "%s/%s: %s", shown, tmp, strerror(e));
	}
	manifest_body(fp, run, reason, trigger_rt, trigger, extra, s, n, pidmap);
	if (fflush(fp) || fsync(fileno(fp)) || ferror(fp)) {
		int e = errno ? errno : EIO;

		fclose(fp);
		unlinkat(sfd, tmp, 0);
		return fts_err_set(err, -e, "%s/%s: %s", shown, tmp, strerror(e));
	}
	fclose(fp);
	if (renameat(sfd, tmp, sfd, "manifest.json") < 0)
		return fts_err_set(err, -errno, "%s/manifest.json: %s", shown, strerror(errno));
	return 0;
}

/*
 * A failed snapshot leaves nothing: what it put in @sfd, then the directory
 * @rel in the output directory, if that name still is the directory made.
 */
static void remove_partial(struct rec_flight *f, int sfd, const char *rel, const struct seg *s, int n,
			   const char *pidmap)
{
	struct stat a, b;

	for (int i = 0; i < n; i++)
		unlinkat(sfd, s[i].name, 0);
	if (pidmap)
		unlinkat(sfd, pidmap, 0);
	unlinkat(sfd, ".manifest.json.tmp", 0);
	if (fstat(sfd, &a) == 0 && fstatat(f->dfd, rel, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		(void)unlinkat(f->dfd, rel, AT_REMOVEDIR);
}

/* Close the streaming segment now, so the snapshot holds the seconds up to the trigger. */
static void rotate_now(struct rec_flight *f)
{
	struct timespec dl;
	unsigned at;

	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 60;   /* a segment's assembly on a slow disk; the snapshot goes on without it */
	pthread_mutex_lock(&f->lock);
	/* a rotation begun before this call closes a segment that ends before it: wait for the next */
	at = f->begun + 1;
	f->want_rotate = 1;
	while ((int)(f->rotations - at) < 0 && !f->failed && !atomic_load(&f->stop))
		if (pthread_cond_timedwait(&f->cond, &f->lock, &dl) == ETIMEDOUT)
			break;
	pthread_mutex_unlock(&f->lock);
}

/*
 * Make the snapshot directory snapshot-<when>-<name>[-k] in the output
 * directory and open it (its descriptor, or a negative code): made 0700 and
 * root's, and opened only when the name still leads to exactly that (no
 * symlink, root's, 0700, empty), so a name swapped in between is refused.
 */
static int make_snapshot_dir(struct rec_flight *f, const char *when, const char *name, char *rel,
			     size_t len, struct fts_err *err)
{
	struct stat st;
	int sfd;

	for (int k = 0;; k++) {
		int l = k ? snprintf(rel, len, "snapshot-%s-%s-%d", when, name, k)
			  : snprintf(rel, len, "snapshot-%s-%s", when, name);

		if (l < 0 || (size_t)l >= len || l > NAME_MAX)
			return fts_err_set(err, -ENAMETOOLONG, "the snapshot directory's name is too long");
		if (mkdirat(f->dfd, rel, 0700) == 0)
			break;
		if (errno != EEXIST || k > 100)
			return fts_err_set(err, -errno, "cannot create %s: %s", rel, strerror(errno));
	}
	sfd = openat(f->dfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd >= 0 && (fstat(sfd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077) ||
			 st.st_nlink != 2)) {
		close(sfd);
		sfd = -1;
		errno = EEXIST;
	}
	if (sfd < 0)
		return fts_err_set(err, -errno, "%s was replaced while it was being made (%s); no snapshot taken", rel,
				   strerror(errno));
	/* 0700 keeps anyone else out while it is filled; opened up (and handed over) at the end */
	return sfd;
}

/* Link the kept segments ending in the last @last_s s before @trig into @sfd (under lock); count in *@n. */
static int link_segments(struct rec_flight *f, int sfd, double last_s, int64_t trig, struct seg *copy, int *n,
			 struct fts_err *err)
{
	int first, rc = 0;

	/* beyond 1e7 s (or not a number) every kept segment: the arithmetic below stays in range */
	if (!(last_s > 0 && last_s <= 1e7))
		last_s = 0;
	for (first = 0; last_s > 0 && first < f->nring - 1; first++)
		if (f->ring[first].rt_to >= trig - (int64_t)(last_s * 1e9))
			break;
	for (int i = first; i < f->nring && !rc; i++) {
		const struct seg *s = &f->ring[i];
		struct stat st;
		int in = open_file_at(f->dfd, s->name, &st);

		if (in >= 0 && (st.st_dev != s->dev || st.st_ino != s->ino)) {
			close(in);
			in = -ESTALE;
		}
		rc = in < 0 ? in : link_or_copy(in, sfd, s->name);
		if (in >= 0)
			close(in);
		if (rc)
			fts_err_set(err, rc, "cannot link %s into the snapshot: %s", s->name,
				    rc == -ESTALE ? "it was replaced" : strerror(-rc));
		else
			copy[(*n)++] = *s;
	}
	return rc;
}

/*
 * The mapping's name in the snapshot: its own, unless that is a name the
 * snapshot uses itself (manifest.json, its temp, a segment's: the manifest
 * would replace the mapping) or a hidden one.
 */
static const char *pidmap_name(const char *pidmap, const struct seg *s, int n)
{
	const char *base = base_name(pidmap);
	int clash = !*base || *base == '.' || !strcmp(base, "manifest.json");

	for (int i = 0; i < n && !clash; i++)
		clash = !strcmp(base, s[i].name);
	return clash ? "pid_mapping.json" : base;
}

/* The pid mapping into @sfd; its name there, or NULL (said in the manifest: it may be rewritten now). */
static const char *link_pidmap(const char *pidmap, int sfd, const struct seg *s, int n)
{
	struct stat st;
	const char *base;
	int in, rc;

	if (!pidmap)
		return NULL;
	base = pidmap_name(pidmap, s, n);
	in = open_file_at(AT_FDCWD, pidmap, &st);
	if (in < 0)
		return NULL;
	rc = link_or_copy(in, sfd, base);
	close(in);
	return rc ? NULL : base;
}

/*
 * A trigger snapshot's manifest lines (malloc'ed, NULL without memory):
 * whether its segments hold the trigger's event, and the cap of the trigger
 * snapshots, the older ones it dropped to fit first (rec_snapcap_make_room).
 */
static char *trigger_extra(struct rec_flight *f, struct snap_trig *t, const struct seg *s, int n)
{
	uint64_t bytes = 0;
	char *buf = NULL;
	size_t sz = 0;
	FILE *fp = open_memstream(&buf, &sz);

	if (!fp)
		return NULL;
	for (int i = 0; i < n; i++)
		bytes += s[i].size;
	t->held = n && (int64_t)t->event_raw >= s[0].raw_from;
	t->early_s = n && !t->held ? (double)(s[0].raw_from - (int64_t)t->event_raw) / 1e9 : 0;
	fprintf(fp, "  \"trigger_held\": %s,\n", t->held ? "true" : "false");
	if (!t->held)
		fprintf(fp, "  \"trigger_not_held\": \"the trigger's event is %.3f s older than the oldest data kept "
			"(the ring holds %d segments; it fired that long after the event)\",\n", t->early_s, f->cfg.keep);
	fprintf(fp, "  \"trigger_snapshots\": {\"keep\": %d, \"max_bytes\": %llu, \"bytes\": %llu, \"dropped\": [",
		f->cap.keep, (unsigned long long)f->cap.bytes, (unsigned long long)bytes);
	rec_snapcap_make_room(&f->cap, f->dfd, bytes, fp);
	fprintf(fp, "], \"dropped_so_far\": %u},\n", f->cap.dropped);
	if (fclose(fp)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The snapshot after the rotation; @t: a trigger's (NULL for a manual one). */
static int snapshot_take(struct rec_flight *f, const char *reason, double last_s, const char *pidmap,
			 int64_t trig, struct snap_trig *t, int rotate_first, char *dir, size_t len,
			 struct fts_err *err)
{
	char name[64], when[32], rel[NAME_MAX + 1], *extra = NULL;
	struct seg *copy = NULL;
	uint64_t bytes = 0;
	int n = 0, rc = 0, sfd;

	rec_flight_reason_name(reason, name, sizeof(name));
	utc_text(trig, when, sizeof(when), 1);
	sfd = make_snapshot_dir(f, when, name, rel, sizeof(rel), err);
	if (sfd < 0)
		return sfd;
	rec_flight_shown(f, rel, dir, len);
	if (rotate_first && f->started)
		rotate_now(f);
	/* Link under the lock: the ring cannot prune a segment between the choice and its link. */
	pthread_mutex_lock(&f->lock);
	copy = calloc((size_t)f->nring + 1, sizeof(*copy));
	if (!copy)
		rc = fts_err_set(err, -ENOMEM, "out of memory");
	else
		rc = link_segments(f, sfd, last_s, trig, copy, &n, err);
	pthread_mutex_unlock(&f->lock);
	pidmap = rc ? NULL : link_pidmap(pidmap, sfd, copy, n);
	if (!rc && t && !(extra = trigger_extra(f, t, copy, n)))
		rc = fts_err_set(err, -ENOMEM, "out of memory");
	if (!rc)
		rc = write_manifest(sfd, dir, f->run, reason, trig, t ? t->json : NULL, extra, copy, n, pidmap, err);
	for (int i = 0; i < n; i++)
		bytes += copy[i].size;
	if (!rc && t)
		(void)rec_snapcap_add(&f->cap, sfd, rel, bytes);   /* no memory: this one is never dropped */
	if (!rc) {
		/* complete: readable, and the sudo user's (on the descriptor, never the name) */
		(void)fchmod(sfd, 0755);
		if (f->cfg.owner && f->cfg.owner->set && fchown(sfd, f->cfg.owner->uid, f->cfg.owner->gid) < 0) {
			/* root's own directory then: the files inside keep their owners */
		}
	} else {
		remove_partial(f, sfd, rel, copy, n, pidmap);
	}
	close(sfd);
	free(copy);
	free(extra);
	return rc;
}

int rec_flight_snapshot(struct rec_flight *f, const char *reason, double last_s, const char *pidmap,
			char *dir, size_t len, struct fts_err *err)
{
	return snapshot_take(f, reason, last_s, pidmap, now_ns(CLOCK_REALTIME), NULL, 1, dir, len, err);
}

/* The manifest's "trigger" object for @h (malloc'ed; NULL without memory). */
static char *trigger_json(const struct rec_flight *f, const struct rec_trig_hit *h)
{
	const struct rec_trig_rule *r = &f->cfg.rules[h->rule];
	int64_t rt = (int64_t)h->ts + now_ns(CLOCK_REALTIME) - now_ns(CLOCK_MONOTONIC_RAW);
	char *buf = NULL, when[48];
	size_t sz = 0;
	FILE *fp = open_memstream(&buf, &sz);

	if (!fp)
		return NULL;
	utc_text(rt, when, sizeof(when), 0);
	fputs("{\"rule\": ", fp);
	fts__json_fputs(fp, r->text, 0);
	if (r->kind == REC_TRIG_LOST) {
		fprintf(fp, ", \"kind\": \"lost\", \"lost_events\": %llu, \"event_mono_raw_ns\": %llu, "
			"\"event_realtime_ns\": %lld, \"event_time\": \"%s\", \"seen_mono_raw_ns\": %llu, "
			"\"delay_ms\": %.3f, \"post_trigger_s\": %.3f}",
			(unsigned long long)h->lost, (unsigned long long)h->ts, (long long)rt, when,
			(unsigned long long)h->seen, (double)(h->seen - h->ts) / 1e6, f->cfg.post_s);
		return fclose(fp) ? (free(buf), NULL) : buf;
	}
	fprintf(fp, ", \"kind\": \"%s\", \"threshold_ns\": %llu, \"task\": ",
		r->kind == REC_TRIG_WAKEUP ? "wakeup" : "runnable", (unsigned long long)r->thr_ns);
	fts__json_fputs(fp, h->task, 0);
	/* delay_ms: from the wait's end to the flight thread seeing it (the decoder's lag) */
	fprintf(fp, ", \"value_ns\": %llu, \"value_ms\": %.3f, \"event_mono_raw_ns\": %llu, "
		"\"event_realtime_ns\": %lld, \"event_time\": \"%s\", \"hits\": %llu, \"seen_mono_raw_ns\": %llu, "
		"\"delay_ms\": %.3f, \"post_trigger_s\": %.3f}",
		(unsigned long long)h->value_ns, (double)h->value_ns / 1e6, (unsigned long long)h->ts,
		(long long)rt, when, (unsigned long long)h->count, (unsigned long long)h->seen,
		h->seen > h->ts ? (double)(h->seen - h->ts) / 1e6 : 0.0, f->cfg.post_s);
	if (fclose(fp)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* What fired @h, for the note: "runnable>5ms (python:12 waited 7.1 ms)", "lost (1234 events lost ...)". */
static void trigger_said(const struct rec_flight *f, const struct rec_trig_hit *h, char *buf, size_t len)
{
	const struct rec_trig_rule *r = &f->cfg.rules[h->rule];

	if (r->kind == REC_TRIG_LOST)
		snprintf(buf, len, "trigger lost (%llu events lost, and %.1f s after)", (unsigned long long)h->lost,
			 f->cfg.post_s);
	else
		snprintf(buf, len, "trigger %s (%s waited %.1f ms)", r->text, h->task, (double)h->value_ns / 1e6);
}

/* In the flight thread, right after a rotation: the snapshot a trigger asked for. */
static void trigger_snapshot(struct rec_flight *f, const struct rec_trig_hit *h)
{
	const struct rec_trig_rule *r = &f->cfg.rules[h->rule];
	char dir[PATH_MAX], note[sizeof(f->trig_note)], said[256], reason[160], late[160] = "";
	struct fts_err err = { 0 };
	struct snap_trig t = { .json = trigger_json(f, h), .event_raw = h->ts };
	int rc;

	if (r->kind == REC_TRIG_LOST)
		snprintf(reason, sizeof(reason), "lost-%llu-events", (unsigned long long)h->lost);
	else
		snprintf(reason, sizeof(reason), "%s", r->text);
	rc = t.json ? snapshot_take(f, reason, 0, f->cfg.pidmap, now_ns(CLOCK_REALTIME), &t, 0, dir, sizeof(dir),
				    &err)
		: fts_err_set(&err, -ENOMEM, "out of memory");
	free((char *)t.json);
	trigger_said(f, h, said, sizeof(said));
	if (!rc && !t.held)
		snprintf(late, sizeof(late), " - it does not hold the trigger: the event is %.1f s older than its "
			 "oldest data (fired too late for the ring)", t.early_s);
	if (rc)
		snprintf(note, sizeof(note), "%s: snapshot failed: %.300s", said, err.msg);
	else
		/* said 255 + 12 + dir 590 + late 159 fit the note's 1024 */
		snprintf(note, sizeof(note), "%s: snapshot %.590s%s", said, dir, late);
	pthread_mutex_lock(&f->lock);
	if (!rc)
		f->trig_snaps++;
	snprintf(f->trig_note, sizeof(f->trig_note), "%s", note);
	pthread_mutex_unlock(&f->lock);
}

void rec_flight_triggered(struct rec_flight *f, int *snaps, uint64_t *hits, char *note, size_t len)
{
	pthread_mutex_lock(&f->lock);
	*snaps = f->trig_snaps;
	*hits = f->trig_hits;
	if (note && len)
		snprintf(note, len, "%s", f->trig_note);
	pthread_mutex_unlock(&f->lock);
}

void rec_flight_free(struct rec_flight *f)
{
	if (!f)
		return;
	rec_flight_halt(f);
	pthread_mutex_destroy(&f->lock);
	pthread_cond_destroy(&f->cond);
	free(f->ring);
	rec_snapcap_free(&f->cap);
	free(f->prev);
	free(f->bytes_at);
	free(f->cpu);
	if (f->dfd >= 0)
		close(f->dfd);
	if (f->gone_dfd >= 0)
		close(f->gone_dfd);
	free(f);
}
