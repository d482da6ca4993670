// SPDX-License-Identifier: MIT
/*
 * summary_tables.c - MindStudio Insight's Ftrace Task Summary, precomputed
 * (insight-import-contract.md sections 2.4 and 6, option 6.4 C).
 *
 * At import the server runs four statistics units that fill
 * trace_task_summary and trace_irq_detail from the DB's slices; each unit is
 * skipped when status_info holds its key with value FINISH. The sched unit
 * looks the CPU of a switch up on the task lane instead of the CPU lane, so
 * its context-switch counts only ever land on cpu -1 rows (section 6.2).
 * Here the same tables are computed the way the four units compute them,
 * except that a switch is counted on the row of the CPU lane it sits on, and
 * the four keys are set to FINISH so the server shows these numbers as they
 * are.
 *
 * This relies on the server's internal, undocumented behaviour: the table
 * schemas are copied from its CREATE TABLE statements, and the status key
 * strings FTRACE_TIME_STATISTICS, FTRACE_IRQ_STATISTICS,
 * FTRACE_SCHED_STATISTICS and FTRACE_IRQ_AGGREGATION are inferred from the
 * units' names (ConstantDefs.h:44-52 defines both on the same lines); the
 * status_info columns (id, key, value) are the contract's.
 *
 * Done in SQL over the rows just written, in one transaction after the
 * rows are committed: one scan of slice per unit, each summed by UPSERT into
 * a temp table as small as the number of (lane, key) pairs, so memory stays
 * flat with the input size and nothing sorts the whole input.
 */
#include "export/sink/summary_tables.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* Server rules (contract 3.3): tid "<comm>:<pid>" split at the last colon, pid all digits. */
static int split_task(const unsigned char *s, int n, int *comm_len, sqlite3_int64 *pid)
{
	int colon = -1;
	sqlite3_int64 v = 0;

	for (int i = 0; i < n; i++)
		if (s[i] == ':')
			colon = i;
	if (colon <= 0 || colon == n - 1)
		return -1;
	for (int i = colon + 1; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (sqlite3_int64)1 << 58)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*comm_len = colon;
	*pid = v;
	return 0;
}

/* fts_task_comm(tid): the comm part, NULL when tid is not "<comm>:<digits>". */
static void fn_task_comm(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char *s = sqlite3_value_text(argv[0]);
	int n = sqlite3_value_bytes(argv[0]), len;
	sqlite3_int64 pid;

	(void)argc;
	if (s && !split_task(s, n, &len, &pid))
		sqlite3_result_text(ctx, (const char *)s, len, SQLITE_TRANSIENT);
	else
		sqlite3_result_null(ctx);
}

/* fts_task_pid(tid): the pid part as an integer, NULL when tid does not parse. */
static void fn_task_pid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char *s = sqlite3_value_text(argv[0]);
	int n = sqlite3_value_bytes(argv[0]), len;
	sqlite3_int64 pid;

	(void)argc;
	if (s && !split_task(s, n, &len, &pid))
		sqlite3_result_int64(ctx, pid);
	else
		sqlite3_result_null(ctx);
}

/*
 * SQLite turns an integer sum that overflows into a REAL (and SUM() fails
 * with "integer overflow"): with durations near 2^63 (a read-back DB whose
 * slices span the whole range) a REAL would land in the INTEGER columns the
 * server reads with sqlite3_column_int64. Sums saturate at the int64 limits
 * instead: fts_add(a, b) for the UPSERTs, fts_sum(x) for the GROUP BYs.
 */
static sqlite3_int64 sat_add(sqlite3_int64 a, sqlite3_int64 b)
{
	sqlite3_int64 r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static void fn_add(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	sqlite3_result_int64(ctx, sat_add(sqlite3_value_int64(argv[0]), sqlite3_value_int64(argv[1])));
}

static void fn_sum_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3_int64 *acc = sqlite3_aggregate_context(ctx, sizeof(*acc));

	(void)argc;
	if (!acc) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (sqlite3_value_type(argv[0]) != SQLITE_NULL)
		*acc = sat_add(*acc, sqlite3_value_int64(argv[0]));
}

