/* SPDX-License-Identifier: MIT */
/*
 * The fault guard: exception handlers registered through
 * EFI_CPU_ARCH_PROTOCOL.RegisterInterruptHandler for #DE, #UD, #GP and #PF.
 *
 * A #GP or #UD raised by one of the guarded instruction stubs
 * (arch/x86-guarded.S) is turned into an error return by moving RIP to the
 * stub's resume label. Any other exception is a bug in baretop or in a
 * workload: on an AP it is recorded and that CPU parked; on baretop's own
 * CPU (the BSP) it is reported with its address (and the offset into
 * baretop.efi, to look up in build/efi/baretop.map), the CPU's park
 * cleanup runs (an open PMU session closed, its MSRs restored), and the
 * program comes back to efi_main's exit path (recover_bsp), which ends the
 * boot as a crashed run: the end is decided like any other
 * (app/boot-policy.h bt_boot_decide_end: a reset only within the cap and
 * recorded, otherwise the hand-over), never a power-off. bt_efi_fatal ends
 * the program the same way after a failure that is not an exception: a
 * stack-check failure (efi/stack-guard.c) or a BT_ASSERT. The handlers
 * stay installed until the next stage starts, so a fault in the hand-over
 * itself comes back too (then straight to the firmware, EFI_ABORTED).
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "app/ap-run.h"
#include "base/array.h"
#include "app/platform.h"
#include "base/assert.h"
#include "efi/efi-state.h"
#include "efi/proto/cpu-arch.h"
#include "efi/proto/cpu-io2.h"
#include "arch/arch-hw.h"

static const EFI_EXCEPTION_TYPE guarded_vectors[] = { 0, 6, 13, 14 };
static BT_EFI_CPU_ARCH_PROTOCOL *cpu_arch;
static bool registered[BT_ARRAY_SIZE(guarded_vectors)];
static volatile int in_handler;

static const char *vector_name(EFI_EXCEPTION_TYPE v)
{
	switch (v) {
	case 0:  return "#DE divide error";
	case 6:  return "#UD invalid opcode";
	case 13: return "#GP general protection";
	case 14: return "#PF page fault";
	}
	return "exception";
}

/* Minimal output for exception context: no malloc, no stdio buffers. */
static void say(const char *s)
{
	bt_efi_console_write(s, strlen(s));
}

/* The BSP's APIC ID, and the record of an unexpected fault on an AP. */
static uint32_t bsp_apic_id;
static volatile struct bt_efi_ap_fault ap_fault;
/* One slot: only one CPU counts at a time (copies run workloads, they do
 * not count), and the APIC ID makes sure a crash elsewhere does not run
 * another CPU's cleanup on the wrong CPU. */
static struct {
	void (*volatile fn)(void *);
	void *volatile arg;
	volatile uint32_t apic_id;
} park_cleanup;
static uint16_t failure_exit_port;
/* efi_main's way back (bt_efi_set_recovery), how often it was taken, and
 * the stack the recovery starts on: the faulting one may be what failed. */
static jmp_buf *recovery;
static volatile int recoveries;
#define RECOVERY_STACK_SIZE 16384u
static uint8_t *recovery_stack; /* pool memory: a static one would be image bytes */

/* CPUID.0BH:EDX (x2APIC ID) where leaf 0BH exists, else CPUID.01H:EBX[31:24]. */
static uint32_t apic_id(void)
{
	struct bt_arch *a = bt_arch_hw();
	struct bt_cpuid r;

	bt_cpuid(a, 0, 0, &r);
	if (r.eax >= 0xb) {
		bt_cpuid(a, 0xb, 0, &r);
		if (r.ebx)
			return r.edx;
	}
	bt_cpuid(a, 1, 0, &r);
	return r.ebx >> 24;
}

bool bt_efi_ap_fault(struct bt_efi_ap_fault *ret)
{
	if (!ap_fault.hit)
		return false;
	ret->hit = true;
	ret->vector = ap_fault.vector;
	ret->apic_id = ap_fault.apic_id;
	ret->rip = ap_fault.rip;
	ret->cr2 = ap_fault.cr2;
	ret->offset = ap_fault.offset;
	ret->cleanup_ran = ap_fault.cleanup_ran;
	ret->fatal = ap_fault.fatal;
	ret->fatal_detail = ap_fault.fatal_detail;
	return true;
}

