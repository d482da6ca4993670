// SPDX-License-Identifier: MIT
/*
 * pipeline.c - a torch_npu-like two-level pipeline, for Host Bound ground
 * truth (pipeline.sh, bench/hostbound_truth.sh).
 *
 *     pipeline OUT_LOG MAIN_CPU DISPATCH_CPU [ROUNDS [KIND,...|all [normal]]]
 *
 * The main thread ("pt_main", pinned to MAIN_CPU) runs "ops" (busy loops of
 * OP_US) and enqueues one launch per op into a bounded queue (QUEUE_CAP);
 * the dispatch thread ("npu_dispatch", pinned to DISPATCH_CPU) dequeues,
 * spends LAUNCH_US launching, and hands the kernel to a simulated device
 * that runs it for KERNEL_US after the one before it; the device holds at
 * most DEVICE_DEPTH kernels, so the dispatch thread waits (sleeps) when it
 * is that far ahead. The host is faster than the device: left alone, the
 * device never idles. Both threads run SCHED_OTHER at nice 0.
 *
 * The main thread is the process's first thread; the controller ("hb_ctl") injects, at times
 * it logs, what makes the device idle:
 *   fifo_disp   a SCHED_FIFO spinner ("hb_fifo_d") on the dispatch CPU
 *   fifo_main   a SCHED_FIFO spinner ("hb_fifo_m") on the main CPU
 *   hogs        three CFS hogs ("hb_hog", nice -20) on the main CPU
 *   dataloader  the main thread sleeps in an op "DataLoader.__next__"
 *   wake_behind the main thread sleeps in "aten::wait_input" while a FIFO
 *               spinner ("hb_fifo_w") takes the dispatch CPU, so the
 *               wakeup that follows waits behind it
 *   mutex       a third thread ("pt_saver") holds the lock the dispatch
 *               thread takes around each launch while it sleeps in
 *               "aten::save"
 *   udp         a sender ("hb_udp", nice 0, on the main CPU) floods a
 *               loopback UDP socket that nobody reads, with RPS on lo
 *               steering the receive side to the dispatch CPU: softirq
 *               NET_RX runs there, over the dispatch thread (the share of
 *               that CPU it took: /proc/stat's softirq ticks)
 *   fifo_long   (only when asked) fifo_disp, 120 ms: one real-time task
 *               that dominates (bench/hostbound_advice.sh)
 *   odirect     the main thread reads random blocks of a file with O_DIRECT
 *               in "DataLoader.__next__" (blocked in D state, or running the
 *               reads; the time it waited for a CPU meanwhile, from its
 *               schedstat, is the load's, and not the stretch's)
 * (ROUNDS times; KIND,... instead of all of them in turn; "normal": the
 * real-time spinners run SCHED_OTHER at nice 0, the hostbound advice for
 * them applied, bench/hostbound_advice.sh) and writes to OUT_LOG the
 * threads, every op and kernel (CLOCK_MONOTONIC_RAW
 * ns; a kernel with the times its launch was queued and made, so when the
 * dispatch thread had work is known) and each injected stretch with the
 * category and culprit it must get.
 * Needs root (SCHED_FIFO, nice -20).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OP_US 150
#define LAUNCH_US 40
#define KERNEL_US 300
#define QUEUE_CAP 4
#define DEVICE_DEPTH 3
#define NORMAL_MS 200
#define SPIN_MS 30
#define MAX_REC 200000
#define DIRECT_BLOCK 4096
#define DIRECT_FILE (64ull << 20)

struct op { uint64_t s, e; const char *name; };
struct kernel { uint64_t enq, host, s, e; };   /* enq: pushed (after any wait for room) */
/* @cpu: the CPU time the culprit task measured itself using (0: not a task) */
struct stretch { const char *kind, *cat, *culprit; uint64_t s, e, cpu; int pid; };

/*
 * The queue is a single-producer single-consumer ring whose ends sleep on
 * futexes, as torch_npu's task queue does: a glibc condition variable would
 * make the signalling side wait for the woken one now and then (its group
 * switch), a dependency the real pipeline does not have.
 */
