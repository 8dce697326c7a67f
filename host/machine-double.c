/* SPDX-License-Identifier: MIT */
/* The machine double's CPUs and PMUs: see machine-double.h. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arch/arch-cpuid-host.h"
#include "host/machine-internal.h"

/* ------------------------------------------------------------ the spec */

static bool parse_u32(const char *s, uint32_t *ret)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (end == s || v > 0xFFFFFFFFul)
		return false;
	if (*end == 'K' || *end == 'k') {
		v *= 1024;
		end++;
	}
	*ret = (uint32_t)v;
	return *end == '\0';
}

/* "4-7:stuck-counter:2" -> CPUs 4..7 get the defect. */
static bt_status parse_defect(struct bt_md *m, const char *v, struct bt_diag *d)
{
	char cpus[32];
	const char *colon = strchr(v, ':');
	uint32_t lo, hi;

	if (!colon || (size_t)(colon - v) >= sizeof(cpus))
		goto bad;
	memcpy(cpus, v, (size_t)(colon - v));
	cpus[colon - v] = '\0';
	char *dash = strchr(cpus, '-');
	if (dash)
		*dash = '\0';
	if (!parse_u32(cpus, &lo) || !parse_u32(dash ? dash + 1 : cpus, &hi) || hi < lo ||
	    hi >= m->n)
		goto bad;
	for (uint32_t c = lo; c <= hi; c++) {
		size_t n = strlen(m->cpu[c].defects);
		snprintf(m->cpu[c].defects + n, sizeof(m->cpu[c].defects) - n, "%s%s", n ? "," : "",
			 colon + 1);
	}
	return BT_OK;
bad:
	bt_diag_set(d, "--machine defect=%s: CPUS:DEFECT, CPUS a CPU or a range A-B of the "
		    "machine's %u", v, m->n);
	return BT_ERR_INVALID;
}

/* Logical CPUs the double models: the largest x86 servers (8 sockets of
 * 2 x 128 threads) and then some. */
#define BT_MD_MAX_CPUS 4096

struct spec {
	uint32_t packages, cores, threads;
	bool topology;
	const char *cpu, *cpuid;
	char buf[512];
	char *defects[16];
	unsigned n_defects;
	bool cpu_from_sim;        /* cpu= is --sim's preset */
};

/* default_cpu: --sim's preset, which names the CPUs where the spec does
 * not; a spec that names them otherwise is refused (the PMU would be one
 * part's and the CPUID another's). */
