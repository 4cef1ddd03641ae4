// SPDX-License-Identifier: GPL-2.0
/*
 * Marker sites in a module.
 *
 * Opening <debugfs>/marker-example/trigger hits subsys_mark1 ("%d %p") and
 * subsys_mark4 (no arguments); reading it hits subsys_mark2 ("%s") and
 * subsys_mark3 ("%llu %lx").  While no probe is connected each site is a
 * single NOP.  See probe-example.c for the probe side.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/marker.h>
#include <linux/module.h>

static struct dentry *example_dir;
static u64 example_reads;

static int example_open(struct inode *inode, struct file *file)
{
	MARK(subsys_mark1, "%d %p", 1, file);
	MARK(subsys_mark4, MARK_NOARGS);
	return 0;
}

static ssize_t example_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	static const char msg[] = "marker-example\n";

	MARK(subsys_mark2, "%s", current->comm);
	MARK(subsys_mark3, "%llu %lx", ++example_reads, (unsigned long)count);
	return simple_read_from_buffer(buf, count, ppos, msg, sizeof(msg) - 1);
}

static const struct file_operations example_fops = {
	.owner	= THIS_MODULE,
	.open	= example_open,
	.read	= example_read,
	.llseek	= default_llseek,
};

static int __init example_init(void)
{
	example_dir = debugfs_create_dir("marker-example", NULL);
	debugfs_create_file("trigger", 0444, example_dir, NULL, &example_fops);
	return 0;
}

static void __exit example_exit(void)
{
	debugfs_remove(example_dir);
}

module_init(example_init);
module_exit(example_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("Markers Team <markers@example.org>");
MODULE_DESCRIPTION("Marker sites hit from a debugfs file");
