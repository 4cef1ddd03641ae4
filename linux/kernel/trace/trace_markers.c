// SPDX-License-Identifier: GPL-2.0
/*
 * Markers as trace events: every marker with sites is the event
 * markers:<name>, with one field per format argument.
 *
 * Fields are laid out from the types the markers core parsed (ints of
 * their size and sign, pointers as unsigned long, %s as a __data_loc
 * char[] string) and named as marker_field_name() says ("pid=%d" gives
 * pid, else argN).  The event prints the site's own format, each
 * conversion bound to its field, in the trace file and in the print fmt
 * the tools read.  Probes write the binary values straight into the ring
 * buffer; the format is never parsed on the hot path and nothing is
 * vsnprintf()ed there.
 *
 * Locking:
 *  - tm_sync_mutex serialises tm_sync(), the only code adding and
 *    removing events; it nests outside markers_mutex (taken and dropped
 *    by marker_for_each()) and outside event_mutex.
 *  - event_mutex (tracing core) guards tm_events and each event's state;
 *    the tracing core calls tm_reg() with it held, and tm_reg() takes
 *    markers_mutex through marker_probe_register(): event_mutex nests
 *    outside markers_mutex.
 *  - The marker notifier runs under markers_mutex, so it only queues
 *    tm_sync_work.  A module notifier running after the markers core's
 *    updates the events itself instead, in the task loading or unloading
 *    the module: its events exist when its init runs and are gone when
 *    its unload returns, and their allocations are that task's.
 *
 * Probes are entered in the sites' read-side section, maybe preemptible
 * (see MARK()); each entry disables preemption around the record, as
 * trace event probes do.  That read side is the tracepoints' own, so what
 * the event core and perf wait for before freeing an event's files and
 * per-event data, tracepoint_synchronize_unregister(), covers marker
 * probes too.  tm_sync() waits for probes still running on an event it
 * is about to remove (disabled, so unregistered, but maybe still in
 * flight) before the event core frees the event's files and it frees
 * the event.
 *
 * An event whose marker loses its last site while it is enabled or
 * referenced (module unloaded) is kept, connected as a pending probe, and
 * records again if the module comes back; it is removed once disabled,
 * or at the next update after its last reference is dropped.
 */

#define pr_fmt(fmt) "trace_markers: " fmt

#include <linux/cleanup.h>
#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/jump_label_batch.h>
#include <linux/log2.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/security.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <asm/byteorder.h>

#include "trace.h"
#include "trace_output.h"

#define TM_SYSTEM		"markers"
/* A store wider than its field puts the field in its low bytes. */
#ifdef __LITTLE_ENDIAN
#define TM_WIDE_STORES		true
#else
#define TM_WIDE_STORES		false
#endif
/* Bound of one %s copy, with its NUL, and of all copies of one hit. */
#define TM_STR_MAX		256
#define TM_STR_ROOM		2048
/*
 * String scratch buffers per CPU: one per nesting level of hits with
 * strings, for task, softirq, hardirq and NMI context, and a hit nested
 * in the same context (from a fault taken while copying a string).
 */
#define TM_SCRATCH_SLOTS	5

/**
 * struct tm_arg - one field of a marker event
 * @name: field name
 * @spec: its conversion as printed: the site's, made one that every
 *	libtraceevent reads alike (see tm_print_spec())
 * @type: enum marker_arg_type
 * @width: bytes a store of the field writes: its size plus the padding
 *	up to the next field, when that makes a 1, 2, 4 or 8 byte store
 * @offset: offset of the field in the record
 * @text: where the conversion goes in the event's @text
 * @mask: the bits of an argument slot the field keeps
 */
struct tm_arg {
	char name[MARKER_NAME_MAX + 1];
	char spec[MARKER_CONV_MAX + 1];
	u8 type;
	u8 width;
	u16 offset;
	u16 text;
	u64 mask;
};

/*
 * Records of most events are their argument slots, masked: no strings,
 * every field stored as 8 bytes, field i at 8 * (i + 1).  Their probes
 * are built for one, two or n slots.  Other events take the general
 * probes, which read the layout of each field.
 */
enum tm_layout {
	TM_GENERAL,
	TM_SLOTS1,
	TM_SLOTS2,
	TM_SLOTS_N,
};

/**
 * struct tm_event - the trace event of one marker
 * @call: the event, flagged TRACE_EVENT_FL_TRACEPOINT so that BPF
 *	tracepoint programs attach to it through perf
 * @tp: the tracepoint @call names the event by; never registered: only
 *	its name is read, by trace_event_name() and BPF
 * @class: the event's own class: fields, reg
 * @list: link in tm_events, under event_mutex
 * @format: the marker format the fields come from
 * @text: the text of @format around its conversions, %% as %
 * @size: size of the fixed part of a record, trace_entry included
 * @nr_args: number of entries in @args
 * @has_str: a field is a %s string, copied before the record is reserved
 * @clear: some padding is not covered by the fields' stores; clear the
 *	record before filling it
 * @gone: the marker lost its sites; remove the event once disabled
 * @used: the event was enabled in a trace instance: its records may be in
 *	the ring buffers
 * @layout: enum tm_layout, the probes the event registers
 * @mask: the bits of each argument slot its field keeps
 * @args: the fields
 */
struct tm_event {
	struct trace_event_call call;
	struct tracepoint tp;
	struct trace_event_class class;
	struct list_head list;
	const char *format;
	char *text;
	unsigned int size;
	unsigned int nr_args;
	bool has_str;
	bool clear;
	bool gone;
	bool used;
	u8 layout;
	u64 mask[MARKER_MAX_ARGS];
	struct tm_arg args[MARKER_MAX_ARGS];
};

