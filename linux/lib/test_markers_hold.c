// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: a probe that holds one hit of a marker in the sites' read
 * side, so that tools/testing/selftests/markers/owners.sh can remove what
 * a later probe of the same hit uses (a trace instance, a raw tracepoint
 * link) while that hit is in flight.
 *
 * Loaded with marker=<name>, it connects its probe to that marker before
 * the test connects the probe under test, so a hit calls it first.  The
 * first hit from a task then spins in it until root writes "removed" to
 * the "step" parameter or hold_ms pass.  A hit held preemptible, in no
 * RCU reader, ends hold_ms after the probe under test was unregistered,
 * or a minute after it entered: a removal that shares its CPU under
 * emulation can take longer than hold_ms to get there, and a hold that
 * ended first would test nothing.  A removal that waits for the
 * probes in flight, as it must before freeing what they use, cannot
 * return before the hold ends: the test writes "removing" before it
 * starts the removal and "removed" once the removal returned.  The
 * "state" parameter reads "<entered> <ended> <removing> <removed>
 * <unregistered> <preemptible> <cpu>": whether a hit entered the hold,
 * whether the hold ended, what the hold had seen of the removal when it
 * ended, whether the marker's probes changed meanwhile (the removal got
 * as far as unregistering the probe under test), whether the hit was
 * held preemptible, and on which CPU.  "removed" there is the failure:
 * the removal returned while a probe of the hit was still to run.
 *
 * Loaded with fail_load=<module> instead (the name as /proc/modules has
 * it), it holds the first load of that module in the module notifier
 * chain, after the markers core's notifier and before the marker events',
 * until root writes "removed" to "step" or hold_ms pass, then fails every
 * load of that module with -EBUSY: the test loads another module with
 * markers meanwhile, whose load updates the marker events while the held
 * module's markers are registered.  "state" then reads whether a load
 * entered the hold and whether the hold ended, the others 0, the cpu -1.
 * That hold sleeps, so hold_ms is not capped for it.
 */

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/processor.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/sysfs.h>

static char *marker;
module_param(marker, charp, 0400);
MODULE_PARM_DESC(marker, "the marker whose first hit is held");

static char *fail_load;
module_param(fail_load, charp, 0400);
MODULE_PARM_DESC(fail_load, "module (named with '_') whose loads fail, the first held");

static unsigned int hold_ms = 4000;
module_param(hold_ms, uint, 0400);
MODULE_PARM_DESC(hold_ms, "hold, in milliseconds (a hit's at most 10000, from the unregistering if preemptible)");

static atomic_t tmh_entered;	/* a hit entered the hold */
static atomic_t tmh_ended;	/* ... and left it */
static atomic_t tmh_removing;	/* the removal under test started */
static atomic_t tmh_removed;	/* ... and returned */
static bool tmh_removing_in_hit;	/* what the hold saw when it ended */
static bool tmh_removed_in_hit;
static DECLARE_COMPLETION(tmh_release);	/* ends a held load */
static bool tmh_unregistered;	/* the probes changed during the hold */
static bool tmh_preemptible;	/* the hit was held preemptible */
static int tmh_cpu = -1;	/* where */

/*
 * A spin, not a sleep: a hit may come with preemption disabled.  Only a
 * task's hit is held (not one from an interrupt), and the hold is timed
 * with a clock that does not need this CPU's ticks.  Held with preemption
 * disabled or in an RCU reader, it ends after hold_ms (at most 10 s,
 * below the soft lockup and RCU stall limits).  Held preemptible in a
 * preemptible kernel, no CPU stalls on it, only the tasks that wait for
 * tracepoint_srcu readers (the removal, any other
 * tracepoint_synchronize_unregister()); it waits up to TMH_WAIT_MS for
 * the probes to change and ends hold_ms after they did, below the
 * default hung task limit (120 s).
 */
#define TMH_WAIT_MS	60000