static bt_status parse_spec(const char *text, const char *default_cpu, struct spec *s,
			    struct bt_mpd_config *mc, struct bt_diag *d)
{
	snprintf(s->buf, sizeof(s->buf), "%s", text);
	mc->ap_stack = 4096;
	mc->loop = BT_MPD_LOOP_MWAIT;
	s->packages = 1;
	for (char *save = NULL, *tok = strtok_r(s->buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			uint32_t v[3];
			int n = 0;
			char *end = tok;
			for (char *x = tok; n < 3; x = end + 1) {
				unsigned long u = strtoul(x, &end, 10);
				if (end == x || u == 0 || u > 256)
					goto bad;
				v[n++] = (uint32_t)u;
				if (*end != 'x')
					break;
			}
			/* all of it read: "2x2x2x2" is not 2x2x2 */
			if (n < 2 || s->topology || *end)
				goto bad;
			s->packages = n == 3 ? v[0] : 1;
			s->cores = v[n - 2];
			s->threads = v[n - 1];
			s->topology = true;
			continue;
		}
		*eq = '\0';
		const char *k = tok, *v = eq + 1;
		if (strcmp(k, "cpu") == 0) {
			if (s->cpu)
				goto twice;
			s->cpu = v;
		} else if (strcmp(k, "cpuid") == 0) {
			if (s->cpuid)
				goto twice;
			s->cpuid = v;
		} else if (strcmp(k, "bsp") == 0) {
			if (!parse_u32(v, &mc->bsp))
				goto bad;
		} else if (strcmp(k, "ap-stack") == 0) {
			if (!parse_u32(v, &mc->ap_stack) || mc->ap_stack % 4096 || !mc->ap_stack)
				goto bad;
		} else if (strcmp(k, "loop") == 0) {
			mc->loop = strcmp(v, "hlt") == 0 ? BT_MPD_LOOP_HLT
				 : strcmp(v, "mwait") == 0 ? BT_MPD_LOOP_MWAIT
				 : strcmp(v, "run") == 0 ? BT_MPD_LOOP_RUN : 0;
			if (!mc->loop)
				goto bad;
		} else if (strcmp(k, "pi") == 0) {
			if (strcmp(v, "strict") && strcmp(v, "forgiving"))
				goto bad;
			mc->forgiving = strcmp(v, "forgiving") == 0;
		} else if (strcmp(k, "defect") == 0 && s->n_defects < 16) {
			s->defects[s->n_defects++] = (char *)v;
		} else {
			goto bad;
		}
	}
	if (default_cpu && !s->cpu && !s->cpuid) {
		s->cpu = default_cpu;
		s->cpu_from_sim = true;
	} else if (default_cpu && (s->cpuid || strcasecmp(s->cpu, default_cpu) != 0)) {
		bt_diag_set(d, "--machine %s and --sim=%s name the CPUs twice: give the part once "
			    "(cpu=PRESET or cpuid=FILE in the spec, or --sim=PRESET alone with "
			    "--machine PxCxT)", text, default_cpu);
		return BT_ERR_INVALID;
	}
	if (!!s->cpu == !!s->cpuid) {
		bt_diag_set(d, "--machine %s: name the CPUs with cpu=PRESET or cpuid=FILE (one of "
			    "them)", text);
		return BT_ERR_INVALID;
	}
	return BT_OK;
twice:
	bt_diag_set(d, "--machine %s: cpu= or cpuid= given twice: name the CPUs once", text);
	return BT_ERR_INVALID;
bad:
	bt_diag_set(d, "--machine %s: not [PxCxT|CxT][,cpu=PRESET|cpuid=FILE][,bsp=N]"
		    "[,ap-stack=BYTES][,loop=hlt|mwait|run][,pi=strict|forgiving]"
		    "[,defect=CPUS:DEFECT]", text);
	return BT_ERR_INVALID;
}

/* ------------------------------------------------------------ CPUID */

static uint32_t apic_of(const struct md_cpu *c, const struct bt_md *m)
{
	return (c->package * m->cores + c->core) * m->threads + c->thread;
}

/* What `cpu` answers: its kind's leaves, its own APIC ID (01H EBX[31:24],
 * 0BH / 1FH EDX) and the machine's threads per core and CPUs per package
 * (0BH subleaves 0 and 1, EBX: SDM vol. 2A CPUID leaf 0BH). */
void bt_md_cpuid(struct bt_md *m, uint32_t cpu, uint32_t leaf, uint32_t subleaf,
		 struct bt_cpuid *ret)
{
	struct md_cpu *c = &m->cpu[cpu];
	uint32_t apic = apic_of(c, m);

	bt_cpuid(c->from_dump ? &c->dump.arch : &c->base.arch, leaf, subleaf, ret);
	if (leaf == 1) {
		ret->ebx = (ret->ebx & 0x00FFFFFFu) | (apic << 24);
	} else if ((leaf == 0xB || leaf == 0x1F) && ret->ebx) {
		ret->edx = apic;
		if (m->topology_of_dump)
			return;
		if (leaf == 0xB && subleaf == 0)
			ret->ebx = m->threads;
		else if (leaf == 0xB && subleaf == 1)
			ret->ebx = m->cores * m->threads;
	}
}

/* ------------------------------------------------------------ the archs */

static struct bt_md *md_of(struct bt_arch *a)
{
	return a->ctx;
}

static uint32_t current(struct bt_md *m)
{
	uint32_t me;

	bt_mpd_who_am_i(m->mpd, &me);
	return me;
}

/* The CPU's own view: CPUID as its kind answers it; everything else as
 * hosted code can (RDTSC, XGETBV real; MSRs refused). */