static struct {
	uint64_t q[QUEUE_CAP];     /* enqueue times */
	uint32_t head, tail;       /* popped, pushed: futex words */
	int stop;
	/* the controller asks the main thread to sleep in an op: */
	const char *sleep_op;      /* set by the controller, cleared by main when done */
	int sleep_ms, started;     /* sleeps begun: the controller waits for the count to move */
	uint64_t slept_s, slept_e;
	struct op ops[MAX_REC];
	size_t nops;
	struct kernel k[MAX_REC];
	size_t nk;
	struct stretch st[64];
	size_t nst;
	int main_cpu, disp_cpu, main_tid, disp_tid, saver_tid;
	/* the lock the dispatch thread takes around each launch; the saver holds it when asked */
	pthread_mutex_t lock;
	int save_ms, saves;           /* the controller's ask; saves done */
	uint64_t saved_s, saved_e;
	/* the dispatch thread's waits for the lock (over 20 us): when the lock, not a CPU, held it */
	uint64_t lockw[4096][2];
	size_t nlockw;
	int rounds, rc;            /* the controller's plan and outcome */
	const char *plan;          /* NULL: every kind in turn; else "kind,kind,..." */
	int normal;                /* the real-time spinners run SCHED_OTHER (the advice applied) */
	int read_fd;               /* >= 0: the main thread's "sleep" is O_DIRECT reads of it */
	void *block;               /* their buffer, DIRECT_BLOCK aligned */
	uint64_t read_delay;       /* of the reads, the time the thread waited for a CPU (the load's doing) */
} P;

static uint64_t raw_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void spin_us(uint64_t us)
{
	uint64_t end = raw_ns() + us * 1000;

	while (raw_ns() < end)
		;
}

static void sleep_ms(int ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		perror("sched_setaffinity");
}

static void futex_wait(uint32_t *w, uint32_t v)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void futex_wake(uint32_t *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static int stopped(void)
{
	return __atomic_load_n(&P.stop, __ATOMIC_ACQUIRE);
}

/* Push the time of the push, once there is room: sleeping while the ring is full; 0, or -1 when stopped. */
static int push(void)
{
	uint32_t t = __atomic_load_n(&P.tail, __ATOMIC_RELAXED), h;

	while (t - (h = __atomic_load_n(&P.head, __ATOMIC_ACQUIRE)) == QUEUE_CAP) {
		if (stopped())
			return -1;
		futex_wait(&P.head, h);
	}
	/* when the work really became available: after any wait for room */
	P.q[t % QUEUE_CAP] = raw_ns();
	__atomic_store_n(&P.tail, t + 1, __ATOMIC_RELEASE);
	futex_wake(&P.tail);
	return 0;
}

/* Pop into @v, sleeping while the ring is empty; 0, or -1 when stopped. */
static int pop(uint64_t *v)
{
	uint32_t h = __atomic_load_n(&P.head, __ATOMIC_RELAXED), t;

	while ((t = __atomic_load_n(&P.tail, __ATOMIC_ACQUIRE)) == h) {
		if (stopped())
			return -1;
		futex_wait(&P.tail, t);
	}
	*v = P.q[h % QUEUE_CAP];
	__atomic_store_n(&P.head, h + 1, __ATOMIC_RELEASE);
	futex_wake(&P.head);
	return 0;
}

/* The calling thread's time spent runnable, waiting for a CPU (schedstat), in ns; 0 when unknown. */
static uint64_t run_delay(void)
{
	unsigned long long run = 0, wait = 0;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	if (f) {
		if (fscanf(f, "%llu %llu", &run, &wait) != 2)
			wait = 0;
		fclose(f);
	}
	return wait;
}

/*
 * O_DIRECT reads of random blocks of @fd for @ms, as a DataLoader reading
 * samples from disk: the thread waits for the device in D state (blocked),
 * the page cache never answers.
 */
static void direct_reads(int fd, int ms)
{
	uint64_t end = raw_ns() + (uint64_t)ms * 1000000ull;
	static uint64_t seed = 88172645463325252ull;

	while (raw_ns() < end) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		if (pread(fd, P.block, DIRECT_BLOCK, (off_t)(seed % (DIRECT_FILE / DIRECT_BLOCK)) * DIRECT_BLOCK) < 0) {
			perror("pipeline: O_DIRECT read");
			sleep_ms(1);
		}
	}
}