void bt_efi_set_park_cleanup(void (*fn)(void *), void *arg)
{
	__atomic_store_n(&park_cleanup.fn, NULL, __ATOMIC_RELEASE);
	if (!fn)
		return;
	park_cleanup.arg = arg;
	park_cleanup.apic_id = apic_id();
	__atomic_store_n(&park_cleanup.fn, fn, __ATOMIC_RELEASE);
}

void bt_efi_set_recovery(jmp_buf *j)
{
	if (!recovery_stack &&
	    bt_efi.bs->AllocatePool(EfiLoaderData, RECOVERY_STACK_SIZE, (void **)&recovery_stack) !=
		    EFI_SUCCESS)
		recovery_stack = NULL;
	recovery = recovery_stack ? j : NULL;
}

void bt_efi_set_failure_exit_port(uint16_t port)
{
	failure_exit_port = port;
}

/*
 * A fault on an AP in one of baretop's jobs is recovered: the context moves
 * to the job's way back (app/ap-run.h says why that is safe), its cleanup
 * runs there in normal context and the procedure returns to the MP
 * services. The image offset goes with it, for the BSP's report.
 */
static bool recover_ap(uint8_t vector, EFI_SYSTEM_CONTEXT_X64 *c)
{
	uint64_t base = (uint64_t)(uintptr_t)bt_efi.loaded_image->ImageBase;
	struct bt_ap_fault f = { .vector = vector, .rip = c->Rip, .cr2 = c->Cr2 };

	if (c->Rip >= base && c->Rip < base + bt_efi.loaded_image->ImageSize)
		f.image_offset = c->Rip - base;
	return bt_ap_fault_recover(&f, c->Rsp, &c->Rip, &c->Rsp);
}

/*
 * Anything else on an AP (a fault outside any job's stack, or a third one
 * in a job's recovery): an AP may not call the firmware (PI spec, MP
 * Services), so record it for the BSP and park this CPU. The blocking MP
 * call the BSP waits in ends at its timeout, when the firmware resets the
 * AP (MpLib.c ResetProcessorToIdleState), and the CPU is not accounted for
 * (app/on-cpu.h): the run ends with a reset, not a hand-over.
 */
static _Noreturn void park_ap(uint32_t me, uint8_t vector, uint64_t rip, uint64_t cr2,
			      const char *fatal, const char *fatal_detail)
{
	uint64_t base = (uint64_t)(uintptr_t)bt_efi.loaded_image->ImageBase;
	/* No cleanup here: an AP's are its job's (app/ap-run.h), and this
	 * fault is outside any job, or in the last of its way back. */
	ap_fault.vector = vector;
	ap_fault.apic_id = me;
	ap_fault.rip = rip;
	ap_fault.cr2 = cr2;
	ap_fault.offset = rip >= base && rip < base + bt_efi.loaded_image->ImageSize ? rip - base : 0;
	ap_fault.fatal = fatal;
	ap_fault.fatal_detail = fatal_detail;
	__atomic_store_n(&ap_fault.hit, true, __ATOMIC_RELEASE);
	bt_hw_park_forever();
}

/* "  at RIP ... = baretop.efi+0x..." for the report on the BSP. */
static void say_rip(uint64_t rip)
{
	uint64_t base = (uint64_t)(uintptr_t)bt_efi.loaded_image->ImageBase;
	uint64_t size = bt_efi.loaded_image->ImageSize;
	char line[120];

	if (rip >= base && rip < base + size)
		snprintf(line, sizeof(line), "  at RIP 0x%llx = baretop.efi+0x%llx (see baretop.map)\n",
			 (unsigned long long)rip, (unsigned long long)(rip - base));
	else
		snprintf(line, sizeof(line), "  at RIP 0x%llx, outside baretop.efi\n",
			 (unsigned long long)rip);
	say(line);
}

