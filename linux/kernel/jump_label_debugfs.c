// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs listing of static keys, their sites and the patching counters.
 *
 * In <debugfs>/static_keys/:
 *
 *	keys	one line per key: symbol, enabled, count, default
 *		(true/false), owner, number of sites, number of those
 *		whose instruction is not the one the key selects
 *	sites	one line per site: address, size, current instruction
 *		(nop, jmp, init for init text, which is not read, ? for
 *		anything else), key
 *	stats	applied batches, sites and static_call pokes patched by
 *		them, text_poke batches, IPI rounds since boot
 *
 * The listings walk the jump tables of vmlinux and of each module, in that
 * order.  Each table is sorted by key then address (jump_label_init() and
 * jump_label_add_module() sort them), so a key's sites are contiguous in a
 * table and can be found in another table by binary search.
 *
 * Locking: jl_dbg_mods and the tables are read under jump_label_mutex,
 * held from seq_start to seq_stop; the module notifiers take it too.  A
 * module is listed only while the jump label core tracks it, so a listed
 * table is sorted and its sites patched as their keys change.
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/jump_label_batch.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string_choices.h>
#include <linux/uaccess.h>
#include <asm/sections.h>
#ifdef CONFIG_X86
#include <linux/text-patching.h>
#include <asm/nops.h>
#endif

/**
 * struct jl_dbg_mod - a module with a jump table
 * @list: in jl_dbg_mods, in load order
 * @mod: the module
 */
struct jl_dbg_mod {
	struct list_head list;
	struct module *mod;
};

static LIST_HEAD(jl_dbg_mods);

/**
 * struct jl_dbg_iter - seq_file cursor
 * @dm: current module table, NULL for vmlinux
 * @start: first entry of the current table
 * @stop: end of the current table
 * @entry: current entry
 */
struct jl_dbg_iter {
	struct jl_dbg_mod *dm;
	struct jump_entry *start;
	struct jump_entry *stop;
	struct jump_entry *entry;
};

static void jl_dbg_set_table(struct jl_dbg_iter *it, struct jl_dbg_mod *dm)
{
	it->dm = dm;
	if (dm) {
		it->start = dm->mod->jump_entries;
		it->stop = it->start + dm->mod->num_jump_entries;
	} else {
		it->start = __start___jump_table;
		it->stop = __stop___jump_table;
	}
	it->entry = it->start;
}

/* Move to the next table that has entries; false past the last one. */
static bool jl_dbg_next_table(struct jl_dbg_iter *it)
{
	struct list_head *next = it->dm ? it->dm->list.next : jl_dbg_mods.next;

	while (next != &jl_dbg_mods) {
		jl_dbg_set_table(it, list_entry(next, struct jl_dbg_mod, list));
		if (it->start != it->stop)
			return true;
		next = next->next;
	}
	return false;
}

static void *jl_dbg_seek(struct jl_dbg_iter *it, loff_t pos)
{
	jl_dbg_set_table(it, NULL);
	if (it->start == it->stop && !jl_dbg_next_table(it))
		return NULL;

	while (pos >= it->stop - it->entry) {
		pos -= it->stop - it->entry;
		if (!jl_dbg_next_table(it))
			return NULL;
	}
	it->entry += pos;
	return it;
}

static void *jl_dbg_start(struct seq_file *m, loff_t *pos)
{
	jump_label_lock();
	return jl_dbg_seek(m->private, *pos);
}

static void *jl_dbg_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct jl_dbg_iter *it = v;

	++*pos;
	if (++it->entry < it->stop)
		return it;
	return jl_dbg_next_table(it) ? it : NULL;
}

static void jl_dbg_stop(struct seq_file *m, void *v)
{
	jump_label_unlock();
}

enum jl_dbg_kind { JL_DBG_NOP, JL_DBG_JMP, JL_DBG_UNKNOWN, JL_DBG_INIT };

static const char * const jl_dbg_kind_names[] = {
	[JL_DBG_NOP] = "nop",
	[JL_DBG_JMP] = "jmp",
	[JL_DBG_UNKNOWN] = "?",
	[JL_DBG_INIT] = "init",
};

static_assert(ARRAY_SIZE(jl_dbg_kind_names) == JL_DBG_INIT + 1);

/* The instruction the state of @entry's key selects, as jump_label_type(). */
static enum jl_dbg_kind jl_dbg_want(const struct jump_entry *entry)
{
	bool jmp = static_key_enabled(jump_entry_key(entry)) ^
		   jump_entry_is_branch(entry);

	return jmp ? JL_DBG_JMP : JL_DBG_NOP;
}

#ifdef CONFIG_X86
/* Whether the @size byte jump @insn at @entry goes to its target. */
static bool jl_dbg_jmp_ok(struct jump_entry *entry, const u8 *insn, int size)
{
	long rel = (long)jump_entry_target(entry) -
		   (long)(jump_entry_code(entry) + size);
	s32 rel32;

	if (size == JMP8_INSN_SIZE)
		return (s8)insn[1] == rel;
	memcpy(&rel32, insn + 1, sizeof(rel32));
	return rel32 == rel;
}