/* The main thread: ops, each ending in an enqueue; sleeps in an op when asked. */
static void *main_thread(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "pt_main");
	pin(P.main_cpu);
	P.main_tid = gettid();
	for (unsigned i = 0;; i++) {
		static const char *const names[] = { "aten::linear", "aten::add", "aten::mul", "aten::relu" };
		struct op o = { raw_ns(), 0, names[i % 4] };
		const char *sl = __atomic_load_n(&P.sleep_op, __ATOMIC_ACQUIRE);

		if (sl) {
			o.name = sl;
			P.slept_s = raw_ns();
			__atomic_add_fetch(&P.started, 1, __ATOMIC_RELEASE);
			if (P.read_fd >= 0) {
				uint64_t d0 = run_delay();

				direct_reads(P.read_fd, P.sleep_ms);
				P.read_delay = run_delay() - d0;
			} else
				sleep_ms(P.sleep_ms);
			P.slept_e = raw_ns();
			__atomic_store_n(&P.sleep_op, NULL, __ATOMIC_RELEASE);
		} else {
			spin_us(OP_US);
		}
		o.e = raw_ns();
		if (P.nops < MAX_REC)
			P.ops[P.nops++] = o;
		if (push())
			return NULL;
	}
}

/* The dispatch thread: dequeue, launch, wait while the device is DEVICE_DEPTH ahead. */
static void *dispatch_thread(void *arg)
{
	uint64_t free_at = 0;

	(void)arg;
	prctl(PR_SET_NAME, "npu_dispatch");
	pin(P.disp_cpu);
	P.disp_tid = gettid();
	for (;;) {
		struct kernel k;
		uint64_t now;

		if (pop(&k.enq))
			return NULL;
		now = raw_ns();
		pthread_mutex_lock(&P.lock);
		if (raw_ns() - now > 20000 && P.nlockw < sizeof(P.lockw) / sizeof(P.lockw[0])) {
			P.lockw[P.nlockw][0] = now;
			P.lockw[P.nlockw++][1] = raw_ns();
		}
		spin_us(LAUNCH_US);
		pthread_mutex_unlock(&P.lock);
		k.host = raw_ns();
		k.s = k.host + 20000 > free_at ? k.host + 20000 : free_at;
		k.e = k.s + KERNEL_US * 1000;
		free_at = k.e;
		if (P.nk < MAX_REC)
			P.k[P.nk++] = k;
		now = raw_ns();
		if (free_at > now + DEVICE_DEPTH * KERNEL_US * 1000ull) {
			uint64_t d = free_at - now - DEVICE_DEPTH * KERNEL_US * 1000ull;
			struct timespec t = { (time_t)(d / 1000000000ull), (long)(d % 1000000000ull) };

			nanosleep(&t, NULL);
		}
	}
}

/*
 * A third thread of the Python process ("pt_saver", as a checkpoint saver):
 * when asked, it holds the dispatch thread's lock while it sleeps in
 * "aten::save" (I/O with the lock held); the dispatch thread blocks on the
 * futex until it lets go.
 */
static void *saver_thread(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "pt_saver");
	P.saver_tid = gettid();
	while (!stopped()) {
		int ms = __atomic_load_n(&P.save_ms, __ATOMIC_ACQUIRE);

		if (!ms) {
			sleep_ms(1);
			continue;
		}
		pthread_mutex_lock(&P.lock);
		P.saved_s = raw_ns();
		sleep_ms(ms);
		P.saved_e = raw_ns();
		pthread_mutex_unlock(&P.lock);
		__atomic_store_n(&P.save_ms, 0, __ATOMIC_RELEASE);
		__atomic_add_fetch(&P.saves, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * A child process named @comm on @cpu that spins @ms (SCHED_FIFO 10 when
 * @fifo, else at nice @nice) and reports its stretch and the CPU time it got
 * (its own clock, independent of the trace) through a pipe.
 */
static pid_t spinner(const char *comm, int cpu, int fifo, int nice, int ms, int *rfd)
{
	int fd[2];
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct sched_param sp = { .sched_priority = 10 };
		struct timespec used;
		uint64_t se[3];

		close(fd[0]);
		prctl(PR_SET_NAME, comm);
		pin(cpu);
		/* P.normal: the advice applied (chrt -o -p 0): the real-time spinners run normal, nice 0 */
		if (fifo && !P.normal ? sched_setscheduler(0, SCHED_FIFO, &sp) : setpriority(PRIO_PROCESS, 0, nice))
			_exit(3);
		se[0] = raw_ns();
		spin_us((uint64_t)ms * 1000);
		se[1] = raw_ns();
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used);
		se[2] = (uint64_t)used.tv_sec * 1000000000ull + (uint64_t)used.tv_nsec;
		_exit(write(fd[1], se, sizeof(se)) == sizeof(se) ? 0 : 4);
	}
	close(fd[1]);
	*rfd = fd[0];
	return pid;
}