/*
 * Back to efi_main's exit path, in normal context. On the way in the
 * handler returned through the firmware's exception entry as for any
 * handled exception (EDK2 CpuExceptionHandlerLib, X64
 * ExceptionHandlerAsm.nasm CommonInterruptEntry: the context, RIP and RSP
 * included, is popped back and IRETQ taken), so nothing of the firmware's
 * exception path is left half-done; that entry runs on the interrupted
 * stack (only #DF and #PF may switch to a stack of their own, with
 * PcdCpuStackGuard), and the recovery starts on a stack of its own. The
 * fault may have hit with interrupts masked (a counting window) or the TPL
 * raised (inside a firmware callback): the TPL goes up to HIGH_LEVEL and
 * back to APPLICATION, which EDK2's CoreRestoreTpl answers by dispatching
 * what is pending and enabling interrupts. Then longjmp to efi_main, whose
 * frame is above every frame the fault abandoned. What it cannot undo: a
 * fault inside the firmware (RIP outside baretop.efi) may leave one of
 * its locks taken, and an AP still running a job keeps running it; the
 * hand-over's watchdog (app/boot-run.h) bounds what could hang then.
 */
static _Noreturn void recover_bsp(void)
{
	bt_efi.bs->RaiseTPL(TPL_HIGH_LEVEL);
	bt_efi.bs->RestoreTPL(TPL_APPLICATION);
	in_handler = 0;
	longjmp(*recovery, BT_EFI_JUMP_CRASH + (recoveries > 1));
}

/* Tells QEMU (--qemu-exit) this run failed: the test harness's end. */
static void report_failure_exit(void)
{
	EFI_GUID io_guid = BT_EFI_CPU_IO2_PROTOCOL_GUID;
	BT_EFI_CPU_IO2_PROTOCOL *io;
	UINT32 v = 1;

	if (failure_exit_port &&
	    bt_efi.bs->LocateProtocol(&io_guid, NULL, (void **)&io) == EFI_SUCCESS)
		io->Io.Write(io, BtEfiCpuIoWidthUint32, failure_exit_port, 1, &v);
}

/* Whether the BSP can come back: once for the run, once more for the
 * hand-over after it; else it stops (the watchdog of an unattended boot
 * resets the machine). */
static bool may_recover(void)
{
	if (recovery && recoveries < 2) {
		recoveries++;
		say("baretop: cannot continue this run: its end is decided as a crash's "
		    "(a reset only within the cap, otherwise the hand-over)\n");
		/* The run's crash: QEMU's exit (--qemu-exit) comes after its
		 * end is recorded (bt_app_crash_end), else the state stays "in
		 * progress" and the next boot records a hang. A crash in the
		 * hand-over after it has nothing left to record. */
		if (recoveries > 1)
			report_failure_exit();
		return true;
	}
	say("baretop: a fault again while ending the run: stopping here\n");
	report_failure_exit();
	return false;
}

/* The BSP's park cleanup (an open PMU session closed), taken out of the
 * slot so that a fault inside it does not run it again. */
