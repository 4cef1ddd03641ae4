// SPDX-License-Identifier: GPL-2.0
/*
 * A probe connected to markers by name, counting their hits.
 *
 * The markers named by the "markers" parameter (comma separated) need not
 * exist yet: the probe stays pending until a module defining them loads.
 * <debugfs>/probe-example/counts shows one "name hits" line per marker.
 */

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#define PROBE_MAX_MARKERS	8

static char *markers = "subsys_mark1,subsys_mark2,subsys_mark3,subsys_mark4";
module_param(markers, charp, 0444);
MODULE_PARM_DESC(markers, "Comma-separated marker names to count");

struct probe_counter {
	char *name;
	atomic64_t hits;
};

static struct probe_counter counters[PROBE_MAX_MARKERS];
static unsigned int nr_counters;
static struct dentry *probe_dir;

static void probe_count(void *data, const struct marker *m, const u64 *args)
{
	struct probe_counter *c = data;

	atomic64_inc(&c->hits);
}

DEFINE_MARKER_PROBE(count_probe, probe_count);

static int counts_show(struct seq_file *s, void *v)
{
	unsigned int i;

	for (i = 0; i < nr_counters; i++)
		seq_printf(s, "%s %lld\n", counters[i].name,
			   atomic64_read(&counters[i].hits));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(counts);

static void probe_disconnect(void)
{
	unsigned int i;

	for (i = 0; i < nr_counters; i++)
		marker_probe_unregister(counters[i].name, count_probe,
					&counters[i]);
	/* No call may still be counting into counters[] once we return. */
	marker_synchronize_unregister();
	for (i = 0; i < nr_counters; i++)
		kfree(counters[i].name);
	nr_counters = 0;
}

static int __init probe_init(void)
{
	char *list, *cur, *name;
	int ret = 0;

	list = kstrdup(markers, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	cur = list;
	while ((name = strsep(&cur, ",")) != NULL) {
		struct probe_counter *c = &counters[nr_counters];

		if (!*name)
			continue;
		if (nr_counters == PROBE_MAX_MARKERS) {
			ret = -E2BIG;
			break;
		}
		c->name = kstrdup(name, GFP_KERNEL);
		if (!c->name) {
			ret = -ENOMEM;
			break;
		}
		atomic64_set(&c->hits, 0);
		ret = marker_probe_register(c->name, NULL, count_probe, c);
		if (ret) {
			pr_err("cannot connect to %s: %d\n", c->name, ret);
			kfree(c->name);
			break;
		}
		nr_counters++;
	}
	kfree(list);
	if (ret) {
		probe_disconnect();
		return ret;
	}
	probe_dir = debugfs_create_dir("probe-example", NULL);
	debugfs_create_file("counts", 0444, probe_dir, NULL, &counts_fops);
	return 0;
}

static void __exit probe_exit(void)
{
	debugfs_remove(probe_dir);
	probe_disconnect();
}

module_init(probe_init);
module_exit(probe_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("@EXPORTER@");
MODULE_DESCRIPTION("Count hits of markers connected by name");