/* Wait for a spinner; its stretch and CPU time into @se. 0 or -1. */
static int reap(pid_t pid, int rfd, uint64_t se[3])
{
	int status = 0;
	ssize_t r = read(rfd, se, 3 * sizeof(*se));

	close(rfd);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) || r != 3 * (ssize_t)sizeof(*se)) {
		fprintf(stderr, "pipeline: spinner %d failed (status %d): root is needed\n", (int)pid, status);
		return -1;
	}
	return 0;
}

static void add_stretch(const char *kind, const char *cat, const char *culprit, uint64_t s, uint64_t e,
			uint64_t cpu, int pid)
{
	if (P.nst < sizeof(P.st) / sizeof(P.st[0]))
		P.st[P.nst++] = (struct stretch){ kind, cat, culprit, s, e, cpu, pid };
}

static int inject_spinner(const char *kind, const char *comm, int cpu, int ms)
{
	uint64_t se[3];
	int rfd;
	pid_t pid = spinner(comm, cpu, 1, 0, ms, &rfd);

	if (pid < 0 || reap(pid, rfd, se))
		return -1;
	add_stretch(kind, "runnable", comm, se[0], se[1], se[2], pid);
	return 0;
}

static int inject_hogs(void)
{
	uint64_t se[3][3], s = UINT64_MAX, e = 0, cpu = 0;
	int rfd[3];
	pid_t pid[3];

	for (int i = 0; i < 3; i++)
		pid[i] = spinner("hb_hog", P.main_cpu, 0, -20, 40, &rfd[i]);
	for (int i = 0; i < 3; i++) {
		if (pid[i] < 0 || reap(pid[i], rfd[i], se[i]))
			return -1;
		s = se[i][0] < s ? se[i][0] : s;
		e = se[i][1] > e ? se[i][1] : e;
		cpu += se[i][2];
	}
	add_stretch("hogs", "runnable", "hb_hog", s, e, cpu, pid[0]);
	return 0;
}

/* Ask the main thread to sleep @ms in op @name; returns once it sleeps. */
static void main_sleep(const char *name, int ms)
{
	int before = __atomic_load_n(&P.started, __ATOMIC_ACQUIRE);

	P.sleep_ms = ms;
	__atomic_store_n(&P.sleep_op, name, __ATOMIC_RELEASE);
	while (__atomic_load_n(&P.started, __ATOMIC_ACQUIRE) == before)
		spin_us(20);
}

static void main_sleep_wait(void)
{
	while (__atomic_load_n(&P.sleep_op, __ATOMIC_ACQUIRE))
		sleep_ms(1);
}

static int inject_wake_behind(void)
{
	uint64_t se[3], from;
	int rfd;
	pid_t pid;

	main_sleep("aten::wait_input", 12);
	sleep_ms(4);
	pid = spinner("hb_fifo_w", P.disp_cpu, 1, 0, SPIN_MS, &rfd);
	main_sleep_wait();
	if (pid < 0 || reap(pid, rfd, se))
		return -1;
	add_stretch("wake_behind", "sleeping", "aten::wait_input", P.slept_s, P.slept_s + 12000000ull, 0, 0);
	/* from the wakeup (or the spinner's start, if the controller was late), with the
	 * spinner's CPU time after it: it spun on from its start, all on the CPU */
	from = P.slept_e > se[0] ? P.slept_e : se[0];
	add_stretch("wake_behind", "runnable", "hb_fifo_w", from, se[1],
		    se[2] > from - se[0] ? se[2] - (from - se[0]) : 0, pid);
	return 0;
}

/* A file of DIRECT_FILE bytes in the working directory, opened O_DIRECT for reading; -1 on failure. */
static int direct_file(void)
{
	static char chunk[1 << 20];
	char name[64];
	int fd;

	/* one per process: two ranks share the working directory */
	snprintf(name, sizeof(name), "odirect.%d.dat", (int)getpid());
	fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	memset(chunk, 0x5a, sizeof(chunk));
	for (uint64_t n = 0; n < DIRECT_FILE; n += sizeof(chunk)) {
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk)) {
			close(fd);
			return -1;
		}
	}
	fsync(fd);
	close(fd);
	fd = open(name, O_RDONLY | O_DIRECT);
	unlink(name);   /* gone with the process */
	if (fd < 0 || posix_memalign(&P.block, DIRECT_BLOCK, DIRECT_BLOCK)) {
		perror("pipeline: O_DIRECT (the working directory's file system must support it)");
		return -1;
	}
	return fd;
}