/*
 * Values of one hit, gathered before the record is reserved; @slot is set
 * while the strings sit in a scratch buffer (see tm_scratch_get()).
 */
struct tm_values {
	u64 val[MARKER_MAX_ARGS];
	u16 len[MARKER_MAX_ARGS];
	const char *str[MARKER_MAX_ARGS];
	unsigned int dyn;
	bool slot;
};

struct tm_scratch {
	char buf[TM_SCRATCH_SLOTS][TM_STR_ROOM];
};

static DEFINE_PER_CPU(unsigned int, tm_scratch_nest);

static LIST_HEAD(tm_events);
static DEFINE_MUTEX(tm_sync_mutex);
static struct tm_scratch __percpu *tm_scratch;

static void tm_sync_workfn(struct work_struct *work);
static DECLARE_WORK(tm_sync_work, tm_sync_workfn);

static struct tm_event *tm_from_call(struct trace_event_call *call)
{
	return container_of(call, struct tm_event, call);
}

/* --- recording --------------------------------------------------------- */

static unsigned int tm_copy_str(char *dst, const char *src, unsigned int room)
{
	const char *placeholder = "(null)";
	long len;

	if (!room)
		return 0;
	if (src) {
		len = strncpy_from_kernel_nofault(dst, src,
						  min(room, TM_STR_MAX));
		if (len > 0) {
			/* A string longer than the bound is cut. */
			dst[len - 1] = '\0';
			return len;
		}
		placeholder = "(fault)";
	}
	len = strscpy(dst, placeholder, room);
	return len < 0 ? room : len + 1;
}

/* Argument @i of a hit, as the bits its field stores. */
static __always_inline u64 tm_fetch(const struct tm_event *ev,
				    unsigned int i, const u64 *args)
{
	return args[i] & ev->args[i].mask;
}

/*
 * Store @val, zero-extended to @width bytes, at @p.  Most stores are of
 * 8 bytes: 64-bit fields and 32-bit ones followed by padding.
 */
static __always_inline void tm_store(void *p, unsigned int width, u64 val)
{
	if (likely(width == sizeof(u64))) {
		*(u64 *)p = val;
		return;
	}
	switch (width) {
	case 1:
		*(u8 *)p = val;
		break;
	case 2:
		*(u16 *)p = val;
		break;
	case 4:
		*(u32 *)p = val;
		break;
	default:
		*(u64 *)p = val;
		break;
	}
}

static __always_inline void tm_clear(const struct tm_event *ev, void *rec)
{
	if (ev->clear)
		memset(rec + sizeof(struct trace_entry), 0,
		       ev->size - sizeof(struct trace_entry));
}

/*
 * Fill @rec, whose trace_entry is filled, with the arguments of a hit of
 * an event without strings whose record is not the argument slots: each
 * argument is stored once, together with the padding after it.
 */
static void tm_record(const struct tm_event *ev, const u64 *args, void *rec)
{
	unsigned int i;

	tm_clear(ev, rec);
	for (i = 0; i < ev->nr_args; i++) {
		const struct tm_arg *a = &ev->args[i];

		tm_store(rec + a->offset, a->width, tm_fetch(ev, i, args));
	}
}

/*
 * Most events store every field as 8 bytes: their records are the masked
 * argument slots, @n of them.
 */
static __always_inline void tm_slots(const struct tm_event *ev,
				     const u64 *args, u64 *dst,
				     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		dst[i] = args[i] & ev->mask[i];
}

/*
 * A scratch buffer of this CPU for the strings of one hit, by nesting
 * level rather than by context level: a hit nested in the same context,
 * such as one from a fault taken while a string is copied, gets a buffer
 * of its own instead of overwriting the outer hit's.  Preemption is
 * disabled by the caller.  NULL when TM_SCRATCH_SLOTS hits already nest.
 */
static char *tm_scratch_get(void)
{
	unsigned int n = this_cpu_inc_return(tm_scratch_nest) - 1;

	/* Paired with the barrier() in tm_scratch_put(). */
	barrier();
	if (n < TM_SCRATCH_SLOTS)
		return this_cpu_ptr(tm_scratch)->buf[n];
	this_cpu_dec(tm_scratch_nest);
	return NULL;
}

static void tm_scratch_put(struct tm_values *v)
{
	if (!v->slot)
		return;
	/* Paired with the barrier() in tm_scratch_get(). */
	barrier();
	this_cpu_dec(tm_scratch_nest);
	v->slot = false;
}

/*
 * Events with strings: fetch the arguments of one hit in @v first, with
 * a bounded copy of each string into a scratch buffer, so
 * that the record can be reserved at its size.
 */
static void tm_gather(const struct tm_event *ev, const u64 *args,
		      struct tm_values *v)
{
	static const char nested[] = "(nested)";
	unsigned int i, used = 0;
	bool tried = false;
	char *buf = NULL;
	const char *src;

	v->slot = false;
	for (i = 0; i < ev->nr_args; i++) {
		if (ev->args[i].type != MARKER_ARG_STR) {
			v->val[i] = tm_fetch(ev, i, args);
			continue;
		}
		src = (const char *)(unsigned long)args[i];
		if (!tried) {
			buf = tm_scratch_get();
			v->slot = !!buf;
			tried = true;
		}
		if (!buf) {
			/* Too deeply nested: record a placeholder. */
			v->str[i] = nested;
			v->len[i] = min_t(unsigned int, sizeof(nested),
					  TM_STR_ROOM - used);
		} else {
			v->str[i] = buf + used;
			v->len[i] = tm_copy_str(buf + used, src,
						TM_STR_ROOM - used);
		}
		used += v->len[i];
	}
	v->dyn = used;
}

