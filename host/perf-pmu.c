/* SPDX-License-Identifier: MIT */
/* The perf_event driver (perf-pmu.h). Linux only. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "arch/arch-cpuid-host.h"
#include "host/errno-name.h"
#include "host/perf-attr.h"
#include "host/perf-plan.h"
#include "host/perf-pmu.h"
#include "pmu/cpu-detect.h"
#include "pmu/pmu-regs.h"

struct perf_state {
	int n;
	struct bt_perf_member m[BT_PERF_MAX_MEMBERS];
	int fd[BT_PERF_MAX_MEMBERS];
	uint64_t id[BT_PERF_MAX_MEMBERS];
	struct perf_event_mmap_page *page[BT_PERF_MAX_MEMBERS];
	size_t page_len;
	bool rdpmc;                       /* this group is read with RDPMC */
	uint64_t before[BT_PERF_MAX_MEMBERS], after[BT_PERF_MAX_MEMBERS];
	char name[48];                    /* "counter group 3" */
	const struct bt_plan *plan;       /* the open group: plan and index */
	int group;
	bool pinned;                      /* pinned at open, unpinned at close */
	const struct bt_perf_target *target;  /* the PMU counting on this CPU */
};

static int real_open(struct perf_event_attr *a, int group_fd)
{
	/* glibc has no wrapper (perf_event_open(2)). pid 0, cpu -1: this
	 * thread, on whichever CPU it runs (it is pinned to one). */
	return (int)syscall(SYS_perf_event_open, a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static int real_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static long real_read(int fd, void *buf, size_t len)
{
	return (long)read(fd, buf, len);
}

static void *real_mmap_page(int fd, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void real_munmap_page(void *page, size_t len)
{
	munmap(page, len);
}

static const struct bt_perf_sys real_sys = {
	real_open, real_ioctl, real_read, real_mmap_page, real_munmap_page, close,
};
/* The system calls in use: the real ones, or a test's (bt_perf_set_sys). */
static const struct bt_perf_sys *sys = &real_sys;

/* What the sessions plan for (bt_perf_os_pmu): the kernel's facts and one
 * target per kind of core counted (the PMU of that kind, its type, its
 * model's counters), kept for the process: a hybrid run counts on both. */
static struct bt_perf_kernel kernel;
static bool have_kernel;
static struct bt_perf_target targets[BT_PK_MAX_PMUS];
static int n_targets;

/* The target whose PMU counts on `cpu`, or NULL. */
static const struct bt_perf_target *target_on(int cpu)
{
	const struct bt_pk_pmu *pmu = cpu < 0 ? NULL : bt_pk_pmu_for_cpu(&kernel, (unsigned)cpu);
	for (int i = 0; pmu && i < n_targets; i++)
		if (strcmp(targets[i].pmu->name, pmu->name) == 0)
			return &targets[i];
	return NULL;
}

static int real_current(void)
{
	return sched_getcpu();
}

/* The affinity before this thread's pin, given back by unpin. */
static _Thread_local cpu_set_t saved_affinity;
static _Thread_local bool have_saved;

static int real_pin(int cpu, bool for_good)
{
	cpu_set_t one;
	if (for_good)
		have_saved = false;
	else if (!have_saved && sched_getaffinity(0, sizeof(saved_affinity), &saved_affinity) == 0)
		have_saved = true;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) == 0 ? 0 : errno;
}

static int real_unpin(void)
{
	if (!have_saved)
		return 0;
	have_saved = false;
	return sched_setaffinity(0, sizeof(saved_affinity), &saved_affinity) == 0 ? 0 : errno;
}

static void real_detect(struct bt_cpu_info *ci, struct bt_cpuid *l0a)
{
	bt_cpu_detect(bt_arch_cpuid_host(), NULL, ci);
	bt_cpuid(bt_arch_cpuid_host(), 0x0A, 0, l0a);
}

static const struct bt_perf_cpus real_cpus = { real_current, real_pin, real_unpin, real_detect };
/* The CPUs as the backend reaches them: the real ones, or a test's. */
static const struct bt_perf_cpus *cpus = &real_cpus;

void bt_perf_set_cpus(const struct bt_perf_cpus *c)
{
	cpus = c ? c : &real_cpus;
	n_targets = 0;
	have_kernel = false;
}

void bt_perf_set_sys(const struct bt_perf_sys *s)
{
	sys = s ? s : &real_sys;
}

/* Where the kernel's facts are read: "/", or a test's tree. */
static const char *kernel_root = "/";

void bt_perf_set_kernel_root(const char *root)
{
	kernel_root = root ? root : "/";
	n_targets = 0;
	have_kernel = false;
}

static int perf_open(struct perf_event_attr *a, int group_fd)
{
	return sys->open(a, group_fd);
}

static int paranoid_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -100;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

/*
 * What perf_event_open's errno says, by the kernel path that returns it
 * (kernel/events/core.c unless said): the paranoid and capability checks
 * (perf_allow_kernel, perf_allow_cpu, perf_event_paranoid >= 3 on Debian
 * and Ubuntu) answer EACCES; EPERM comes from a seccomp filter (container
 * runtimes' default profiles answer EPERM) or an LSM hook
 * (security_perf_event_open); EINVAL from the attr itself.
 */
static const char *errno_meaning(int e)
{
	switch (e) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return "no PMU exposed to Linux (a virtual machine without a virtual PMU, or a CPU "
		       "the kernel's driver does not support)";
	case EACCES:
		return "not allowed: perf_event_paranoid too high for this user (perf_allow_kernel / "
		       "perf_allow_cpu; needs <= 2, or CAP_PERFMON in the initial user namespace)";
	case EPERM:
		return "denied outside the paranoid check: a seccomp filter (a container's default "
		       "profile) or a security module (security_perf_event_open)";
	case ENOSYS:
		return "no perf_event_open (a kernel without perf events, or a seccomp filter)";
	case ENXIO:
		return "the kernel cannot write an extra MSR the event needs (check_msr failed at its "
		       "boot, x86_pmu_extra_regs)";
	case EINVAL:
		return "the kernel refused the attr: config bits or config1 outside what its driver "
		       "accepts (x86_pmu_hw_config, x86_pmu_extra_regs valid_mask), or the group does "
		       "not fit the PMU (validate_group)";
	default:
		return "perf_event_open failed";
	}
}

bt_status bt_perf_probe(struct bt_diag *why)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = perf_open(&a, -1);
	if (fd >= 0) {
		sys->close(fd);
		return BT_OK;
	}
	int e = errno, p = paranoid_level();
	char pv[32];
	if (p == -100)
		snprintf(pv, sizeof(pv), "unreadable");
	else
		snprintf(pv, sizeof(pv), "%d", p);
	bt_diag_set(why, "perf_event_open(instructions) failed with %s (%s): %s; "
		    "/proc/sys/kernel/perf_event_paranoid = %s", bt_errno_name(e),
		    strerror(e), errno_meaning(e), pv);
	return BT_ERR_UNSUPPORTED;
}