/* The main thread reads samples with O_DIRECT in DataLoader.__next__ for SPIN_MS. */
static int inject_odirect(void)
{
	static int fd = -1;

	if (fd < 0 && (fd = direct_file()) < 0)
		return -1;
	P.read_fd = fd;
	main_sleep("DataLoader.__next__", SPIN_MS);
	main_sleep_wait();
	P.read_fd = -1;
	/* the reads' own time: blocked on the disk, or running the syscalls; not the waits for a CPU */
	add_stretch("odirect", "io", "DataLoader.__next__", P.slept_s, P.slept_e,
		    P.slept_e - P.slept_s > P.read_delay ? P.slept_e - P.slept_s - P.read_delay : 0, 0);
	return 0;
}

#define RPS_LO "/sys/class/net/lo/queues/rx-0/rps_cpus"
#define UDP_MS 60
#define UDP_FILTER 1000   /* instructions of the receiver's socket filter: work for the softirq */

/* Write @text to @path; 0 or -1. */
static int put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return -1;
	bad = fputs(text, f) < 0;
	return fclose(f) || bad ? -1 : 0;
}

/* @cpu as a cpumask file's text: 32-bit groups in hex, highest first, comma-separated. */
static void cpu_mask(int cpu, char *dst, size_t len)
{
	size_t n = 0;

	for (int g = cpu / 32; g >= 0 && n + 10 < len; g--)
		n += (size_t)snprintf(dst + n, len - n, "%s%08x", g == cpu / 32 ? "" : ",",
				      g == cpu / 32 ? 1u << (cpu % 32) : 0u);
}

/* @cpu's softirq and total ticks (/proc/stat, USER_HZ); 0 or -1. */
static int cpu_ticks(int cpu, uint64_t *softirq, uint64_t *total)
{
	char line[512], want[16];
	FILE *f = fopen("/proc/stat", "r");
	int rc = -1;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "cpu%d ", cpu);
	while (rc && fgets(line, sizeof(line), f)) {
		unsigned long long v[10] = { 0 };

		if (strncmp(line, want, strlen(want)) ||
		    sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6], &v[7]) != 8)
			continue;
		*softirq = v[6];
		*total = 0;
		for (int i = 0; i < 8; i++)
			*total += v[i];
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* The sender: floods the socket @fd is connected to for @ms from @cpu. */
static void udp_flood(int fd, int cpu, int ms)
{
	static char payload[64];
	struct mmsghdr m[64];
	struct iovec io = { payload, sizeof(payload) };
	uint64_t end;

	prctl(PR_SET_NAME, "hb_udp");
	pin(cpu);
	memset(m, 0, sizeof(m));
	for (int i = 0; i < 64; i++) {
		m[i].msg_hdr.msg_iov = &io;
		m[i].msg_hdr.msg_iovlen = 1;
	}
	end = raw_ns() + (uint64_t)ms * 1000000ull;
	while (raw_ns() < end)
		(void)sendmmsg(fd, m, 64, 0);
}

/*
 * Loopback UDP whose receive side RPS steers to the dispatch CPU: NET_RX
 * softirq runs there, over whatever runs, from a sender on the main CPU.
 * The truth's share: the dispatch CPU's ticks spent in softirq meanwhile.
 */