/* Write the fields of @v into @rec, whose trace_entry is filled. */
static void tm_fill(const struct tm_event *ev, const struct tm_values *v,
		    void *rec)
{
	unsigned int i, dyn = ev->size;

	tm_clear(ev, rec);
	for (i = 0; i < ev->nr_args; i++) {
		const struct tm_arg *a = &ev->args[i];
		void *p = rec + a->offset;

		if (a->type != MARKER_ARG_STR) {
			tm_store(p, a->width, v->val[i]);
			continue;
		}
		tm_store(p, a->width, (u32)v->len[i] << 16 | dyn);
		memcpy(rec + dyn, v->str[i], v->len[i]);
		dyn += v->len[i];
	}
}

/* Reserve a record of @size for @file, unless its trigger says to skip. */
static __always_inline void *tm_ftrace_reserve(struct trace_event_file *file,
					       struct trace_event_buffer *fbuffer,
					       unsigned int size)
{
	if (trace_trigger_soft_disabled(file))
		return NULL;
	return trace_event_buffer_reserve(fbuffer, file, size);
}

static noinline void tm_ftrace_str(struct trace_event_file *file,
				   const struct tm_event *ev, const u64 *args)
{
	struct trace_event_buffer fbuffer;
	struct tm_values v;
	void *rec;

	if (trace_trigger_soft_disabled(file))
		return;
	tm_gather(ev, args, &v);
	rec = trace_event_buffer_reserve(&fbuffer, file, ev->size + v.dyn);
	if (rec) {
		tm_fill(ev, &v, rec);
		trace_event_buffer_commit(&fbuffer);
	}
	tm_scratch_put(&v);
}

/*
 * The probes of the events have no marker_recursion_enter(): the ring
 * buffer and perf keep per-context recursion guards of their own, as for
 * the events of tracepoints.  A hit nested in a probe that is guarded is
 * still recorded.  They disable preemption, as trace event probes do.
 */
static void tm_ftrace_probe(void *data, const struct marker *m,
			    const u64 *args)
{
	struct trace_event_file *file = data;
	struct tm_event *ev = tm_from_call(file->event_call);
	struct trace_event_buffer fbuffer;
	void *rec;

	marker_probe_guard();
	if (ev->has_str) {
		tm_ftrace_str(file, ev, args);
		return;
	}
	rec = tm_ftrace_reserve(file, &fbuffer, ev->size);
	if (!rec)
		return;
	tm_record(ev, args, rec);
	trace_event_buffer_commit(&fbuffer);
}

/*
 * The probe of an event whose record is @n argument slots: nothing about
 * the layout is tested per hit.  trace_event_buffer_reserve() sets every
 * member of the buffer descriptor before a record is written, so it is
 * not cleared first.
 */
static __always_inline void tm_ftrace_slots(void *data, const u64 *args,
					    unsigned int n)
{
	struct trace_event_file *file = data;
	const struct tm_event *ev = tm_from_call(file->event_call);
	struct trace_event_buffer fbuffer __uninitialized;
	struct trace_entry *ent;

	marker_probe_guard();
	ent = tm_ftrace_reserve(file, &fbuffer,
				sizeof(*ent) + n * sizeof(u64));
	if (!ent)
		return;
	tm_slots(ev, args, (u64 *)(ent + 1), n);
	trace_event_buffer_commit(&fbuffer);
}

/* Most markers have one or two arguments. */
static void tm_ftrace_slots1(void *data, const struct marker *m,
			     const u64 *args)
{
	tm_ftrace_slots(data, args, 1);
}

static void tm_ftrace_slots2(void *data, const struct marker *m,
			     const u64 *args)
{
	tm_ftrace_slots(data, args, 2);
}

static void tm_ftrace_slots_n(void *data, const struct marker *m,
			      const u64 *args)
{
	tm_ftrace_slots(data, args, m->nr_args);
}

static const marker_probe_fn tm_ftrace_probes[] = {
	[TM_GENERAL]	= tm_ftrace_probe,
	[TM_SLOTS1]	= tm_ftrace_slots1,
	[TM_SLOTS2]	= tm_ftrace_slots2,
	[TM_SLOTS_N]	= tm_ftrace_slots_n,
};

static marker_probe_fn tm_ftrace_fn(const struct tm_event *ev)
{
	return tm_ftrace_probes[ev->layout];
}

#ifdef CONFIG_PERF_EVENTS
/*
 * Size of the perf sample of a record of @size bytes: perf prepends a u32
 * size to the record; keep the sample u64 aligned.
 */
static __always_inline int tm_perf_size(unsigned int size)
{
	return ALIGN(size + sizeof(u32), sizeof(u64)) - sizeof(u32);
}

static __always_inline void *tm_perf_alloc(unsigned int size,
					   struct pt_regs **regs, int *rctx)
{
	void *rec = perf_trace_buf_alloc(tm_perf_size(size), regs, rctx);

	if (rec)
		perf_fetch_caller_regs(*regs);
	return rec;
}

/* BPF programs attached to the event run first, on the record as laid out. */
static __always_inline void tm_perf_submit(struct tm_event *ev,
					   unsigned int size, void *rec,
					   struct pt_regs *regs, int rctx,
					   struct hlist_head *head)
{
	perf_trace_run_bpf_submit(rec, tm_perf_size(size), rctx, &ev->call,
				  1, regs, head, NULL);
}