void bt_perf_provenance(struct bt_arch *arch, char *buf, size_t len)
{
	struct utsname u;
	struct bt_cpuid r;
	int n;

	if (uname(&u) != 0)
		snprintf(u.release, sizeof(u.release), "unknown");
	n = snprintf(buf, len, "counted by Linux perf_event (the kernel's driver, not baretop's), "
		     "kernel %s", u.release);
	bt_cpuid(arch, 1, 0, &r);
	if (n < 0 || (size_t)n >= len || !(r.ecx & (1u << 31)))
		return;
	/* CPUID.01H:ECX[31] is reserved for hypervisors to set; leaf
	 * 0x40000000 then holds the hypervisor's vendor string in EBX, ECX,
	 * EDX (the convention KVM, Hyper-V, Xen and VMware follow). */
	char vendor[13];
	bt_cpuid(arch, 0x40000000u, 0, &r);
	memcpy(vendor, &r.ebx, 4);
	memcpy(vendor + 4, &r.ecx, 4);
	memcpy(vendor + 8, &r.edx, 4);
	vendor[12] = '\0';
	for (int i = 0; i < 12; i++)
		if (vendor[i] && (vendor[i] < 0x20 || vendor[i] > 0x7e))
			vendor[i] = '?';
	snprintf(buf + n, len - (size_t)n, "; under a hypervisor (CPUID 0x40000000: \"%s\"): a "
		 "virtual PMU may filter events and counts the guest only", vendor);
}

static struct perf_state *state(struct bt_pmu_session *s)
{
	return s->driver_state;
}

static void close_group(struct perf_state *p)
{
	for (int i = 0; i < p->n; i++) {
		if (p->page[i])
			sys->munmap_page(p->page[i], p->page_len);
		if (p->fd[i] >= 0)
			sys->close(p->fd[i]);
		p->page[i] = NULL;
		p->fd[i] = -1;
	}
	p->n = 0;
}