static void cpu_cpuid(struct bt_arch *a, uint32_t leaf, uint32_t sub, struct bt_cpuid *ret)
{
	struct bt_md *m = md_of(a);

	bt_md_cpuid(m, current(m), leaf, sub, ret);
}

#define HOST (bt_arch_cpuid_host())
static bt_status cpu_rdmsr(struct bt_arch *a, uint32_t msr, uint64_t *r) { (void)a; return HOST->ops->rdmsr(HOST, msr, r); }
static bt_status cpu_wrmsr(struct bt_arch *a, uint32_t msr, uint64_t v) { (void)a; return HOST->ops->wrmsr(HOST, msr, v); }
static bt_status cpu_rdpmc(struct bt_arch *a, uint32_t e, uint64_t *r) { (void)a; return HOST->ops->rdpmc(HOST, e, r); }
static uint64_t cpu_rdtsc(struct bt_arch *a) { (void)a; return HOST->ops->rdtsc(HOST); }
static bt_status cpu_xgetbv(struct bt_arch *a, uint32_t x, uint64_t *r) { (void)a; return HOST->ops->xgetbv(HOST, x, r); }
static bt_status cpu_xsetbv(struct bt_arch *a, uint32_t x, uint64_t v) { (void)a; return HOST->ops->xsetbv(HOST, x, v); }
static uint64_t cpu_read_cr4(struct bt_arch *a) { (void)a; return HOST->ops->read_cr4(HOST); }
static void cpu_write_cr4(struct bt_arch *a, uint64_t v) { (void)a; HOST->ops->write_cr4(HOST, v); }
static uint64_t cpu_irq_save(struct bt_arch *a) { (void)a; return HOST->ops->irq_save(HOST); }
static void cpu_irq_restore(struct bt_arch *a, uint64_t s) { (void)a; HOST->ops->irq_restore(HOST, s); }
static bt_status cpu_window(struct bt_arch *a, uint32_t msr, uint64_t start, uint64_t stop,
			    bt_window_fn *fn, void *arg)
{
	(void)a;
	return HOST->ops->run_window(HOST, msr, start, stop, fn, arg);
}

static const struct bt_arch_ops cpu_ops = {
	.cpuid = cpu_cpuid, .rdmsr = cpu_rdmsr, .wrmsr = cpu_wrmsr, .rdpmc = cpu_rdpmc,
	.rdtsc = cpu_rdtsc, .xgetbv = cpu_xgetbv, .xsetbv = cpu_xsetbv,
	.read_cr4 = cpu_read_cr4, .write_cr4 = cpu_write_cr4, .irq_save = cpu_irq_save,
	.irq_restore = cpu_irq_restore, .run_window = cpu_window,
};

/* The PMUs: every access goes to the PMU of the calling CPU; a fault's
 * vector is copied back, as callers read it from the arch they called. */
static struct bt_arch *pmu_here(struct bt_arch *a)
{
	struct bt_md *m = md_of(a);
	uint32_t me = current(m);
	struct bt_sim *s = bt_md_pmu(m, me);

	return s ? &s->arch : &m->cpu[me].dump.arch;
}

static void fault_back(struct bt_arch *a, const struct bt_arch *s)
{
	a->fault_vector = s->fault_vector;
	a->fault_count = s->fault_count;
}

static bt_status pmu_rdmsr(struct bt_arch *a, uint32_t msr, uint64_t *r)
{
	struct bt_arch *s = pmu_here(a);
	bt_status st = s->ops->rdmsr(s, msr, r);
	fault_back(a, s);
	return st;
}

static bt_status pmu_wrmsr(struct bt_arch *a, uint32_t msr, uint64_t v)
{
	struct bt_arch *s = pmu_here(a);
	bt_status st = s->ops->wrmsr(s, msr, v);
	fault_back(a, s);
	return st;
}

static bt_status pmu_rdpmc(struct bt_arch *a, uint32_t ecx, uint64_t *r)
{
	struct bt_arch *s = pmu_here(a);
	bt_status st = s->ops->rdpmc(s, ecx, r);
	fault_back(a, s);
	return st;
}