static void bsp_cleanup(uint32_t me)
{
	void (*fn)(void *) = __atomic_load_n(&park_cleanup.fn, __ATOMIC_ACQUIRE);
	if (fn && park_cleanup.apic_id == me &&
	    __atomic_compare_exchange_n(&park_cleanup.fn, &fn, NULL, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		fn(park_cleanup.arg);
}

static void EFIAPI on_exception(EFI_EXCEPTION_TYPE type, EFI_SYSTEM_CONTEXT ctx)
{
	EFI_SYSTEM_CONTEXT_X64 *c = ctx.SystemContextX64;
	char line[200];

	if (bt_hw_fault_fixup((uint8_t)type, &c->Rip, &c->Rax))
		return;
	uint32_t me = apic_id();
	if (me != bsp_apic_id && recover_ap((uint8_t)type, c))
		return;
	if (me != bsp_apic_id)
		park_ap(me, (uint8_t)type, c->Rip, c->Cr2, NULL, NULL);
	if (in_handler++) /* a fault while reporting one: stop right here */
		bt_hw_halt_forever();

	snprintf(line, sizeof(line), "\nbaretop: unexpected %s (vector %u, error code 0x%llx)\n",
		 vector_name(type), (unsigned)type, (unsigned long long)c->ExceptionData);
	say(line);
	say_rip(c->Rip);
	if (type == 14) {
		snprintf(line, sizeof(line), "  faulting address (CR2) 0x%llx\n",
			 (unsigned long long)c->Cr2);
		say(line);
	}
	bsp_cleanup(me);
	if (!may_recover())
		bt_hw_halt_forever();
	/* IRETQ to recover_bsp on its own stack, as if called (RSP + 8
	 * 16-byte aligned); IF as it was, DF, TF and AC clear. */
	c->Rip = (uint64_t)(uintptr_t)recover_bsp;
	c->Rsp = (((uint64_t)(uintptr_t)recovery_stack + RECOVERY_STACK_SIZE) & ~15ull) - 8;
	c->Rflags &= ~((1ull << 10) | (1ull << 8) | (1ull << 18));
}

_Noreturn void bt_efi_fatal(const char *what, const char *detail, uint64_t rip)
{
	/* Before efi_main found its loaded image there is nothing to report
	 * with (and no failure path to take). */
	if (!bt_efi.loaded_image || !bt_efi.rs)
		bt_hw_halt_forever();
	uint32_t me = apic_id();
	struct bt_ap_fault f = { .rip = rip, .fatal = what, .detail = detail };
	uint64_t base = (uint64_t)(uintptr_t)bt_efi.loaded_image->ImageBase;
	if (rip >= base && rip < base + bt_efi.loaded_image->ImageSize)
		f.image_offset = rip - base;
	if (me != bsp_apic_id && !bt_ap_abandon_here(&f))
		park_ap(me, 0, rip, 0, what, detail);
	if (in_handler++) /* a failure while reporting one: stop right here */
		bt_hw_halt_forever();
	/* Not in exception context: the cleanup an AP would run before it is
	 * parked (an open PMU session closed, its MSRs restored) runs here
	 * too, as nothing returns to the code that opened it. */
	bsp_cleanup(me);
	say("\nbaretop: ");
	say(what);
	say("\n");
	if (detail) {
		say("  ");
		say(detail);
		say("\n");
	}
	if (rip)
		say_rip(rip);
	if (!may_recover())
		bt_hw_halt_forever();
	recover_bsp();
}

void bt_efi_fault_guard_install(struct bt_fault_guard_state *ret)
{
	EFI_GUID guid = BT_EFI_CPU_ARCH_PROTOCOL_GUID;
	EFI_STATUS st;
	size_t n = BT_ARRAY_SIZE(guarded_vectors);

	memset(ret, 0, sizeof(*ret));
	bsp_apic_id = apic_id();
	st = bt_efi.bs->LocateProtocol(&guid, NULL, (void **)&cpu_arch);
	if (st != EFI_SUCCESS) {
		snprintf(ret->detail, sizeof(ret->detail),
			 "EFI_CPU_ARCH_PROTOCOL not found (%s)", bt_efi_status_name(st));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		st = cpu_arch->RegisterInterruptHandler(cpu_arch, guarded_vectors[i], on_exception);
		registered[i] = st == EFI_SUCCESS;
		if (!registered[i] && (guarded_vectors[i] == 6 || guarded_vectors[i] == 13)) {
			snprintf(ret->detail, sizeof(ret->detail),
				 "registering the %s handler failed (%s)",
				 vector_name(guarded_vectors[i]), bt_efi_status_name(st));
			bt_efi_fault_guard_remove();
			return;
		}
	}
	ret->installed = true;
	snprintf(ret->detail, sizeof(ret->detail),
		 "#UD and #GP handlers registered through EFI_CPU_ARCH_PROTOCOL%s",
		 registered[0] && registered[3] ? " (#DE and #PF reported too)" : "");
	bt_arch_hw_set_guarded(true);
}

void bt_efi_fault_guard_remove(void)
{
	bt_arch_hw_set_guarded(false);
	if (!cpu_arch)
		return;
	for (size_t i = 0; i < BT_ARRAY_SIZE(guarded_vectors); i++) {
		if (registered[i])
			cpu_arch->RegisterInterruptHandler(cpu_arch, guarded_vectors[i], NULL);
		registered[i] = false;
	}
}

/* base/assert.h: a failed BT_ASSERT in the EFI app. */
_Noreturn void bt_platform_fatal(const char *what, const char *detail, const void *where)
{
	bt_efi_fatal(what, detail, (uint64_t)(uintptr_t)where);
}