/* Events with strings: staged in a struct tm_values first. */
static noinline void tm_perf_str(struct tm_event *ev, const u64 *args,
				 struct hlist_head *head)
{
	struct pt_regs *regs;
	struct tm_values v;
	int rctx;
	void *rec;

	tm_gather(ev, args, &v);
	rec = tm_perf_alloc(ev->size + v.dyn, &regs, &rctx);
	if (rec) {
		tm_fill(ev, &v, rec);
		tm_perf_submit(ev, ev->size + v.dyn, rec, regs, rctx, head);
	}
	tm_scratch_put(&v);
}

static void tm_perf_probe(void *data, const struct marker *m,
			  const u64 *args)
{
	struct tm_event *ev = data;
	struct hlist_head *head;
	struct pt_regs *regs;
	int rctx;
	void *rec;

	marker_probe_guard();
	head = this_cpu_ptr(ev->call.perf_events);
	if (!bpf_prog_array_valid(&ev->call) && hlist_empty(head))
		return;
	if (ev->has_str) {
		tm_perf_str(ev, args, head);
		return;
	}
	rec = tm_perf_alloc(ev->size, &regs, &rctx);
	if (rec) {
		tm_record(ev, args, rec);
		tm_perf_submit(ev, ev->size, rec, regs, rctx, head);
	}
}

/* As tm_ftrace_slots(), for perf and BPF. */
static __always_inline void tm_perf_slots(void *data, const u64 *args,
					  unsigned int n)
{
	unsigned int size = sizeof(struct trace_entry) + n * sizeof(u64);
	struct tm_event *ev = data;
	struct hlist_head *head;
	struct trace_entry *ent;
	/* Both set by perf_trace_buf_alloc() when it returns a record. */
	struct pt_regs *regs __uninitialized;
	int rctx __uninitialized;

	marker_probe_guard();
	head = this_cpu_ptr(ev->call.perf_events);
	if (!bpf_prog_array_valid(&ev->call) && hlist_empty(head))
		return;
	ent = tm_perf_alloc(size, &regs, &rctx);
	if (!ent)
		return;
	tm_slots(ev, args, (u64 *)(ent + 1), n);
	tm_perf_submit(ev, size, ent, regs, rctx, head);
}

static void tm_perf_slots1(void *data, const struct marker *m,
			   const u64 *args)
{
	tm_perf_slots(data, args, 1);
}

static void tm_perf_slots2(void *data, const struct marker *m,
			   const u64 *args)
{
	tm_perf_slots(data, args, 2);
}

static void tm_perf_slots_n(void *data, const struct marker *m,
			    const u64 *args)
{
	tm_perf_slots(data, args, m->nr_args);
}

static const marker_probe_fn tm_perf_probes[] = {
	[TM_GENERAL]	= tm_perf_probe,
	[TM_SLOTS1]	= tm_perf_slots1,
	[TM_SLOTS2]	= tm_perf_slots2,
	[TM_SLOTS_N]	= tm_perf_slots_n,
};

static marker_probe_fn tm_perf_fn(const struct tm_event *ev)
{
	return tm_perf_probes[ev->layout];
}
#endif

/*
 * The batch of a markers_enable write, which tm_reg() registers with:
 * set and cleared under event_mutex, NULL outside such a write.
 */
static struct marker_batch *tm_batch;

/* Called by the tracing core with event_mutex held. */
static int tm_reg(struct trace_event_call *call, enum trace_reg type,
		  void *data)
{
	struct tm_event *ev = tm_from_call(call);
	const char *name = trace_event_name(call);

	switch (type) {
	case TRACE_REG_REGISTER:
		ev->used = true;
		return marker_probe_register_batch(tm_batch, name, ev->format,
						   tm_ftrace_fn(ev), data);
	case TRACE_REG_UNREGISTER:
		marker_probe_unregister_batch(tm_batch, name, tm_ftrace_fn(ev),
					      data);
		break;
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		return marker_probe_register(name, ev->format, tm_perf_fn(ev),
					     ev);
	case TRACE_REG_PERF_UNREGISTER:
		marker_probe_unregister(name, tm_perf_fn(ev), ev);
		break;
	case TRACE_REG_PERF_OPEN:
	case TRACE_REG_PERF_CLOSE:
	case TRACE_REG_PERF_ADD:
	case TRACE_REG_PERF_DEL:
		return 0;
#endif
	}
	/* An event whose marker went away can go now that it is unused. */
	if (ev->gone)
		schedule_work(&tm_sync_work);
	return 0;
}

/*
 * Size of a field in the record: the C type's, so that long, size_t and
 * pointer fields are 4 bytes on 32-bit kernels, as the field types
 * announce them to the tools.
 */
static unsigned int tm_field_size(enum marker_arg_type type)
{
	switch (type) {
	case MARKER_ARG_CHAR:
		return 1;
	case MARKER_ARG_S32:
	case MARKER_ARG_U32:
	case MARKER_ARG_STR:
		return 4;
	case MARKER_ARG_LONG:
	case MARKER_ARG_ULONG:
	case MARKER_ARG_SSIZE:
	case MARKER_ARG_SIZE:
	case MARKER_ARG_PTR:
		return sizeof(long);
	default:
		return 8;
	}
}

/* --- output ------------------------------------------------------------ */

/*
 * The bytes of the record at iter->ent that its output may read.  A
 * reader of a ring buffer has the record's size; tp_printk's iterator
 * (output_printk()) has none, and prints the record that this event's
 * probe has just written, which is whole.
 */
static unsigned int tm_rec_size(const struct trace_iterator *iter)
{
	return iter->ent_size ? iter->ent_size : UINT_MAX;
}

