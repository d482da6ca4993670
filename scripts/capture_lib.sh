# SPDX-License-Identifier: MIT
# Sourced by the scripts that make real captures (assets/sample/make_sample.sh,
# tests/data/make_fixtures.sh, bench/make_input.sh): the event set ftscope
# records and the setup of a private tracefs instance. Never the global files.
FTS_EVENTS="sched/sched_switch sched/sched_wakeup sched/sched_waking sched/sched_wakeup_new
sched/sched_migrate_task sched/sched_stat_runtime sched/sched_process_fork
sched/sched_process_exec sched/sched_process_exit irq/irq_handler_entry
irq/irq_handler_exit irq/softirq_raise irq/softirq_entry irq/softirq_exit"

# fts_instance_setup DIR BUFFER_KB: tracing off, mono_raw clock, buffer size, events on
fts_instance_setup() {
	echo 0 > "$1/tracing_on"            # a new instance starts with tracing_on=1
	echo mono_raw > "$1/trace_clock"
	echo "$2" > "$1/buffer_size_kb"
	local e
	for e in $FTS_EVENTS; do echo 1 > "$1/events/$e/enable"; done
}