static int inject_udp(void)
{
	char old[256] = "", mask[256];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0), small = 4096, status = 0;
	uint64_t si0, tot0, si1, tot1, s, e;
	FILE *f = fopen(RPS_LO, "r");
	pid_t pid;

	if (!f || !fgets(old, sizeof(old), f) || rx < 0 || tx < 0) {
		fprintf(stderr, "pipeline: udp needs %s and sockets\n", RPS_LO);
		return -1;
	}
	fclose(f);
	cpu_mask(P.disp_cpu, mask, sizeof(mask));
	static struct sock_filter insn[UDP_FILTER];
	struct sock_fprog prog = { UDP_FILTER, insn };

	/* a socket nobody reads, its buffer small: the packets are dropped there, in the
	 * softirq, after a socket filter that loads a word UDP_FILTER times (as a packet
	 * filter of a capture tool would cost) */
	for (int i = 0; i < UDP_FILTER - 1; i++)
		insn[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0);
	insn[UDP_FILTER - 1] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0xffffffffu);
	if (setsockopt(rx, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) ||
	    setsockopt(rx, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small)) || bind(rx, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(rx, (struct sockaddr *)&a, &alen) || connect(tx, (struct sockaddr *)&a, sizeof(a)) ||
	    put_file(RPS_LO, mask) || cpu_ticks(P.disp_cpu, &si0, &tot0)) {
		perror("pipeline: udp");
		return -1;
	}
	s = raw_ns();
	pid = fork();
	if (pid == 0) {
		udp_flood(tx, P.main_cpu, UDP_MS);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	e = raw_ns();
	if (put_file(RPS_LO, old) || cpu_ticks(P.disp_cpu, &si1, &tot1) || pid < 0 || status) {
		fprintf(stderr, "pipeline: udp sender failed, or %s not restored\n", RPS_LO);
		return -1;
	}
	close(rx);
	close(tx);
	add_stretch("udp", "irq", "NET_RX", s, e,
		    tot1 > tot0 ? (uint64_t)((double)(e - s) * (double)(si1 - si0) / (double)(tot1 - tot0)) : 0, pid);
	return 0;
}

/* The saver holds the lock SPIN_MS while the dispatch thread has work to launch. */
static int inject_mutex(void)
{
	int before = __atomic_load_n(&P.saves, __ATOMIC_ACQUIRE);

	__atomic_store_n(&P.save_ms, SPIN_MS, __ATOMIC_RELEASE);
	while (__atomic_load_n(&P.saves, __ATOMIC_ACQUIRE) == before)
		sleep_ms(1);
	add_stretch("mutex", "sleeping", "aten::save", P.saved_s, P.saved_e, 0, 0);
	return 0;
}

static int inject(const char *kind)
{
	if (!strcmp(kind, "fifo_disp"))
		return inject_spinner(kind, "hb_fifo_d", P.disp_cpu, SPIN_MS);
	if (!strcmp(kind, "fifo_long"))
		return inject_spinner(kind, "hb_fifo_d", P.disp_cpu, 4 * SPIN_MS);
	if (!strcmp(kind, "fifo_main"))
		return inject_spinner(kind, "hb_fifo_m", P.main_cpu, SPIN_MS);
	if (!strcmp(kind, "hogs"))
		return inject_hogs();
	if (!strcmp(kind, "dataloader")) {
		main_sleep("DataLoader.__next__", SPIN_MS);
		main_sleep_wait();
		/* the sleep asked for: after it, a loaded machine makes it wait for a CPU */
		add_stretch(kind, "sleeping", "DataLoader.__next__", P.slept_s, P.slept_s + SPIN_MS * 1000000ull, 0, 0);
		return 0;
	}
	if (!strcmp(kind, "odirect"))
		return inject_odirect();
	if (!strcmp(kind, "mutex"))
		return inject_mutex();
	if (!strcmp(kind, "udp"))
		return inject_udp();
	return inject_wake_behind();
}

static void write_log(FILE *f, uint64_t raw0, uint64_t real0, uint64_t raw1, uint64_t real1, uint64_t mono1)
{
	fprintf(f, "begin %llu %llu\nend %llu %llu %llu\n", (unsigned long long)raw0, (unsigned long long)real0,
		(unsigned long long)raw1, (unsigned long long)real1, (unsigned long long)mono1);
	fprintf(f, "pid %d\nmain %d %d\ndispatch %d %d\nsaver %d -1\n", (int)getpid(), P.main_tid, P.main_cpu,
		P.disp_tid, P.disp_cpu, P.saver_tid);
	for (size_t i = 0; i < P.nlockw; i++)
		fprintf(f, "lockwait %llu %llu\n", (unsigned long long)P.lockw[i][0], (unsigned long long)P.lockw[i][1]);
	for (size_t i = 0; i < P.nst; i++) {
		if (!strcmp(P.st[i].kind, "mutex"))
			fprintf(f, "sop %llu %llu aten::save\n", (unsigned long long)P.st[i].s,
				(unsigned long long)P.st[i].e);
	}
	for (size_t i = 0; i < P.nops; i++)
		fprintf(f, "op %llu %llu %s\n", (unsigned long long)P.ops[i].s, (unsigned long long)P.ops[i].e,
			P.ops[i].name);
	for (size_t i = 0; i < P.nk; i++)
		fprintf(f, "kernel %llu %llu %llu %llu\n", (unsigned long long)P.k[i].enq,
			(unsigned long long)P.k[i].host, (unsigned long long)P.k[i].s, (unsigned long long)P.k[i].e);
	for (size_t i = 0; i < P.nst; i++)
		fprintf(f, "stretch %s %s %s %llu %llu %d %llu\n", P.st[i].kind, P.st[i].cat, P.st[i].culprit,
			(unsigned long long)P.st[i].s, (unsigned long long)P.st[i].e, P.st[i].pid,
			(unsigned long long)P.st[i].cpu);
}

