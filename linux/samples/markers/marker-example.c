// SPDX-License-Identifier: GPL-2.0
/*
 * Marker sites in a module.
 *
 * Opening <debugfs>/marker-example/trigger hits subsys_mark1 ("nr=%d
 * file=%p") and subsys_mark4 (no arguments); reading it hits subsys_mark2
 * ("comm=%s") and subsys_mark3 ("reads=%llu count=%lx").  Writing N to
 * <debugfs>/marker-example/irq hits example_irq ("ctx=%d seq=%u": 1 in
 * hardirq, 2 in softirq context, and a sequence number) N times from a
 * hard and N times from a soft hrtimer, and returns once both have run.
 * Reading <debugfs>/marker-example/strings hits example_str ("nr=%d
 * str=%s") with three bad strings: NULL, an address nothing maps, and 512
 * bytes without a terminating NUL.  Reading <debugfs>/marker-example/values
 * hits example_packed ("%c %d %c %lld", fields arg0 to arg3) and
 * example_wide ("c1=%c i=%d c2=%c ll=%lld u=%u x=%lx") with fixed values,
 * negative ones and chars next to wider fields included.  While no probe
 * is connected each site is a single NOP.  See probe-example.c for the
 * probe side.
 */

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kstrtox.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>

#define EXAMPLE_IRQ_MAX		100000
#define EXAMPLE_IRQ_PERIOD_NS	20000

static struct dentry *example_dir;
/* Readers on several CPUs count at once. */
static atomic64_t example_reads = ATOMIC64_INIT(0);

/* One hrtimer per context; example_irq_mutex serialises the writers. */
struct example_irq {
	struct hrtimer timer;
	struct completion done;
	unsigned int left;
	unsigned int seq;
};

static DEFINE_MUTEX(example_irq_mutex);
static struct example_irq example_hard, example_soft;

static enum hrtimer_restart example_irq_fire(struct hrtimer *t)
{
	struct example_irq *e = container_of(t, struct example_irq, timer);
	int ctx = in_hardirq() ? 1 : in_serving_softirq() ? 2 : 0;

	MARK(example_irq, "ctx=%d seq=%u", ctx, ++e->seq);
	if (--e->left) {
		hrtimer_forward_now(t, ns_to_ktime(EXAMPLE_IRQ_PERIOD_NS));
		return HRTIMER_RESTART;
	}
	complete(&e->done);
	return HRTIMER_NORESTART;
}

static void example_irq_start(struct example_irq *e, unsigned int n,
			      enum hrtimer_mode mode)
{
	e->left = n;
	reinit_completion(&e->done);
	hrtimer_start(&e->timer, ns_to_ktime(EXAMPLE_IRQ_PERIOD_NS), mode);
}

static ssize_t example_irq_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	if (!n || n > EXAMPLE_IRQ_MAX)
		return -EINVAL;

	guard(mutex)(&example_irq_mutex);
	example_irq_start(&example_hard, n, HRTIMER_MODE_REL_HARD);
	example_irq_start(&example_soft, n, HRTIMER_MODE_REL_SOFT);
	wait_for_completion(&example_hard.done);
	wait_for_completion(&example_soft.done);
	return count;
}

/* Not NUL-terminated: the recorder must stop at its own bound. */
static char example_unterminated[512] __nonstring;

static ssize_t example_strings_read(struct file *file, char __user *buf,
				    size_t count, loff_t *ppos)
{
	/* In an array, so the compiler does not see the NULL at the site. */
	static const char * const bad[] = {
		NULL, (const char *)16, example_unterminated,
	};
	int i;

	if (*ppos)
		return 0;
	memset(example_unterminated, 'x', sizeof(example_unterminated));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		MARK(example_str, "nr=%d str=%s", i + 1, bad[i]);
	return 0;
}

static ssize_t example_values_read(struct file *file, char __user *buf,
				   size_t count, loff_t *ppos)
{
	if (*ppos)
		return 0;
	/* No names: the fields are arg0 ... arg3. */
	MARK(example_packed, "%c %d %c %lld", 'a', -5, 'z', -1234567890123LL);
	MARK(example_wide, "c1=%c i=%d c2=%c ll=%lld u=%u x=%lx", 'b', -6, 'y',
	     -9876543210LL, 4000000000U, 0xdeadbeefUL);
	return 0;
}

static const struct file_operations example_values_fops = {
	.owner	= THIS_MODULE,
	.read	= example_values_read,
	.llseek	= noop_llseek,
};

static const struct file_operations example_strings_fops = {
	.owner	= THIS_MODULE,
	.read	= example_strings_read,
	.llseek	= noop_llseek,
};

static const struct file_operations example_irq_fops = {
	.owner	= THIS_MODULE,
	.write	= example_irq_write,
	.llseek	= noop_llseek,
};

static int example_open(struct inode *inode, struct file *file)
{
	MARK(subsys_mark1, "nr=%d file=%p", 1, file);
	MARK(subsys_mark4, MARK_NOARGS);
	return 0;
}

static ssize_t example_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	static const char msg[] = "marker-example\n";

	MARK(subsys_mark2, "comm=%s", current->comm);
	MARK(subsys_mark3, "reads=%llu count=%lx",
	     (u64)atomic64_inc_return(&example_reads), (unsigned long)count);
	return simple_read_from_buffer(buf, count, ppos, msg, sizeof(msg) - 1);
}

static const struct file_operations example_fops = {
	.owner	= THIS_MODULE,
	.open	= example_open,
	.read	= example_read,
	.llseek	= default_llseek,
};

static void example_irq_init(struct example_irq *e, enum hrtimer_mode mode)
{
	hrtimer_setup(&e->timer, example_irq_fire, CLOCK_MONOTONIC, mode);
	init_completion(&e->done);
}

static int __init example_init(void)
{
	example_irq_init(&example_hard, HRTIMER_MODE_REL_HARD);
	example_irq_init(&example_soft, HRTIMER_MODE_REL_SOFT);
	example_dir = debugfs_create_dir("marker-example", NULL);
	debugfs_create_file("trigger", 0444, example_dir, NULL, &example_fops);
	debugfs_create_file("irq", 0200, example_dir, NULL, &example_irq_fops);
	debugfs_create_file("strings", 0400, example_dir, NULL,
			    &example_strings_fops);
	debugfs_create_file("values", 0400, example_dir, NULL,
			    &example_values_fops);
	return 0;
}

static void __exit example_exit(void)
{
	/* No writer is left once the files are gone; the timers are idle. */
	debugfs_remove(example_dir);
	hrtimer_cancel(&example_hard.timer);
	hrtimer_cancel(&example_soft.timer);
}

module_init(example_init);
module_exit(example_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("@EXPORTER@");
MODULE_DESCRIPTION("Marker sites hit from a debugfs file");