static void tmh_probe(void *data, const struct marker *m, const u64 *args)
{
	const void *funcs = rcu_access_pointer(m->funcs);
	u64 now, end;

	if (!in_task() || atomic_xchg(&tmh_entered, 1))
		return;
	tmh_preemptible = IS_ENABLED(CONFIG_PREEMPTION) && preemptible() &&
			  !rcu_preempt_depth();
	tmh_cpu = raw_smp_processor_id();
	now = ktime_get_mono_fast_ns();
	end = now + (u64)(tmh_preemptible ? TMH_WAIT_MS : hold_ms) * NSEC_PER_MSEC;
	while (!atomic_read(&tmh_removed) && now < end) {
		if (!tmh_unregistered && rcu_access_pointer(m->funcs) != funcs) {
			tmh_unregistered = true;
			end = min(end, now + (u64)hold_ms * NSEC_PER_MSEC);
		}
		cpu_relax();
		now = ktime_get_mono_fast_ns();
	}
	tmh_removing_in_hit = atomic_read(&tmh_removing);
	tmh_removed_in_hit = atomic_read(&tmh_removed);
	if (rcu_access_pointer(m->funcs) != funcs)
		tmh_unregistered = true;
	atomic_set_release(&tmh_ended, 1);
}

/*
 * Registered after the markers core's module notifier, at its priority:
 * runs after it and before the marker events' one (priority -1).
 */
static int tmh_module_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct module *mod = data;

	if (action != MODULE_STATE_COMING || strcmp(mod->name, fail_load))
		return NOTIFY_DONE;
	if (!atomic_xchg(&tmh_entered, 1)) {
		wait_for_completion_timeout(&tmh_release,
					    msecs_to_jiffies(hold_ms));
		atomic_set_release(&tmh_ended, 1);
	}
	return notifier_from_errno(-EBUSY);
}

static struct notifier_block tmh_module_nb = {
	.notifier_call = tmh_module_notify,
	.priority = 0,
};

static int tmh_step_set(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "removing")) {
		atomic_set(&tmh_removing, 1);
	} else if (sysfs_streq(val, "removed")) {
		atomic_set(&tmh_removed, 1);
		complete_all(&tmh_release);
	} else {
		return -EINVAL;
	}
	return 0;
}

static const struct kernel_param_ops tmh_step_ops = {
	.set = tmh_step_set,
};
module_param_cb(step, &tmh_step_ops, NULL, 0200);
MODULE_PARM_DESC(step, "removing or removed");

static int tmh_state_get(char *buf, const struct kernel_param *kp)
{
	bool ended = atomic_read_acquire(&tmh_ended);

	return sysfs_emit(buf, "%d %d %d %d %d %d %d\n",
			  atomic_read(&tmh_entered), ended,
			  ended && tmh_removing_in_hit,
			  ended && tmh_removed_in_hit,
			  ended && tmh_unregistered,
			  ended && tmh_preemptible, ended ? tmh_cpu : -1);
}

static const struct kernel_param_ops tmh_state_ops = {
	.get = tmh_state_get,
};
module_param_cb(state, &tmh_state_ops, NULL, 0400);
MODULE_PARM_DESC(state, "entered, ended, removing, removed, unregistered, preemptible, cpu");

static int __init tmh_init(void)
{
	if (fail_load && *fail_load) {
		if (marker)
			return -EINVAL;
		return register_module_notifier(&tmh_module_nb);
	}
	if (!marker || !*marker)
		return -EINVAL;
	/* The probe spins: keep it well below the soft lockup limit. */
	hold_ms = min(hold_ms, 10000U);
	return marker_probe_register(marker, NULL, tmh_probe, NULL);
}
module_init(tmh_init);

static void __exit tmh_exit(void)
{
	/* End a hold still in progress; what follows waits for it. */
	atomic_set(&tmh_removed, 1);
	complete_all(&tmh_release);
	if (fail_load && *fail_load) {
		unregister_module_notifier(&tmh_module_nb);
	} else {
		marker_probe_unregister(marker, tmh_probe, NULL);
		marker_synchronize_unregister();
	}
}
module_exit(tmh_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers test: hold a marker hit in the sites' read side, or a module load");