/* Print field @a of @rec, @size bytes, with the site's conversion. */
static void tm_print_arg(struct trace_iterator *iter, const struct tm_arg *a,
			 const void *rec, unsigned int size)
{
	const void *p = rec + a->offset;
	char c[2] = {};
	u32 loc, off, len;

	/* A record shorter than its event's layout is not read past. */
	if (a->offset + tm_field_size(a->type) > size) {
		trace_seq_puts(&iter->seq, "(bad)");
		return;
	}
	switch (a->type) {
	case MARKER_ARG_S32:
		trace_event_printf(iter, a->spec, *(int *)p);
		break;
	case MARKER_ARG_U32:
		trace_event_printf(iter, a->spec, *(unsigned int *)p);
		break;
	case MARKER_ARG_LONG:
		trace_event_printf(iter, a->spec, *(long *)p);
		break;
	case MARKER_ARG_ULONG:
		trace_event_printf(iter, a->spec, *(unsigned long *)p);
		break;
	case MARKER_ARG_S64:
		trace_event_printf(iter, a->spec, *(s64 *)p);
		break;
	case MARKER_ARG_U64:
		trace_event_printf(iter, a->spec, *(u64 *)p);
		break;
	case MARKER_ARG_SSIZE:
		trace_event_printf(iter, a->spec, *(ssize_t *)p);
		break;
	case MARKER_ARG_SIZE:
		trace_event_printf(iter, a->spec, *(size_t *)p);
		break;
	case MARKER_ARG_PTR:
		trace_event_printf(iter, a->spec, (void *)*(unsigned long *)p);
		break;
	case MARKER_ARG_CHAR:
		c[0] = *(char *)p;
		trace_event_printf(iter, a->spec, c);
		break;
	case MARKER_ARG_STR:
		loc = *(u32 *)p;
		off = loc & 0xffff;
		len = loc >> 16;
		if (!len || off + len > size ||
		    ((const char *)rec)[off + len - 1])
			trace_seq_puts(&iter->seq, "(bad)");
		else
			trace_event_printf(iter, a->spec,
					   (const char *)rec + off);
		break;
	}
}

static enum print_line_t tm_output(struct trace_iterator *iter, int flags,
				   struct trace_event *event)
{
	struct trace_event_call *call;
	unsigned int i, pos = 0;
	struct tm_event *ev;
	int ret;

	call = container_of(event, struct trace_event_call, event);
	ev = tm_from_call(call);
	ret = trace_raw_output_prep(iter, event);
	if (ret != TRACE_TYPE_HANDLED)
		return ret;
	for (i = 0; i < ev->nr_args; i++) {
		const struct tm_arg *a = &ev->args[i];

		trace_seq_putmem(&iter->seq, ev->text + pos, a->text - pos);
		tm_print_arg(iter, a, iter->ent, tm_rec_size(iter));
		pos = a->text;
	}
	trace_seq_puts(&iter->seq, ev->text + pos);
	trace_seq_putc(&iter->seq, '\n');
	return trace_handle_return(&iter->seq);
}

static struct trace_event_functions tm_funcs = {
	.trace		= tm_output,
};

/* --- event description ------------------------------------------------- */

static const char *tm_field_type(enum marker_arg_type type)
{
	switch (type) {
	case MARKER_ARG_S32:	return "int";
	case MARKER_ARG_U32:	return "unsigned int";
	case MARKER_ARG_LONG:	return "long";
	case MARKER_ARG_ULONG:	return "unsigned long";
	case MARKER_ARG_S64:	return "s64";
	case MARKER_ARG_U64:	return "u64";
	case MARKER_ARG_SSIZE:	return "ssize_t";
	case MARKER_ARG_SIZE:	return "size_t";
	case MARKER_ARG_PTR:	return "unsigned long";
	case MARKER_ARG_CHAR:	return "char";
	case MARKER_ARG_STR:	return "__data_loc char[]";
	}
	return NULL;
}

static bool tm_field_signed(enum marker_arg_type type)
{
	return type == MARKER_ARG_S32 || type == MARKER_ARG_LONG ||
	       type == MARKER_ARG_S64 || type == MARKER_ARG_SSIZE ||
	       type == MARKER_ARG_CHAR;
}

static int tm_define_fields(struct trace_event_call *call)
{
	struct tm_event *ev = tm_from_call(call);
	unsigned int i;
	int ret;

	for (i = 0; i < ev->nr_args; i++) {
		const struct tm_arg *a = &ev->args[i];

		ret = trace_define_field(call, tm_field_type(a->type), a->name,
					 a->offset, tm_field_size(a->type),
					 tm_field_signed(a->type), FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}

static struct trace_event_fields tm_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = tm_define_fields },
	{}
};

/* Append [@from, @to) of a format to @dst, %% as %; return the new end. */
static unsigned int tm_copy_text(char *dst, unsigned int pos,
				 const char *from, const char *to)
{
	while (from < to) {
		dst[pos++] = *from;
		from += *from == '%' ? 2 : 1;
	}
	return pos;
}

/*
 * Make the conversion of @a, @len bytes, one that every libtraceevent
 * binds to its field and prints as the kernel does: Debian 12's perf
 * reads %zd as an int, so size_t fields, which have the size of a long,
 * print with %l; a char field prints with %s (see tm_print_fmt()).  The
 * trace file prints with the same conversion.
 */
static void tm_print_spec(struct tm_arg *a, unsigned int len)
{
	char *z;

	if (a->type == MARKER_ARG_CHAR)
		a->spec[len - 1] = 's';
	z = strchr(a->spec, 'z');
	if (z)
		*z = 'l';
}