static uint64_t pmu_rdtsc(struct bt_arch *a)
{
	struct bt_arch *s = pmu_here(a);
	return s->ops->rdtsc(s);
}

static bt_status pmu_xgetbv(struct bt_arch *a, uint32_t x, uint64_t *r)
{
	struct bt_arch *s = pmu_here(a);
	return s->ops->xgetbv(s, x, r);
}

static bt_status pmu_xsetbv(struct bt_arch *a, uint32_t x, uint64_t v)
{
	struct bt_arch *s = pmu_here(a);
	return s->ops->xsetbv(s, x, v);
}

static uint64_t pmu_read_cr4(struct bt_arch *a)
{
	struct bt_arch *s = pmu_here(a);
	return s->ops->read_cr4(s);
}

static void pmu_write_cr4(struct bt_arch *a, uint64_t v)
{
	struct bt_arch *s = pmu_here(a);
	s->ops->write_cr4(s, v);
}

static uint64_t pmu_irq_save(struct bt_arch *a)
{
	struct bt_arch *s = pmu_here(a);
	return s->ops->irq_save(s);
}

static void pmu_irq_restore(struct bt_arch *a, uint64_t v)
{
	struct bt_arch *s = pmu_here(a);
	s->ops->irq_restore(s, v);
}

static bt_status pmu_window(struct bt_arch *a, uint32_t msr, uint64_t start, uint64_t stop,
			    bt_window_fn *fn, void *arg)
{
	struct bt_arch *s = pmu_here(a);
	bt_status st = s->ops->run_window(s, msr, start, stop, fn, arg);
	fault_back(a, s);
	return st;
}

static void pmu_window_part(struct bt_arch *a, uint64_t begin, uint64_t end, uint64_t total)
{
	struct bt_arch *s = pmu_here(a);
	bt_window_part(s, begin, end, total);
}

static const struct bt_arch_ops pmu_ops = {
	.cpuid = cpu_cpuid, .rdmsr = pmu_rdmsr, .wrmsr = pmu_wrmsr, .rdpmc = pmu_rdpmc,
	.rdtsc = pmu_rdtsc, .xgetbv = pmu_xgetbv, .xsetbv = pmu_xsetbv,
	.read_cr4 = pmu_read_cr4, .write_cr4 = pmu_write_cr4, .irq_save = pmu_irq_save,
	.irq_restore = pmu_irq_restore, .run_window = pmu_window,
	.window_part = pmu_window_part,
};

/* ------------------------------------------------------------ the synth's view */

/* CPU `cpu` is a core of the kind cfg describes. One kind of core: the
 * synth's configuration is every CPU's PMU. */
static bool same_kind(struct bt_md *m, uint32_t cpu, const struct bt_sim_config *cfg)
{
	struct bt_cpuid r;

	if (!m->hybrid)
		return true;
	/* CPUID.1AH:EAX: core type [31:24], native model ID [23:0] */
	bt_md_cpuid(m, cpu, 0x1A, 0, &r);
	uint32_t native = r.eax & 0xFFFFFFu;
	return (r.eax >> 24) == cfg->core_type &&
	       (!native || !cfg->native_model || native == cfg->native_model);
}

/* Defects `spec` names, added to *df (sim.h: each defect's parameters
 * belong to its bit). */
static bt_status add_defects(struct bt_sim_defects *df, const char *spec, struct bt_diag *d)
{
	struct bt_sim_defects more;

	if (bt_sim_defects_parse(spec, &more, d) != BT_OK)
		return BT_ERR_INVALID;
	if (more.mask & BT_SIM_DEFECT_STUCK_COUNTER)
		df->stuck_gp = more.stuck_gp;
	if (more.mask & BT_SIM_DEFECT_NARROW_COUNTER)
		df->narrow_gp = more.narrow_gp;
	if (more.mask & BT_SIM_DEFECT_NO_OVERFLOW)
		df->no_ovf_gp = more.no_ovf_gp;
	if (more.mask & BT_SIM_DEFECT_FIXED_DEAD)
		df->dead_fixed = more.dead_fixed;
	if (more.mask & BT_SIM_DEFECT_DOUBLE_COUNT) {
		df->double_code = more.double_code;
		df->double_umask = more.double_umask;
	}
	if (more.mask & BT_SIM_DEFECT_UMASK_IGNORED)
		df->umask_code = more.umask_code;
	df->mask |= more.mask;
	return BT_OK;
}