/*
 * Read the instruction at @entry without decoding it first:
 * jump_entry_size() decodes the text and BUG()s on anything but a 2 or
 * 5 byte instruction, where an int3 left behind is exactly what this
 * listing must report.
 */
static enum jl_dbg_kind jl_dbg_read(struct jump_entry *entry, int *size)
{
	static const u8 opcodes[] = { JMP8_INSN_OPCODE, JMP32_INSN_OPCODE };
	static const int sizes[] = { JMP8_INSN_SIZE, JMP32_INSN_SIZE };
	void *addr = (void *)jump_entry_code(entry);
	u8 insn[JMP32_INSN_SIZE];
	int i, n;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		n = sizes[i];
		if (copy_from_kernel_nofault(insn, addr, n))
			break;
		if (insn[0] == opcodes[i] && jl_dbg_jmp_ok(entry, insn, n)) {
			*size = n;
			return JL_DBG_JMP;
		}
		if (!memcmp(insn, x86_nops[n], n)) {
			*size = n;
			return JL_DBG_NOP;
		}
	}
	/* An int3 left behind, a jump elsewhere: reported as is. */
	*size = 0;
	return JL_DBG_UNKNOWN;
}
#else
/* Elsewhere the text is not read: the instruction the key selects. */
static enum jl_dbg_kind jl_dbg_read(struct jump_entry *entry, int *size)
{
	*size = jump_entry_size(entry);
	return jl_dbg_want(entry);
}
#endif

/*
 * The instruction now at @entry and its size, 0 if unknown; init text
 * may be gone, so it is not read.
 */
static enum jl_dbg_kind jl_dbg_insn(struct jump_entry *entry, int *size)
{
	*size = 0;
	if (jump_entry_is_init(entry))
		return JL_DBG_INIT;
	return jl_dbg_read(entry, size);
}

/*
 * Whether the instruction at @entry is not the one the state of its key
 * selects, as jump_label_type() does.  Called under jump_label_mutex,
 * so no update of the key is half done.
 */
static bool jl_dbg_mismatch(struct jump_entry *entry)
{
	enum jl_dbg_kind kind;
	int size;

	kind = jl_dbg_insn(entry, &size);
	return kind != JL_DBG_INIT && kind != jl_dbg_want(entry);
}

/*
 * Number of @key's entries in [@start, @stop), sorted by key; if
 * @mismatch, add to it those whose instruction does not match the key.
 */
static unsigned int jl_dbg_count(struct jump_entry *start,
				 struct jump_entry *stop,
				 struct static_key *key, unsigned int *mismatch)
{
	struct jump_entry *lo = start, *hi = stop, *mid;
	unsigned int n = 0;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((unsigned long)jump_entry_key(mid) < (unsigned long)key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < stop && jump_entry_key(lo) == key; lo++) {
		if (mismatch && jl_dbg_mismatch(lo))
			(*mismatch)++;
		n++;
	}
	return n;
}

static unsigned int jl_dbg_count_mod(struct jl_dbg_mod *dm,
				     struct static_key *key,
				     unsigned int *mismatch)
{
	struct jump_entry *start = dm->mod->jump_entries;

	return jl_dbg_count(start, start + dm->mod->num_jump_entries, key,
			    mismatch);
}

static void jl_dbg_key_line(struct seq_file *m, struct static_key *key,
			    unsigned int sites, unsigned int mismatch)
{
	struct module *mod;

	preempt_disable();
	mod = __module_address((unsigned long)key);
	seq_printf(m, "%ps %d %d %s %s %u %u\n", key, static_key_enabled(key),
		   static_key_count(key),
		   str_true_false(key->type & JUMP_TYPE_TRUE),
		   mod ? mod->name : "vmlinux", sites, mismatch);
	preempt_enable();
}

static int jl_dbg_keys_show(struct seq_file *m, void *v)
{
	struct jl_dbg_iter *it = v;
	struct static_key *key = jump_entry_key(it->entry);
	struct jl_dbg_mod *dm;
	unsigned int sites, mismatch = 0;

	if (it->entry == __start___jump_table)
		seq_puts(m, "# key enabled count default owner sites mismatch\n");

	/* Once per key: its first entry in the first table that uses it. */
	if (it->entry != it->start && jump_entry_key(it->entry - 1) == key)
		return 0;
	if (it->dm) {
		if (jl_dbg_count(__start___jump_table, __stop___jump_table, key,
				 NULL))
			return 0;
		list_for_each_entry(dm, &jl_dbg_mods, list) {
			if (dm == it->dm)
				break;
			if (jl_dbg_count_mod(dm, key, NULL))
				return 0;
		}
	}

	/* This table and the later ones. */
	sites = jl_dbg_count(it->entry, it->stop, key, &mismatch);
	if (it->dm) {
		dm = it->dm;
		list_for_each_entry_continue(dm, &jl_dbg_mods, list)
			sites += jl_dbg_count_mod(dm, key, &mismatch);
	} else {
		list_for_each_entry(dm, &jl_dbg_mods, list)
			sites += jl_dbg_count_mod(dm, key, &mismatch);
	}

	jl_dbg_key_line(m, key, sites, mismatch);
	return 0;
}