static bt_status perf_open_session(struct bt_pmu_session *s)
{
	struct perf_state *p = calloc(1, sizeof(*p));

	if (!p)
		return bt_pmu_fail(s, BT_ERR_NOMEM, "perf_event: out of memory");
	s->driver_state = p;
	p->page_len = (size_t)sysconf(_SC_PAGESIZE);
	/* One CPU for the whole session: the counts of every group are of
	 * the same core (the kernel migrates a perf context with its task, but
	 * a moving thread would mix cores and caches). */
	int cpu = cpus->current();
	if (cpu < 0)
		return bt_pmu_fail(s, BT_ERR_UNSUPPORTED, "sched_getcpu: %s", strerror(errno));
	int e = cpus->pin(cpu, false);
	if (e)
		return bt_pmu_fail(s, BT_ERR_UNSUPPORTED, "sched_setaffinity(CPU %d): %s", cpu,
				   strerror(e));
	p->pinned = true;
	/* The target of the PMU that counts here: each kind of core has its
	 * own type and fixed-counter encodings. */
	p->target = target_on(cpu);
	if (n_targets && !p->target)
		return bt_pmu_fail(s, BT_ERR_UNSUPPORTED, "CPU %d: no kind of core planned for runs "
				   "here (its PMU is not one bt_perf_os_pmu was asked for)", cpu);
	return BT_OK;
}