/* The SMT knob of every PMU from what the other thread of its core does
 * (mp-double.h bt_mpd_cpu_active); set on the BSP between MP calls. */
static void siblings(void *ctx)
{
	struct bt_md *m = ctx;

	for (uint32_t i = 0; i < m->n && m->threads > 1; i++) {
		bool other = false;
		if (!bt_md_pmu(m, i))
			continue;
		for (uint32_t j = 0; j < m->n; j++)
			if (j != i && m->cpu[j].package == m->cpu[i].package &&
			    m->cpu[j].core == m->cpu[i].core && bt_mpd_cpu_active(m->mpd, j))
				other = true;
		bt_sim_set_sibling_active(&bt_md_pmu(m, i)->arch, other ? 1.0 : 0.0);
	}
}

static void synth_release(void *ctx, struct bt_sim *const *pmus, unsigned n)
{
	struct bt_md *m = ctx;

	for (unsigned k = 0; k < n; k++)
		for (uint32_t cpu = 0; cpu < m->n; cpu++) {
			struct md_cpu *c = &m->cpu[cpu];
			if (c->pmu != pmus[k])
				continue;
			c->gone_accesses += c->pmu->access_count;
			c->gone_pebs_records += c->pmu->pebs_records;
			c->gone_windows += c->pmu->windows;
			c->pmu = NULL;
			bt_sim_free(pmus[k]);
			free(pmus[k]);
		}
	siblings(m);
}

static unsigned synth_pmus(void *ctx, const struct bt_sim_config *cfg, struct bt_sim **ret,
			   struct bt_diag *d)
{
	struct bt_md *m = ctx;
	unsigned n = 0;

	for (uint32_t cpu = 0; cpu < m->n; cpu++) {
		struct md_cpu *c = &m->cpu[cpu];
		struct bt_sim_config cc = *cfg;

		if (!same_kind(m, cpu, cfg))
			continue;
		if (c->defects[0] && (add_defects(&cc.defects, c->defects, d) != BT_OK ||
				      bt_sim_defects_check(&cc.defects, &cc, d) != BT_OK)) {
			bt_diag_prefix(d, "--machine defect= on CPU %u", cpu);
			break;
		}
		struct bt_sim *sim = calloc(1, sizeof(*sim));
		if (!sim || bt_sim_init(sim, &cc) != BT_OK) {
			free(sim);
			bt_diag_set(d, "CPU %u's simulated PMU could not be set up", cpu);
			break;
		}
		c->pmu = ret[n++] = sim;
	}
	if (n && d->text[0]) {
		/* all or none */
		synth_release(m, ret, n);
		return 0;
	}
	if (!n && !d->text[0])
		bt_diag_set(d, "no CPU of the simulated machine is a %s", cfg->brand);
	siblings(m);
	return n;
}

/* ------------------------------------------------------------ setting up */

/* The dump group logical CPU `cpu` answered in, or NULL. */
static const struct bt_cpuid_dump_group *group_of(const struct bt_cpuid_dump *d, uint32_t cpu)
{
	for (size_t g = 0; g < d->n_groups; g++)
		for (size_t k = 0; k < d->groups[g].n_cpus; k++)
			if (d->groups[g].cpus[k] == cpu)
				return &d->groups[g];
	return NULL;
}

/* Logical processors per core and per package as the CPUs of group g
 * answer leaf 1FH (else 0BH): the SMT level's EBX[15:0] per core, the last
 * level's per package (SDM Vol. 2A, CPUID leaf 0BH / 1FH; ECX[15:8] the
 * level type, 1 = SMT, 0 = no more levels). 0: not given. */