static int jl_dbg_sites_show(struct seq_file *m, void *v)
{
	struct jl_dbg_iter *it = v;
	struct jump_entry *entry = it->entry;
	enum jl_dbg_kind kind;
	int size;

	if (entry == __start___jump_table)
		seq_puts(m, "# address size insn key\n");
	kind = jl_dbg_insn(entry, &size);
	seq_printf(m, "%pS %d %s %ps\n", (void *)jump_entry_code(entry), size,
		   jl_dbg_kind_names[kind], jump_entry_key(entry));
	return 0;
}

static const struct seq_operations jl_dbg_keys_sops = {
	.start = jl_dbg_start,
	.next = jl_dbg_next,
	.stop = jl_dbg_stop,
	.show = jl_dbg_keys_show,
};

static const struct seq_operations jl_dbg_sites_sops = {
	.start = jl_dbg_start,
	.next = jl_dbg_next,
	.stop = jl_dbg_stop,
	.show = jl_dbg_sites_show,
};

static int jl_dbg_keys_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &jl_dbg_keys_sops,
				sizeof(struct jl_dbg_iter));
}

static int jl_dbg_sites_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &jl_dbg_sites_sops,
				sizeof(struct jl_dbg_iter));
}

static const struct file_operations jl_dbg_keys_fops = {
	.open = jl_dbg_keys_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

static const struct file_operations jl_dbg_sites_fops = {
	.open = jl_dbg_sites_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

static int jl_dbg_stats_show(struct seq_file *m, void *v)
{
	struct static_key_batch_stats st;

	static_key_batch_get_stats(&st);
	seq_printf(m, "applied_batches %lu\n", st.applied);
	seq_printf(m, "applied_sites %lu\n", st.sites);
	seq_printf(m, "applied_calls %lu\n", st.calls);
	seq_printf(m, "text_poke_batches %lu\n", st.batches);
	seq_printf(m, "ipi_rounds %lu\n", st.ipi_rounds);
	seq_printf(m, "own_text_poke_batches %lu\n", st.own_batches);
	seq_printf(m, "own_ipi_rounds %lu\n", st.own_ipi_rounds);
	seq_printf(m, "batch_max %u\n", static_key_batch_max());
	seq_printf(m, "refused %lu\n", st.refused);
	seq_printf(m, "queued %lu\n", st.queued);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(jl_dbg_stats);

/*
 * A module is listed from after jump_label_add_module() has sorted its
 * table (jump_label_module_nb comes first on COMING) until before
 * jump_label_del_module() stops patching its sites (this notifier comes
 * first on GOING), so that its listed sites always follow their keys.
 */
static int jl_dbg_module_coming(struct notifier_block *nb, unsigned long val,
				void *data)
{
	struct module *mod = data;
	struct jl_dbg_mod *dm;

	if (val != MODULE_STATE_COMING || !mod->num_jump_entries)
		return NOTIFY_DONE;

	/*
	 * A module the listings would leave out is refused, as
	 * jump_label_add_module() refuses one it cannot track.
	 */
	dm = kmalloc_obj(*dm);
	if (!dm)
		return notifier_from_errno(-ENOMEM);
	dm->mod = mod;
	jump_label_lock();
	list_add_tail(&dm->list, &jl_dbg_mods);
	jump_label_unlock();
	return NOTIFY_OK;
}

/* Also on GOING after a later COMING notifier failed the load. */
static int jl_dbg_module_going(struct notifier_block *nb, unsigned long val,
			       void *data)
{
	struct module *mod = data;
	struct jl_dbg_mod *dm;

	if (val != MODULE_STATE_GOING || !mod->num_jump_entries)
		return NOTIFY_DONE;

	jump_label_lock();
	list_for_each_entry(dm, &jl_dbg_mods, list) {
		if (dm->mod == mod) {
			list_del(&dm->list);
			kfree(dm);
			break;
		}
	}
	jump_label_unlock();
	return NOTIFY_OK;
}

static struct notifier_block jl_dbg_module_coming_nb = {
	.notifier_call = jl_dbg_module_coming,
	.priority = 0,	/* after jump_label_module_nb (1) */
};

static struct notifier_block jl_dbg_module_going_nb = {
	.notifier_call = jl_dbg_module_going,
	.priority = 2,	/* before jump_label_module_nb (1) */
};

static int __init jl_dbg_init(void)
{
	struct dentry *dir = debugfs_create_dir("static_keys", NULL);
	int err;

	debugfs_create_file("keys", 0400, dir, NULL, &jl_dbg_keys_fops);
	debugfs_create_file("sites", 0400, dir, NULL, &jl_dbg_sites_fops);
	debugfs_create_file("stats", 0400, dir, NULL, &jl_dbg_stats_fops);
	err = register_module_notifier(&jl_dbg_module_going_nb);
	if (err)
		return err;
	err = register_module_notifier(&jl_dbg_module_coming_nb);
	if (err)
		unregister_module_notifier(&jl_dbg_module_going_nb);
	return err;
}
late_initcall(jl_dbg_init);