static uint64_t clock_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* The controller: the injections, then the stop. */
static void *control_thread(void *arg)
{
	static const char *const plan[] = { "fifo_disp", "fifo_main", "hogs", "dataloader", "wake_behind",
					    "odirect", "mutex", "udp", "fifo_long" };
	size_t all = sizeof(plan) / sizeof(plan[0]) - 1;   /* fifo_long only when asked */
	int rc = 0;

	(void)arg;
	prctl(PR_SET_NAME, "hb_ctl");
	sleep_ms(NORMAL_MS);
	for (int r = 0; r < P.rounds && !rc; r++) {
		for (size_t i = 0; !P.plan && i < all && !rc; i++) {
			rc = inject(plan[i]);
			sleep_ms(NORMAL_MS);
		}
		for (const char *k = P.plan; k && *k && !rc; k += strcspn(k, ",") + (k[strcspn(k, ",")] == ',')) {
			size_t len = strcspn(k, ","), i = 0;

			/* the stretches keep the kind's pointer: the plan's own string */
			while (i < sizeof(plan) / sizeof(plan[0]) && (strlen(plan[i]) != len || strncmp(plan[i], k, len)))
				i++;
			if (i == sizeof(plan) / sizeof(plan[0])) {
				fprintf(stderr, "pipeline: unknown kind in %s\n", P.plan);
				rc = -1;
				break;
			}
			rc = inject(plan[i]);
			sleep_ms(NORMAL_MS);
		}
	}
	__atomic_store_n(&P.stop, 1, __ATOMIC_RELEASE);
	/* bump the words so a sleeper's futex_wait returns and sees the stop */
	__atomic_add_fetch(&P.head, 0, __ATOMIC_RELEASE);
	futex_wake(&P.head);
	futex_wake(&P.tail);
	P.rc = rc;
	return NULL;
}

/*
 * The main thread is the process's first thread, as python's is in torch_npu:
 * its comm is the one a shell that execs the workload gave it until the exec.
 */
int main(int argc, char **argv)
{
	pthread_t ct, dt, st;
	uint64_t real0, raw0;
	FILE *f;

	if (argc < 4) {
		fprintf(stderr, "usage: pipeline OUT_LOG MAIN_CPU DISPATCH_CPU [ROUNDS [KIND,...|all [normal]]]\n");
		return 2;
	}
	alarm(60);   /* spinners at a real-time priority: never for long, whatever goes wrong */
	P.main_cpu = atoi(argv[2]);
	P.disp_cpu = atoi(argv[3]);
	P.rounds = argc > 4 ? atoi(argv[4]) : 1;
	P.plan = argc > 5 && strcmp(argv[5], "all") ? argv[5] : NULL;
	P.normal = argc > 6 && !strcmp(argv[6], "normal");
	P.read_fd = -1;
	real0 = clock_ns(CLOCK_REALTIME);
	raw0 = raw_ns();
	pthread_mutex_init(&P.lock, NULL);
	pthread_create(&dt, NULL, dispatch_thread, NULL);
	pthread_create(&st, NULL, saver_thread, NULL);
	pthread_create(&ct, NULL, control_thread, NULL);
	main_thread(NULL);
	pthread_join(ct, NULL);
	pthread_join(dt, NULL);
	pthread_join(st, NULL);
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	write_log(f, raw0, real0, raw_ns(), clock_ns(CLOCK_REALTIME), clock_ns(CLOCK_MONOTONIC));
	return fclose(f) || P.rc ? 1 : 0;
}