static void smt_of(const struct bt_cpuid_dump_group *g, uint32_t *per_core, uint32_t *per_pkg)
{
	uint32_t max = bt_cpuid_dump_get(g, 0, 0).eax;
	uint32_t leaf = max >= 0x1F && bt_cpuid_dump_get(g, 0x1F, 0).ebx ? 0x1F
		      : max >= 0xB ? 0xB : 0;

	*per_core = *per_pkg = 0;
	for (uint32_t sub = 0; leaf && sub < 8; sub++) {
		struct bt_cpuid r = bt_cpuid_dump_get(g, leaf, sub);
		uint32_t type = (r.ecx >> 8) & 0xFF;
		if (!type || !(r.ebx & 0xFFFF))
			break;
		if (type == 1)
			*per_core = r.ebx & 0xFFFF;
		*per_pkg = r.ebx & 0xFFFF;
	}
}

/*
 * The layout the dump's CPUs answer (smt_of), each CPU with the threads
 * per core its own leaves give (a hybrid part's E-cores answer 1 where its
 * P-cores answer 2), taken in the dump's order: APIC ID order, an SMT
 * core's threads side by side. Without the leaves: one thread per core,
 * one package.
 */
static void layout_of_dump(struct bt_md *m)
{
	uint32_t pkg = 0, core = 0, thread = 0, in_pkg = 0, per_core, per_pkg;

	m->threads = 1;
	m->cores = 0;
	m->topology_of_dump = true;
	for (uint32_t i = 0; i < m->n; i++) {
		struct md_cpu *c = &m->cpu[i];
		smt_of(group_of(&m->dump, i), &per_core, &per_pkg);
		if (!per_core)
			per_core = 1;
		if (per_core > m->threads)
			m->threads = per_core;
		c->package = pkg;
		c->core = core;
		c->thread = thread;
		if (pkg == 0 && core + 1 > m->cores)
			m->cores = core + 1;
		if (++thread >= per_core) {
			thread = 0;
			core++;
		}
		if (per_pkg && ++in_pkg == per_pkg) {
			pkg++;
			core = thread = in_pkg = 0;
		}
	}
}

static bt_status load_cpus(struct bt_md *m, const struct spec *s, struct bt_diag *d)
{
	uint32_t n = s->topology ? s->packages * s->cores * s->threads : 0;

	if (n > BT_MD_MAX_CPUS) {
		bt_diag_set(d, "--machine: %ux%ux%u is %u logical CPUs; the double models %u at most",
			    s->packages, s->cores, s->threads, n, BT_MD_MAX_CPUS);
		return BT_ERR_INVALID;
	}

	if (s->cpuid) {
		/* as many CPUs as the dump lists, CPU i its CPU i */
		const struct bt_cpuid_dump_group *g;
		uint32_t first;
		char path[256];
		if (bt_cpuid_dump_read_cpu("--machine cpuid=", s->cpuid, false, &m->dump, &g, &first,
					   path, sizeof(path), d) != BT_OK)
			return BT_ERR_INVALID;
		uint32_t have = 0;
		while (group_of(&m->dump, have))
			have++;
		if (!s->topology) {
			n = have;
			m->cores = have;
		} else if (n != have) {
			bt_diag_set(d, "--machine: %ux%ux%u is %u CPUs; %s has %u (0-%u)", s->packages,
				    s->cores, s->threads, n, s->cpuid, have, have - 1);
			return BT_ERR_INVALID;
		}
	} else if (!s->topology) {
		bt_diag_set(d, "--machine: a topology (CxT or PxCxT) is needed with cpu=PRESET");
		return BT_ERR_INVALID;
	}
	m->n = n;
	m->cpu = calloc(n, sizeof(*m->cpu));
	if (!m->cpu)
		return BT_ERR_NOMEM;
	if (s->cpuid && !s->topology)
		layout_of_dump(m);
	const struct bt_sim_config *preset = s->cpu ? bt_sim_preset(s->cpu) : NULL;
	if (s->cpu && !preset) {
		char list[600] = "";
		for (size_t k = 0, at = 0; bt_sim_preset_names[k] && at < sizeof(list); k++)
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", k ? ", " : "",
					      bt_sim_preset_names[k]);
		bt_diag_set(d, "--machine cpu=%s: no such preset (the presets: %s)", s->cpu, list);
		return BT_ERR_INVALID;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct md_cpu *c = &m->cpu[i];
		struct bt_cpuid r;

		if (!s->cpuid || s->topology) {
			c->package = i / (m->cores * m->threads);
			c->core = (i / m->threads) % m->cores;
			c->thread = i % m->threads;
		}
		if (s->cpuid) {
			bt_arch_dump_init(&c->dump, group_of(&m->dump, i));
			c->from_dump = true;
			snprintf(c->kind, sizeof(c->kind), "CPU %u of the dump", i);
		} else {
			if (bt_sim_init(&c->base, preset) != BT_OK) {
				bt_diag_set(d, "--machine: CPU %u's simulated PMU could not be set up", i);
				return BT_ERR_INVALID;
			}
			c->base_ready = true;
			snprintf(c->kind, sizeof(c->kind), "%s", preset->brand);
		}
		bt_md_cpuid(m, i, 7, 0, &r);
		m->hybrid |= (r.edx >> 15) & 1; /* CPUID.07H:EDX[15] Hybrid */
	}
	return BT_OK;
}