/*
 * Walk @ev->format with the markers core's own scanner: each
 * conversion's field name and printed conversion, and the text around
 * the conversions.
 */
static int tm_scan_format(struct tm_event *ev, const u8 *types, int nr)
{
	const char *p = ev->format, *prev = ev->format;
	unsigned int i = 0, pos = 0;
	struct marker_conv conv;
	int ret;

	ev->text = kmalloc(strlen(ev->format) + 1, GFP_KERNEL);
	if (!ev->text)
		return -ENOMEM;
	while ((ret = marker_format_next(&p, &conv)) > 0) {
		struct tm_arg *a = &ev->args[i];

		if (i >= nr || conv.type != types[i])
			return -EINVAL;
		pos = tm_copy_text(ev->text, pos, prev, conv.start);
		a->text = pos;
		a->type = conv.type;
		marker_field_name(&conv, i, a->name, sizeof(a->name));
		memcpy(a->spec, conv.start, conv.len);
		a->spec[conv.len] = '\0';
		tm_print_spec(a, conv.len);
		prev = p;
		i++;
	}
	if (ret || i != nr)
		return -EINVAL;
	pos = tm_copy_text(ev->text, pos, prev, p);
	ev->text[pos] = '\0';
	/* MARK_NOARGS prints nothing. */
	if (!nr && !*skip_spaces(ev->text))
		ev->text[0] = '\0';
	return 0;
}

static void tm_layout(struct tm_event *ev)
{
	unsigned int i, off = sizeof(struct trace_entry);
	bool slots;

	for (i = 0; i < ev->nr_args; i++) {
		unsigned int size = tm_field_size(ev->args[i].type);

		off = ALIGN(off, size);
		ev->args[i].offset = off;
		off += size;
		ev->has_str |= ev->args[i].type == MARKER_ARG_STR;
	}
	ev->size = off;
	slots = !ev->has_str;
	/*
	 * Let each store cover the padding after its field, where the low
	 * bytes of a wider store are the field's: on little-endian CPUs.
	 */
	for (i = 0; i < ev->nr_args; i++) {
		struct tm_arg *a = &ev->args[i];
		unsigned int end = i + 1 < ev->nr_args ? a[1].offset : off;
		unsigned int span = end - a->offset;

		a->width = tm_field_size(a->type);
		a->mask = GENMASK_ULL(a->width * BITS_PER_BYTE - 1, 0);
		ev->mask[i] = a->mask;
		if (span == a->width ||
		    (TM_WIDE_STORES && is_power_of_2(span) &&
		     span <= sizeof(u64)))
			a->width = span;
		else
			ev->clear = true;
		if (a->width != sizeof(u64) ||
		    a->offset != sizeof(struct trace_entry) + i * sizeof(u64))
			slots = false;
	}
	if (!slots)
		ev->layout = TM_GENERAL;
	else if (ev->nr_args == 1)
		ev->layout = TM_SLOTS1;
	else if (ev->nr_args == 2)
		ev->layout = TM_SLOTS2;
	else
		ev->layout = TM_SLOTS_N;
}

/* Append [@from, @to) of a format to @s as the text of a C string. */
static void tm_fmt_text(struct seq_buf *s, const char *from, const char *to)
{
	for (; from < to; from++) {
		switch (*from) {
		case '"':
		case '\\':
			seq_buf_putc(s, '\\');
			seq_buf_putc(s, *from);
			break;
		case '\n':
			seq_buf_puts(s, "\\n");
			break;
		case '\t':
			seq_buf_puts(s, "\\t");
			break;
		default:
			seq_buf_putc(s, *from);
			break;
		}
	}
}

/*
 * The print fmt of @ev: the site's format with each conversion bound to
 * its field, so that trace-cmd and perf print what the trace file does.
 * A %c conversion is written %s over its one-byte char field, which
 * every libtraceevent prints as that character: versions before 1.7.3
 * do not know %c and bind it to no argument, so every later conversion
 * would print the field before its own; %z is written %l.
 */
static char *tm_print_fmt(const struct tm_event *ev)
{
	size_t size = 2 * strlen(ev->format) +
		      ev->nr_args * (MARKER_NAME_MAX + 16) + 16;
	const char *p = ev->format, *prev = ev->format;
	struct marker_conv conv;
	struct seq_buf s;
	unsigned int i;
	char *buf;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return NULL;
	/* Room for the NUL. */
	seq_buf_init(&s, buf, size - 1);
	if (!ev->nr_args && !*ev->text) {
		seq_buf_puts(&s, "\"%s\", \"\"");
		goto out;
	}
	seq_buf_putc(&s, '"');
	for (i = 0; i < ev->nr_args && marker_format_next(&p, &conv) > 0; i++) {
		tm_fmt_text(&s, prev, conv.start);
		seq_buf_puts(&s, ev->args[i].spec);
		prev = p;
	}
	tm_fmt_text(&s, prev, prev + strlen(prev));
	seq_buf_putc(&s, '"');
	for (i = 0; i < ev->nr_args; i++) {
		const struct tm_arg *a = &ev->args[i];

		if (a->type == MARKER_ARG_STR)
			seq_buf_printf(&s, ", __get_str(%s)", a->name);
		else
			seq_buf_printf(&s, ", REC->%s", a->name);
	}
out:
	if (seq_buf_has_overflowed(&s)) {
		kfree(buf);
		return NULL;
	}
	buf[seq_buf_used(&s)] = '\0';
	return buf;
}

static void tm_event_free(struct tm_event *ev)
{
	if (!ev)
		return;
	kfree(ev->call.print_fmt);
	kfree(ev->tp.name);
	kfree(ev->text);
	kfree(ev->format);
	kfree(ev);
}