static void fn_sum_final(sqlite3_context *ctx)
{
	sqlite3_int64 *acc = sqlite3_aggregate_context(ctx, 0);

	sqlite3_result_int64(ctx, acc ? *acc : 0);
}

/* The server's own schema, so its CREATE IF NOT EXISTS / ALTER TABLE find nothing to do. */
#define KERNEL_COMM(c) \
	"(instr(" c ", 'migration') = 0 AND instr(" c ", 'swapper') = 0 AND instr(" c ", 'kworker') = 0)"
#define CPU_LANES \
	"(SELECT t.track_id, CAST(substr(t.tid, 5) AS INTEGER) AS cpu FROM thread t" \
	" JOIN process p ON p.pid = t.pid WHERE p.process_name = 'CPU Scheduling'" \
	" AND t.tid GLOB 'CPU [0-9]*' AND NOT substr(t.tid, 5) GLOB '*[^0-9]*')"

static const char *const summary_sql =
	"BEGIN;"
	"CREATE TABLE IF NOT EXISTS trace_task_summary ("
	" comm TEXT NOT NULL, pid INTEGER NOT NULL, cpu_id INTEGER NOT NULL,"
	" running_ns INTEGER DEFAULT 0, sleeping_ns INTEGER DEFAULT 0, runnable_ns INTEGER DEFAULT 0,"
	" cs_count INTEGER DEFAULT 0, cs_involuntary_count INTEGER DEFAULT 0,"
	" soft_irq_count INTEGER DEFAULT 0, soft_irq_duration INTEGER DEFAULT 0,"
	" hard_irq_count INTEGER DEFAULT 0, hard_irq_duration INTEGER DEFAULT 0,"
	" PRIMARY KEY (comm, pid, cpu_id));"
	"CREATE TABLE IF NOT EXISTS trace_irq_detail ("
	" comm TEXT NOT NULL, pid INTEGER NOT NULL, cpu_id INTEGER NOT NULL,"
	" irq_type TEXT NOT NULL, irq_name TEXT NOT NULL,"
	" count INTEGER DEFAULT 0, time_ns INTEGER DEFAULT 0,"
	" PRIMARY KEY (comm, pid, cpu_id, irq_type, irq_name));"
	"CREATE TABLE IF NOT EXISTS status_info (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" key TEXT, value TEXT);"
	/*
	 * Each unit is one scan of slice, summed into a small temp table keyed
	 * by lane and the raw args it needs (an UPSERT per row: no sort of the
	 * whole input), then reduced to the server's keys.
	 *
	 * FTRACE_TIME_STATISTICS: per (comm, pid, cpu) of the task lanes, the
	 * summed durations of Running/Runnable/Sleeping; cpu is args.cpu
	 * (std::stoi: a leading integer, else -1). Every key gets a row.
	 */
	"CREATE TEMP TABLE fts_task_lane AS SELECT t.track_id AS track_id,"
	" fts_task_comm(t.tid) AS comm, fts_task_pid(t.tid) AS pid FROM thread t"
	" JOIN process p ON p.pid = t.pid WHERE p.process_name = 'Process Scheduling'"
	" AND fts_task_comm(t.tid) IS NOT NULL;"
	"CREATE TEMP TABLE fts_time (track_id INTEGER NOT NULL, cpu INTEGER NOT NULL,"
	" run INTEGER, rnb INTEGER, slp INTEGER, PRIMARY KEY (track_id, cpu)) WITHOUT ROWID;"
	"INSERT INTO fts_time SELECT track_id,"
	"  CASE WHEN c GLOB '[0-9]*' OR c GLOB '-[0-9]*' THEN CAST(c AS INTEGER) ELSE -1 END,"
	"  CASE WHEN name = 'Running' THEN duration ELSE 0 END,"
	"  CASE WHEN name = 'Runnable' THEN duration ELSE 0 END,"
	"  CASE WHEN name = 'Sleeping' THEN duration ELSE 0 END"
	" FROM (SELECT track_id, name, duration, json_extract(args, '$.cpu') AS c FROM slice"
	"       WHERE name IN ('Running', 'Runnable', 'Sleeping')) WHERE 1"
	" ON CONFLICT DO UPDATE SET run = fts_add(run, excluded.run), rnb = fts_add(rnb, excluded.rnb),"
	"  slp = fts_add(slp, excluded.slp);"
	"INSERT INTO trace_task_summary (comm, pid, cpu_id, running_ns, sleeping_ns, runnable_ns)"
	" SELECT l.comm, l.pid, t.cpu, fts_sum(t.run), fts_sum(t.slp), fts_sum(t.rnb)"
	" FROM fts_time t JOIN fts_task_lane l ON l.track_id = t.track_id"
	" GROUP BY l.comm, l.pid, t.cpu;"
	/*
	 * FTRACE_IRQ_STATISTICS: irq/softirq slices on CPU lanes, per (task
	 * comm, task pid, lane cpu, slice name, irq name: args.name for irq,
	 * args.action for softirq). Skipped: task exactly "<idle>" or not
	 * "<comm>:<pid>", kernel comms, an empty irq name.
	 */
	"CREATE TEMP TABLE fts_irq (track_id INTEGER NOT NULL, name TEXT NOT NULL,"
	" task TEXT NOT NULL, irq_name TEXT NOT NULL, n INTEGER, ns INTEGER,"
	" PRIMARY KEY (track_id, name, task, irq_name)) WITHOUT ROWID;"
	"INSERT INTO fts_irq SELECT track_id, name,"
	"  COALESCE(json_extract(args, '$.task'), ''),"
	"  COALESCE(json_extract(args, CASE name WHEN 'irq' THEN '$.name' ELSE '$.action' END), ''),"
	"  1, duration"
	" FROM slice WHERE name IN ('irq', 'softirq')"
	" ON CONFLICT DO UPDATE SET n = n + 1, ns = fts_add(ns, excluded.ns);"
	"INSERT INTO trace_irq_detail (comm, pid, cpu_id, irq_type, irq_name, count, time_ns)"
	" SELECT fts_task_comm(i.task) AS comm, fts_task_pid(i.task), c.cpu, i.name, i.irq_name,"
	"  fts_sum(i.n), fts_sum(i.ns)"
	" FROM fts_irq i JOIN " CPU_LANES " c ON c.track_id = i.track_id"
	" WHERE i.task <> '<idle>' AND fts_task_comm(i.task) IS NOT NULL"
	"  AND " KERNEL_COMM("fts_task_comm(i.task)") " AND i.irq_name <> ''"
	" GROUP BY 1, 2, 3, 4, 5;"
	/*
	 * FTRACE_SCHED_STATISTICS: one switch per CPU-lane sched_switch, keyed by
	 * (prev_comm, prev_pid) and, unlike the server, the CPU of that lane;
	 * involuntary when prev_state is exactly "R" (the server's rule: "R+"
	 * is not counted). Kernel comms are skipped; counts are added to
	 * existing rows only, as the server's UPDATE does.
	 */
	"CREATE TEMP TABLE fts_cs (track_id INTEGER NOT NULL, comm TEXT NOT NULL,"
	" pid TEXT NOT NULL, n INTEGER, inv INTEGER,"
	" PRIMARY KEY (track_id, comm, pid)) WITHOUT ROWID;"
	"INSERT INTO fts_cs SELECT track_id,"
	"  COALESCE(json_extract(args, '$.prev_comm'), ''),"
	"  COALESCE(json_extract(args, '$.prev_pid'), ''), 1,"
	"  json_extract(args, '$.prev_state') IS 'R'"
	" FROM slice WHERE name = 'sched_switch'"
	" ON CONFLICT DO UPDATE SET n = n + 1, inv = inv + excluded.inv;"
	"UPDATE trace_task_summary SET cs_count = fts_add(cs_count, x.n),"
	" cs_involuntary_count = fts_add(cs_involuntary_count, x.inv)"
	" FROM (SELECT s.comm AS comm, CAST(s.pid AS INTEGER) AS pid, c.cpu AS cpu,"
	"        fts_sum(s.n) AS n, fts_sum(s.inv) AS inv"
	"       FROM fts_cs s JOIN " CPU_LANES " c ON c.track_id = s.track_id"
	"       WHERE s.comm <> '' AND " KERNEL_COMM("s.comm")
	"        AND s.pid GLOB '[0-9]*' AND NOT s.pid GLOB '*[^0-9]*'"
	"       GROUP BY 1, 2, 3) x"
	" WHERE trace_task_summary.comm = x.comm AND trace_task_summary.pid = x.pid"
	"  AND trace_task_summary.cpu_id = x.cpu;"
	/*
	 * FTRACE_IRQ_AGGREGATION: trace_irq_detail summed per (comm, pid, cpu,
	 * type) onto the task row with the same key; "softirq" to the soft
	 * columns, any other type to the hard ones; no row, no numbers.
	 */
	"UPDATE trace_task_summary SET"
	" soft_irq_count = fts_add(soft_irq_count, x.sc),"
	" soft_irq_duration = fts_add(soft_irq_duration, x.st),"
	" hard_irq_count = fts_add(hard_irq_count, x.hc),"
	" hard_irq_duration = fts_add(hard_irq_duration, x.ht)"
	" FROM (SELECT comm, pid, cpu_id,"
	"        fts_sum(CASE WHEN irq_type = 'softirq' THEN count ELSE 0 END) AS sc,"
	"        fts_sum(CASE WHEN irq_type = 'softirq' THEN time_ns ELSE 0 END) AS st,"
	"        fts_sum(CASE WHEN irq_type <> 'softirq' THEN count ELSE 0 END) AS hc,"
	"        fts_sum(CASE WHEN irq_type <> 'softirq' THEN time_ns ELSE 0 END) AS ht"
	"       FROM trace_irq_detail GROUP BY comm, pid, cpu_id) x"
	" WHERE trace_task_summary.comm = x.comm AND trace_task_summary.pid = x.pid"
	"  AND trace_task_summary.cpu_id = x.cpu_id;"
	"DROP TABLE temp.fts_task_lane; DROP TABLE temp.fts_time; DROP TABLE temp.fts_irq;"
	"DROP TABLE temp.fts_cs;"
	/* key strings inferred from the unit names; the server skips a unit whose key says FINISH */
	"INSERT INTO status_info (key, value) VALUES"
	" ('FTRACE_TIME_STATISTICS', 'FINISH'), ('FTRACE_IRQ_STATISTICS', 'FINISH'),"
	" ('FTRACE_SCHED_STATISTICS', 'FINISH'), ('FTRACE_IRQ_AGGREGATION', 'FINISH');"
	"COMMIT;";

int fts_summary_tables_write(sqlite3 *db, const char *target, struct fts_err *err)
{
	char *msg = NULL;
	int code, rc;

	if (sqlite3_create_function_v2(db, "fts_task_comm", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				       NULL, fn_task_comm, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function_v2(db, "fts_task_pid", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				       NULL, fn_task_pid, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function_v2(db, "fts_add", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				       NULL, fn_add, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function_v2(db, "fts_sum", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				       NULL, NULL, fn_sum_step, fn_sum_final, NULL) != SQLITE_OK)
		return fts_err_set(err, -ENOMEM, "%s: cannot register SQL functions: %s", target,
				   sqlite3_errmsg(db));
	if (sqlite3_exec(db, summary_sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	code = sqlite3_errcode(db);
	rc = code == SQLITE_FULL ? -ENOSPC : code == SQLITE_NOMEM ? -ENOMEM : -EIO;
	fts_err_set(err, rc, "%s: cannot write the task summary tables: %s", target,
		    msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK;", NULL, NULL, NULL);
	return rc;
}