bt_status bt_md_new(const char *text, const char *default_cpu, struct bt_md **ret,
		    struct bt_diag *d)
{
	struct spec s = { 0 };
	struct bt_mpd_config mc = { 0 };
	struct bt_md *m;

	*ret = NULL;
	if (parse_spec(text, default_cpu, &s, &mc, d) != BT_OK)
		return BT_ERR_INVALID;
	m = calloc(1, sizeof(*m));
	if (!m) {
		bt_diag_set(d, "--machine: out of memory");
		return BT_ERR_NOMEM;
	}
	m->cores = s.cores;
	m->threads = s.topology ? s.threads : 1;
	snprintf(m->spec, sizeof(m->spec), "%s%s%s", text, s.cpu_from_sim ? ",cpu=" : "",
		 s.cpu_from_sim ? s.cpu : "");
	bt_status st = load_cpus(m, &s, d);
	for (unsigned k = 0; st == BT_OK && k < s.n_defects; k++)
		st = parse_defect(m, s.defects[k], d);
	if (st == BT_OK && mc.bsp >= m->n) {
		bt_diag_set(d, "--machine bsp=%u: the machine has %u CPUs", mc.bsp, m->n);
		st = BT_ERR_INVALID;
	}
	if (st == BT_OK) {
		mc.n_cpus = m->n;
		m->mpd = bt_mpd_new(&mc);
		if (!m->mpd) {
			bt_diag_set(d, "--machine: the MP services double could not start its APs");
			st = BT_ERR_NOMEM;
		}
	}
	if (st != BT_OK) {
		bt_md_free(m);
		return st;
	}
	m->cpu_arch = (struct bt_arch){ .name = "simulated machine (CPUID of its CPUs)",
					.simulated = true, .ops = &cpu_ops, .ctx = m };
	m->pmu_arch = (struct bt_arch){ .name = "simulated", .simulated = true, .ops = &pmu_ops,
					.ctx = m };
	m->synth = (struct bt_sim_machine){ .ctx = m, .n_cpus = m->n, .pmus = synth_pmus,
					      .release = synth_release, .arch = &m->pmu_arch };
	bt_mpd_on_activity(m->mpd, siblings, m);
	siblings(m);
	*ret = m;
	return BT_OK;
}

void bt_md_free(struct bt_md *m)
{
	if (!m)
		return;
	bt_mpd_free(m->mpd);
	for (uint32_t i = 0; m->cpu && i < m->n; i++) {
		if (m->cpu[i].base_ready)
			bt_sim_free(&m->cpu[i].base);
	}
	bt_cpuid_dump_free(&m->dump);
	free(m->cpu);
	free(m);
}