static struct tm_event *tm_event_alloc(const char *name, const char *format)
{
	u8 types[MARKER_MAX_ARGS];
	struct tm_event *ev;
	int nr, ret;

	nr = marker_parse_format(format, types, MARKER_MAX_ARGS);
	if (nr < 0)
		return ERR_PTR(nr);
	ev = kzalloc_obj(*ev);
	if (!ev)
		return ERR_PTR(-ENOMEM);
	ev->tp.name = kstrdup(name, GFP_KERNEL);
	ev->format = kstrdup(format, GFP_KERNEL);
	if (!ev->tp.name || !ev->format) {
		ret = -ENOMEM;
		goto err;
	}
	ev->nr_args = nr;
	ret = tm_scan_format(ev, types, nr);
	if (ret)
		goto err;
	tm_layout(ev);
	ev->call.print_fmt = tm_print_fmt(ev);
	if (!ev->call.print_fmt) {
		ret = -ENOMEM;
		goto err;
	}

	INIT_LIST_HEAD(&ev->class.fields);
	ev->class.system = TM_SYSTEM;
	ev->class.fields_array = tm_fields_array;
	ev->class.reg = tm_reg;
	ev->call.class = &ev->class;
	ev->call.tp = &ev->tp;
	/*
	 * Counted references, as dynamic events have: eprobes, the
	 * enable_event triggers and trace_get_event_file() hold the event
	 * with trace_event_try_get_ref(), which pins nothing for an event
	 * without a module, and the event goes when its marker's module
	 * does.  tm_event_del() keeps an event so referenced.
	 */
	ev->call.flags = TRACE_EVENT_FL_TRACEPOINT | TRACE_EVENT_FL_DYNAMIC;
	ev->call.event.funcs = &tm_funcs;
	ev->call.data = ev;
	return ev;

err:
	tm_event_free(ev);
	return ERR_PTR(ret);
}

/* Create and register the event of marker @name; under event_mutex. */
static int tm_event_add(const char *name, const char *format)
{
	struct tm_event *ev;
	int ret;

	lockdep_assert_held(&event_mutex);
	ev = tm_event_alloc(name, format);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	if (!register_trace_event(&ev->call.event)) {
		ret = -ENODEV;
		goto out_free;
	}
	ret = trace_add_event_call(&ev->call);
	if (ret)
		goto out_unreg;
	list_add_tail(&ev->list, &tm_events);
	return 0;

out_unreg:
	unregister_trace_event(&ev->call.event);
out_free:
	tm_event_free(ev);
	return ret;
}

/*
 * Remove @ev unless it is in use (-EBUSY): enabled, or referenced by an
 * eprobe, a trigger or a trace_get_event_file() user; under event_mutex,
 * which those take to get their references.  The caller frees it with
 * tm_event_free() once no probe of it runs.
 */
static int tm_event_del(struct tm_event *ev)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	if (trace_event_dyn_busy(&ev->call))
		return -EBUSY;
	/* Also unregisters the trace_event, as event_remove() does. */
	ret = trace_remove_event_call(&ev->call);
	if (ret)
		return ret;
	list_del(&ev->list);
	return 0;
}

/* --- following the markers --------------------------------------------- */

struct tm_snap {
	struct list_head list;
	const char *format;
	bool seen;
	char name[];
};

static int tm_snap_one(const struct marker *m, void *priv)
{
	struct list_head *snap = priv;
	size_t nlen, flen;
	struct tm_snap *s;

	if (!m->nr_sites || !m->format)
		return 0;
	nlen = strlen(m->name) + 1;
	flen = strlen(m->format) + 1;
	s = kzalloc(sizeof(*s) + nlen + flen, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	memcpy(s->name, m->name, nlen);
	s->format = memcpy(s->name + nlen, m->format, flen);
	list_add_tail(&s->list, snap);
	return 0;
}

static struct tm_snap *tm_snap_find(struct list_head *snap, const char *name)
{
	struct tm_snap *s;

	list_for_each_entry(s, snap, list)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

/* Whether @ev's marker @s (NULL: no sites left) still has @ev's format. */
static bool tm_snap_keeps(const struct tm_snap *s, const struct tm_event *ev)
{
	return s && !strcmp(s->format, ev->format);
}

/* Whether tm_sync() would try to remove an event; under event_mutex. */
static bool tm_sync_removes(struct list_head *snap)
{
	struct tm_event *ev;

	list_for_each_entry(ev, &tm_events, list)
		if (!tm_snap_keeps(tm_snap_find(snap, trace_event_name(&ev->call)),
				   ev))
			return true;
	return false;
}

/*
 * Make the events match the markers that have sites: add the missing,
 * remove those whose marker is gone or changed format, unless in use.
 */
static void tm_sync(void)
{
	struct tm_event *ev, *tmp;
	LIST_HEAD(removed);
	LIST_HEAD(snap);
	struct tm_snap *s, *stmp;
	bool reset = false;
	int ret;

	guard(mutex)(&tm_sync_mutex);
	ret = marker_for_each(tm_snap_one, &snap);
	if (ret) {
		pr_warn("out of memory, marker events not updated\n");
		goto out;
	}

	mutex_lock(&event_mutex);
	/*
	 * trace_remove_event_call() frees the files of a disabled event at
	 * once, while a hit that read its probe array before the disable
	 * may still run a probe on one: wait for those first.  Under
	 * event_mutex nothing can enable an event meanwhile.
	 */
	if (tm_sync_removes(&snap))
		marker_synchronize_unregister();
	list_for_each_entry_safe(ev, tmp, &tm_events, list) {
		s = tm_snap_find(&snap, trace_event_name(&ev->call));
		if (tm_snap_keeps(s, ev)) {
			s->seen = true;
			ev->gone = false;
			continue;
		}
		if (tm_event_del(ev)) {
			/* In use: keep it until disabled, name taken. */
			ev->gone = true;
			if (s)
				s->seen = true;
			continue;
		}
		list_add(&ev->list, &removed);
		reset |= ev->used;
	}
	/*
	 * As when a module's own events go: records of a removed event must
	 * not stay in the buffers, where an event added later with the same
	 * type would decode them with its own layout.
	 */
	if (reset)
		tracing_reset_all_online_cpus();
	list_for_each_entry(s, &snap, list) {
		if (s->seen)
			continue;
		ret = tm_event_add(s->name, s->format);
		if (ret)
			pr_warn("%s: no trace event (%d)\n", s->name, ret);
	}
	mutex_unlock(&event_mutex);

	/* No probe of theirs ran since the wait above. */
	list_for_each_entry_safe(ev, tmp, &removed, list)
		tm_event_free(ev);
out:
	list_for_each_entry_safe(s, stmp, &snap, list)
		kfree(s);
}

static void tm_sync_workfn(struct work_struct *work)
{
	tm_sync();
}

/* Runs under markers_mutex: only queue the update. */
static int tm_marker_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	schedule_work(&tm_sync_work);
	return NOTIFY_OK;
}

static struct notifier_block tm_marker_nb = {
	.notifier_call = tm_marker_notify,
};

#ifdef CONFIG_MODULES
/* After the markers core's notifier: the module's markers are known. */
static int tm_module_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct module *mod = data;

	if (!mod->num_markers)
		return NOTIFY_DONE;
	if (action == MODULE_STATE_COMING || action == MODULE_STATE_GOING) {
		/*
		 * The queued update would only repeat this one.  Running it
		 * here, not in a worker, makes its allocations the module
		 * loader's: fault injection per task (fail-nth) reaches them.
		 */
		cancel_work_sync(&tm_sync_work);
		tm_sync();
	}
	return NOTIFY_OK;
}