/* "name=0xCONFIG, ..." of the group's members, for messages. */
static void member_list(const struct perf_state *p, int n, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0; i < n && o + 1 < len; i++) {
		int w = snprintf(buf + o, len - o, "%s%s=0x%llx", i ? ", " : "", p->m[i].what,
				 (unsigned long long)p->m[i].attr.config);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

/* read() of the leader, validated (perf-attr.h). */
static bt_status read_leader(struct bt_pmu_session *s, uint64_t *values)
{
	struct perf_state *p = state(s);
	uint64_t buf[3 + 2 * BT_PERF_MAX_MEMBERS];
	struct bt_diag d = { "" };

	long got = sys->read(p->fd[0], buf, sizeof(buf));
	if (got < 0)
		return bt_pmu_fail(s, BT_ERR_UNSUPPORTED, "%s: read: %s", p->name, strerror(errno));
	bt_status st = bt_perf_read_group(buf, (size_t)got, p->n, p->id, p->name, values, &d);
	if (st != BT_OK) {
		char members[400];
		member_list(p, p->n, members, sizeof(members));
		return bt_pmu_fail(s, st, "%s; its events: %s", d.text, members);
	}
	return BT_OK;
}

/* RDPMC usable for every member (their pages mapped, the kernel's
 * cap_user_rdpmc set and the event on a counter now). */
static bool rdpmc_usable(const struct perf_state *p)
{
	for (int i = 0; i < p->n; i++) {
		const struct perf_event_mmap_page *pg = p->page[i];
		if (!pg || p->m[i].role == BT_PERF_METRIC || !pg->cap_user_rdpmc || !pg->index)
			return false;
	}
	return true;
}

/* One member's count from its user page (the sequence the kernel
 * documents in include/uapi/linux/perf_event.h, struct
 * perf_event_mmap_page): retry while the kernel updated the page. */
static bool read_user_page(const struct perf_event_mmap_page *pg, uint64_t *ret)
{
	volatile const struct perf_event_mmap_page *v = pg;
	uint32_t seq, idx;
	uint64_t count;

	do {
		seq = v->lock;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		idx = v->index;
		count = (uint64_t)v->offset;
		if (!v->cap_user_rdpmc || !idx)
			return false;
		unsigned width = v->pmc_width;
		uint64_t pmc = bt_arch_host_user_rdpmc(idx - 1);
		/* Sign-extend the counter's width (the kernel's offset makes the
		 * sum the event's count). */
		if (width > 0 && width < 64) {
			pmc <<= 64 - width;
			pmc = (uint64_t)((int64_t)pmc >> (64 - width));
		}
		count += pmc;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (v->lock != seq);
	*ret = count;
	return true;
}

static bt_status read_counts(struct bt_pmu_session *s, uint64_t *values)
{
	struct perf_state *p = state(s);

	if (p->rdpmc) {
		for (int i = 0; i < p->n; i++)
			if (!read_user_page(p->page[i], &values[i]))
				return bt_pmu_fail(s, BT_ERR_UNSUPPORTED, "%s: %s left its counter "
						   "(descheduled) between reads", p->name, p->m[i].what);
		return BT_OK;
	}
	return read_leader(s, values);
}

static bt_status perf_program(struct bt_pmu_session *s)
{
	struct perf_state *p = state(s);
	struct bt_perf_attr_opts o = { .count_kernel = false };
	if (p->target)
		o = p->target->attr;
	struct bt_diag d = { "" };
	int n = 0;

	/* The engine programs a group again before each of its runs: within a
	 * session the plan does not change, so the open group is kept (and
	 * checked again) rather than opened anew each time. */
	if (p->n && p->plan == s->plan && p->group == s->group) {
		bt_status st = read_leader(s, p->before);
		if (st == BT_OK)
			p->rdpmc = rdpmc_usable(p);
		return st;
	}
	close_group(p);
	p->plan = s->plan;
	p->group = s->group;
	snprintf(p->name, sizeof(p->name), "counter group %d", s->group);
	bt_status st = bt_perf_group_attrs(s->plan, s->group, s->events, &s->caps, s->fixed_used,
					   s->pm, &o, p->m, &n, &d);
	if (st != BT_OK)
		return bt_pmu_fail(s, st, "%s: %s", p->name, d.text);
	for (int i = 0; i < n; i++)
		p->fd[i] = -1;
	p->n = n;
	for (int i = 0; i < n; i++) {
		p->fd[i] = perf_open(&p->m[i].attr, i ? p->fd[0] : -1);
		if (p->fd[i] < 0) {
			int e = errno;
			char members[400];
			member_list(p, n, members, sizeof(members));
			return bt_pmu_fail(s, BT_ERR_UNSUPPORTED, "%s [%s]: perf_event_open of %s (type %u, "
					   "config 0x%llx, config1 0x%llx) failed: %s (%s)", p->name,
					   members, p->m[i].what, p->m[i].attr.type,
					   (unsigned long long)p->m[i].attr.config,
					   (unsigned long long)p->m[i].attr.config1, bt_errno_name(e),
					   errno_meaning(e));
		}
		if (sys->ioctl(p->fd[i], PERF_EVENT_IOC_ID, &p->id[i]) != 0)
			return bt_pmu_fail(s, BT_ERR_UNSUPPORTED, "%s: PERF_EVENT_IOC_ID: %s", p->name,
					   strerror(errno));
		p->page[i] = sys->mmap_page(p->fd[i], p->page_len);
	}
	if (sys->ioctl(p->fd[0], PERF_EVENT_IOC_ENABLE, (void *)(uintptr_t)PERF_IOC_FLAG_GROUP) != 0)
		return bt_pmu_fail(s, BT_ERR_UNSUPPORTED, "%s: PERF_EVENT_IOC_ENABLE: %s", p->name,
				   strerror(errno));
	/* The pinned group is on the PMU now or in error state: a read says
	 * which, and whether every member counts all the time. */
	st = read_leader(s, p->before);
	if (st != BT_OK)
		return st;
	p->rdpmc = rdpmc_usable(p);
	return BT_OK;
}

static bt_status perf_run(struct bt_pmu_session *s, bt_window_fn *fn, void *arg)
{
	struct perf_state *p = state(s);

	/* The window: counters read, TSC, the body, TSC, counters read. The
	 * reads and the TSC pair are the overhead the calibration measures. */
	bt_status st = read_counts(s, p->before);
	if (st != BT_OK)
		return st;
	s->tsc0 = bt_rdtsc(s->arch);
	fn(arg);
	s->tsc1 = bt_rdtsc(s->arch);
	return read_counts(s, p->after);
}

static bt_status perf_read(struct bt_pmu_session *s, struct bt_pmu_counts *c)
{
	struct perf_state *p = state(s);

	/* With RDPMC the window had no read(): one now checks that the group
	 * counted all the time it was enabled. */
	if (p->rdpmc) {
		uint64_t now[BT_PERF_MAX_MEMBERS];
		bt_status st = read_leader(s, now);
		if (st != BT_OK)
			return st;
	}
	for (int i = 0; i < p->n; i++) {
		unsigned k = p->m[i].index;
		uint64_t delta = p->after[i] - p->before[i];
		switch (p->m[i].role) {
		case BT_PERF_FIXED:
			c->fixed_start[k] = p->before[i];
			c->fixed_end[k] = p->after[i];
			c->fixed_delta[k] = delta;
			break;
		case BT_PERF_GP:
			c->gp_start[k] = p->before[i];
			c->gp_end[k] = p->after[i];
			c->gp_delta[k] = delta;
			break;
		case BT_PERF_METRIC:
			/* The kernel already turned the field into slots,
			 * floor(slots * byte / 255) (as bt_perf_metrics_slots). */
			c->has_perf_metrics = true;
			c->pm_slots[k] = delta;
			break;
		}
	}
	if (c->has_perf_metrics)
		c->slots = c->fixed_delta[3];
	return BT_OK;
}

static bt_status perf_restore(struct bt_pmu_session *s)
{
	struct perf_state *p = state(s);
	bt_status st = BT_OK;

	if (!p)
		return BT_OK;
	close_group(p);
	if (p->pinned && cpus->unpin() != 0)
		st = BT_ERR_UNSUPPORTED;
	free(p);
	s->driver_state = NULL;
	return st;
}

const struct bt_pmu_driver bt_pmu_perf_driver = {
	.name = "Linux perf_event",
	.kinds = 0,            /* never chosen from caps.kind: only by --backend=perf */
	.fixed_counters = true,
	.smi_count = false,
	.open = perf_open_session,
	.program = perf_program,
	.run = perf_run,
	.read = perf_read,
	.restore = perf_restore,
};

static bool has_event(const char *dir, const char *name)
{
	char path[512];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

const char *bt_perf_caps_from_sysfs(struct bt_pmu_caps *caps, const char *events_dir)
{
	if (caps->kind != BT_PMU_INTEL_ARCH)
		return "";
	if (!has_event(events_dir, "slots")) {
		caps->fixed_mask &= ~(1u << 3);
		caps->num_fixed = 0;
		for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++)
			if (caps->fixed_mask & (1u << i))
				caps->num_fixed = (uint8_t)(i + 1);
	}
	bool pm = (caps->fixed_mask & (1u << 3)) && has_event(events_dir, "topdown-retiring");
	caps->perf_metrics = pm;
	caps->perf_metrics_fields = !pm ? 0 : has_event(events_dir, "topdown-mem-bound") ? 8 : 4;
	if (pm)
		return caps->perf_metrics_fields == 8
			       ? "the kernel exposes TOPDOWN.SLOTS and 8 PERF_METRICS fields"
			       : "the kernel exposes TOPDOWN.SLOTS and 4 PERF_METRICS fields";
	return caps->fixed_mask & (1u << 3) ? "the kernel exposes TOPDOWN.SLOTS, no PERF_METRICS"
					    : "the kernel exposes neither TOPDOWN.SLOTS nor PERF_METRICS";
}

/* perf-plan.h bt_perf_try_fn: the event alone, enabled over the known
 * loop (a volatile counter: a load, an add, a store, a compare and a
 * branch each iteration), read and closed. */
static int try_alone(void *ctx, struct perf_event_attr *a, uint64_t *count)
{
	(void)ctx;
	*count = 0;
	errno = 0;
	a->disabled = 1;
	int fd = perf_open(a, -1);
	if (fd < 0)
		return errno ? errno : EINVAL;
	int err = 0;
	if (sys->ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
		err = errno ? errno : EIO;
	} else {
		for (volatile unsigned i = 0; i < BT_PERF_TRY_LOOP; i++)
			;
		sys->ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		uint64_t v = 0;
		if (sys->read(fd, &v, sizeof(v)) != (long)sizeof(v))
			err = errno ? errno : EIO;
		*count = v;
	}
	sys->close(fd);
	return err;
}

bt_status bt_perf_pin_first(struct bt_diag *why)
{
	int c = cpus->current(), e;
	if (c < 0) {
		bt_diag_set(why, "sched_getcpu: %s", strerror(errno));
		return BT_ERR_UNSUPPORTED;
	}
	if ((e = cpus->pin(c, true)) != 0) {
		bt_diag_set(why, "sched_setaffinity(CPU %d): %s", c, strerror(e));
		return BT_ERR_UNSUPPORTED;
	}
	return BT_OK;
}

/* The CPU to plan the kind of core `cpu` describes on: the one this
 * thread is on when it is of that kind (the process was pinned there
 * before detection), else the first CPU of that kind's PMU. */
static int cpu_of_kind(const struct bt_cpu_info *cpu, const struct bt_pk_pmu *pmu, int here)
{
	if (here >= 0 && bt_pk_pmu_for_cpu(&kernel, (unsigned)here) == pmu)
		return here;
	for (unsigned c = 0; pmu->has_cpus && c < BT_PK_MAX_CPUS; c++)
		if (pmu->cpus[c / 64] >> (c % 64) & 1)
			return (int)c;
	(void)cpu;
	return here;
}

bt_status bt_perf_os_pmu(const struct bt_cpu_info *cpu, struct bt_pmu *ret, char *counted_by,
			 size_t len, struct bt_diag *why)
{
	struct bt_diag d = { "" };

	if (bt_perf_probe(why) != BT_OK)
		return BT_ERR_UNSUPPORTED;
	/* The plan needs the counters' shape: CPUID's (leaf 0AH on Intel, as
	 * a hypervisor presents its virtual PMU; AMD's feature bits). */
	if (cpu->pmu.kind == BT_PMU_NONE) {
		bt_diag_set(why, "perf_event_open works, but CPUID enumerates no PMU baretop can plan "
			    "counter groups for: %s", cpu->pmu.absent_reason);
		return BT_ERR_UNSUPPORTED;
	}
	if (!have_kernel && bt_perf_kernel_read(kernel_root, &kernel, &d) != BT_OK) {
		bt_diag_set(why, "the kernel's PMU facts: %s", d.text);
		return BT_ERR_UNSUPPORTED;
	}
	have_kernel = true;
	/* The kind of core asked for has its own PMU on a hybrid part
	 * (find_hybrid_pmu_for_cpu): planned once, on a CPU of that PMU. */
	const char *want = bt_perf_pmu_name_for(&kernel, cpu);
	const struct bt_pk_pmu *pmu = bt_pk_pmu_named(&kernel, want);
	if (!pmu && !kernel.hybrid)
		pmu = &kernel.pmu[0];
	if (!pmu) {
		bt_diag_set(why, "this kind of core (type 0x%02x, native model 0x%x) has no %s PMU in "
			    "this kernel", cpu->core_type, cpu->native_model_id, want);
		return BT_ERR_UNSUPPORTED;
	}
	struct bt_perf_target *t = NULL;
	for (int i = 0; i < n_targets && !t; i++)
		if (targets[i].pmu == NULL || strcmp(targets[i].pmu->name, pmu->name) == 0)
			t = &targets[i];
	if (!t) {
		if (n_targets >= BT_PK_MAX_PMUS) {
			bt_diag_set(why, "more than %d kinds of core", BT_PK_MAX_PMUS);
			return BT_ERR_UNSUPPORTED;
		}
		/* Pin first, then detect: CPUID is read on a CPU of that PMU,
		 * pinned there. The process's own kind (the first asked for)
		 * stays pinned, where its counting thread runs; another kind's
		 * detection gives the affinity back. */
		int here = cpus->current(), c = cpu_of_kind(cpu, pmu, here), e;
		if (c < 0) {
			bt_diag_set(why, "sched_getcpu: %s", strerror(errno));
			return BT_ERR_UNSUPPORTED;
		}
		bool restore = n_targets > 0;
		if ((e = cpus->pin(c, !restore)) != 0) {
			bt_diag_set(why, "sched_setaffinity(CPU %d): %s", c, strerror(e));
			return BT_ERR_UNSUPPORTED;
		}
		struct bt_cpu_info there;
		struct bt_cpuid l0a;
		cpus->detect(&there, &l0a);
		if (restore)
			cpus->unpin();
		if (!bt_cpu_same_core_kind(&there, cpu) || there.model != cpu->model) {
			bt_diag_set(why, "CPU %d, of the kernel's %s PMU, is not the kind of core asked "
				    "for (CPUID there: core type 0x%02x, native model 0x%x; asked: 0x%02x, "
				    "0x%x)", c, pmu->name, there.core_type, there.native_model_id,
				    cpu->core_type, cpu->native_model_id);
			return BT_ERR_UNSUPPORTED;
		}
		t = &targets[n_targets];
		if (bt_perf_target_init(t, &kernel, cpu, &l0a, (unsigned)c, &d) != BT_OK) {
			bt_diag_set(why, "%s", d.text);
			return BT_ERR_UNSUPPORTED;
		}
		t->try_open = try_alone;
		n_targets++;
	}
	ret->arch = bt_arch_cpuid_host();
	ret->caps = t->caps;
	ret->caps.os_filter = &t->filter;
	ret->driver = &bt_pmu_perf_driver;
	ret->facts = (const char (*)[240])t->facts;
	ret->n_facts = t->n_facts;
	bt_perf_provenance(ret->arch, counted_by, len);
	return BT_OK;
}