uint32_t bt_md_cpu_count(const struct bt_md *m)
{
	return m->n;
}

void bt_md_location(const struct bt_md *m, uint32_t cpu, struct bt_cpu_location *ret)
{
	const struct md_cpu *c = &m->cpu[cpu];

	*ret = (struct bt_cpu_location){ .apic_id = apic_of(c, m), .package = c->package,
					 .core = c->core, .thread = c->thread,
					 .is_bsp = cpu == bt_mpd_config(m->mpd)->bsp,
					 .enabled = true };
}

struct bt_mpd *bt_md_mp(struct bt_md *m)
{
	return m->mpd;
}

struct bt_sim *bt_md_pmu(struct bt_md *m, uint32_t cpu)
{
	const struct md_cpu *c = &m->cpu[cpu];

	return c->pmu ? c->pmu : c->base_ready ? (struct bt_sim *)&c->base : NULL;
}

bool bt_md_pmu_adopted(const struct bt_md *m, uint32_t cpu)
{
	return m->cpu[cpu].pmu != NULL;
}

void bt_md_pmu_totals(struct bt_md *m, uint32_t cpu, struct bt_md_pmu_totals *ret)
{
	const struct md_cpu *c = &m->cpu[cpu];
	const struct bt_sim *now = bt_md_pmu(m, cpu);

	ret->accesses = c->gone_accesses + (now ? now->access_count : 0);
	ret->pebs_records = c->gone_pebs_records + (now ? now->pebs_records : 0);
	ret->windows = c->gone_windows + (now ? now->windows : 0);
}

static const char *state_name(enum bt_mpd_ap_state s)
{
	switch (s) {
	case BT_MPD_AP_IDLE: return "idle";
	case BT_MPD_AP_BUSY: return "busy";
	case BT_MPD_AP_FINISHED: return "finished";
	case BT_MPD_AP_PARKED: return "PARKED inside baretop";
	case BT_MPD_AP_DEAD: return "DEAD in the firmware";
	}
	return "?";
}

void bt_md_print(struct bt_md *m, FILE *f)
{
	const struct bt_mpd_config *mc = bt_mpd_config(m->mpd);
	static const char *const loops[] = { "", "HLT", "MWAIT", "run-loop" };
	char v[1200];

	fprintf(f, "machine double  %s: %u CPUs (%u per core), BSP CPU %u, AP stacks %u bytes, "
		"idle APs in the %s loop, %s (SIMULATED)\n", m->spec, m->n, m->threads, mc->bsp,
		mc->ap_stack, loops[mc->loop], mc->forgiving ? "before ReadyToBoot (forgiving)"
							   : "after ReadyToBoot (strict PI)");
	for (uint32_t i = 0; i < m->n; i++) {
		struct bt_mpd_ap_record r;
		struct bt_md_pmu_totals t;

		bt_mpd_record(m->mpd, i, &r);
		bt_md_pmu_totals(m, i, &t);
		fprintf(f, "  CPU %u (package %u core %u thread %u) %s: ", i, m->cpu[i].package,
			m->cpu[i].core, m->cpu[i].thread, m->cpu[i].kind);
		if (i == mc->bsp)
			fprintf(f, "BSP");
		else
			fprintf(f, "%s, %u procedures, %u returned, %u terminated, %u overflows, "
				"stack peak %u of %u bytes", state_name(r.state), r.procedures,
				r.returned, r.terminated, r.overflows, r.stack_peak, mc->ap_stack);
		fprintf(f, "; PMU: %llu accesses, %llu windows, %llu PEBS records%s%s\n",
			(unsigned long long)t.accesses, (unsigned long long)t.windows,
			(unsigned long long)t.pebs_records, r.last[0] ? "; " : "", r.last);
	}
	if (bt_mpd_violations(m->mpd, v, sizeof(v)))
		fprintf(f, "  PI rules broken:\n%s", v);
}

bool bt_md_handover(struct bt_md *m, char *why, size_t len)
{
	return bt_mpd_exit_boot_services(m->mpd, why, len);
}