static struct notifier_block tm_module_nb = {
	.notifier_call = tm_module_notify,
	.priority = -1,
};
#endif

/* --- markers_enable: many markers, one static key batch ---------------- */

/*
 * Enable or disable the markers events matching @glob in the top trace
 * instance, all static key changes in one static key batch.
 */
static int tm_enable_glob(const char *glob, bool enable)
{
	struct trace_array *tr = top_trace_array();
	struct trace_event_file *file;
	DEFINE_MARKER_BATCH(batch);
	struct tm_event *ev;
	int ret = 0, err, found = 0;

	if (!tr)
		return -ENODEV;
	/*
	 * The probe registrations tm_reg() makes below link their markers
	 * into the batch; applying it switches their sites in one static
	 * key batch.
	 */
	scoped_guard(mutex, &event_mutex) {
		tm_batch = &batch;
		list_for_each_entry(ev, &tm_events, list) {
			/* An event kept after its module left can be disabled. */
			if ((ev->gone && enable) ||
			    !glob_match(glob, trace_event_name(&ev->call)))
				continue;
			file = find_event_file(tr, TM_SYSTEM,
					       trace_event_name(&ev->call));
			if (!file)
				continue;
			found++;
			err = trace_event_enable_disable(file, enable, 0);
			if (err && !ret)
				ret = err;
		}
		tm_batch = NULL;
	}
	marker_batch_apply(&batch);
	if (!found && !ret)
		ret = -ENOENT;
	return ret;
}

static ssize_t tm_enable_write(struct file *filp, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	char *buf, *glob;
	bool enable = true;
	int ret;

	if (cnt > PAGE_SIZE - 1)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	glob = strim(buf);
	if (*glob == '!') {
		enable = false;
		glob++;
	}
	ret = *glob ? tm_enable_glob(glob, enable) : -EINVAL;
	kfree(buf);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static int tm_enable_show(struct seq_file *m, void *v)
{
	struct trace_array *tr = top_trace_array();
	struct trace_event_file *file;
	struct tm_event *ev;

	guard(mutex)(&event_mutex);
	list_for_each_entry(ev, &tm_events, list) {
		file = tr ? find_event_file(tr, TM_SYSTEM,
					    trace_event_name(&ev->call)) : NULL;
		if (file && (file->flags & EVENT_FILE_FL_ENABLED))
			seq_printf(m, "%s\n", trace_event_name(&ev->call));
	}
	return 0;
}

static int tm_enable_open(struct inode *inode, struct file *filp)
{
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	return single_open(filp, tm_enable_show, NULL);
}

static const struct file_operations tm_enable_fops = {
	.open		= tm_enable_open,
	.read		= seq_read,
	.write		= tm_enable_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init trace_markers_init(void)
{
	int ret;

	tm_scratch = alloc_percpu(struct tm_scratch);
	if (!tm_scratch)
		return -ENOMEM;
	ret = register_marker_notifier(&tm_marker_nb);
	if (ret)
		return ret;
#ifdef CONFIG_MODULES
	register_module_notifier(&tm_module_nb);
#endif
	tm_sync();
	if (!tracing_init_dentry())
		trace_create_file("markers_enable", 0600, NULL, NULL,
				  &tm_enable_fops);
	return 0;
}
fs_initcall(trace_markers_init);

#ifdef CONFIG_MARKERS_KUNIT_TEST
#include "trace_markers_kunit.c"
#endif
