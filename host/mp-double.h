/* SPDX-License-Identifier: MIT */
/*
 * A double of EFI_MP_SERVICES_PROTOCOL as strict PI firmware implements it,
 * for the machine double (host/machine-double.h). Each AP is a thread; the
 * caller's thread is the BSP. What it holds to, each from its source:
 *
 *  - PI spec vol. 2, MP Services (EDK2 MdePkg/Include/Protocol/MpService.h):
 *    after EFI_EVENT_GROUP_READY_TO_BOOT a non-blocking StartupAllAPs or
 *    StartupThisAP (a WaitEvent) "must" return EFI_UNSUPPORTED; when the
 *    timeout expires "Procedure on the failed APs is terminated"; WhoAmI
 *    "may be called from the BSP and APs"; an AP that is busy makes
 *    StartupAllAPs return EFI_NOT_READY. baretop always runs after
 *    ReadyToBoot (the boot manager signals it before starting a boot
 *    option, the shell's included); `forgiving` lifts the rule to show what
 *    OVMF lets through (EDK2's MpInitLib does not check it).
 *  - EDK2 UefiCpuPkg/Library/MpInitLib/MpLib.c: the APs' stacks are one
 *    buffer of PcdCpuApStackSize each (MpInitLibInitialize), with no guard
 *    page unless PcdCpuStackGuard; ApWakeupFunction calls the procedure on
 *    that stack below what the reset vector and its own frame keep
 *    (BT_MPD_FW_FRAME here). The double puts a region that is never mapped
 *    below each stack, so that running past it is a fault the double turns
 *    into a recorded overflow (real firmware corrupts the neighbour's
 *    stack, or with the guard dead-loops in its exception handler) and the
 *    AP is then dead to the firmware.
 *  - A blocking call's timeout (CheckThisAP, CheckAllAPs) ends in
 *    ResetProcessorToIdleState: INIT-SIPI-SIPI, which terminates whatever
 *    the AP ran and leaves its MSRs as they were (SDM vol. 3A, "Processor
 *    Management and Initialization": "during an INIT, the internal caches,
 *    MSRs, MTRRs, and x87 FPU state are left unchanged" -- the PMU's
 *    included). The double terminates a live AP
 *    with a signal; an AP that can never return (parked inside baretop,
 *    dead in the firmware's exception loop) needs no real wait: the
 *    deadline is taken as reached at once, and said so in the record.
 *  - The loop an idle AP waits in (PcdCpuApLoopMode 1 HLT, 2 MWAIT, 3
 *    run-loop; MpLib.c PlaceAPInHltLoop / PlaceAPInMwaitLoopOrRunLoop): a
 *    run-loop AP spins, so it is active for its SMT sibling's PMU; and
 *    WakeUpAP uses INIT-SIPI-SIPI only in HLT mode (WakeUpByInitSipiSipi),
 *    else it writes the AP's startup signal, which an AP parked in
 *    baretop's `cli; hlt` never reads.
 *  - ExitBootServices (DxeMpLib.c MpInitChangeApLoopCallback) wakes every
 *    AP with RelocateApLoop and spins until each has answered: with an AP
 *    that cannot answer the machine hangs there (bt_mpd_exit_boot_services
 *    says so instead).
 *  - Exceptions on an AP (CpuExceptionHandlerLib, X64
 *    ExceptionHandlerAsm.nasm CommonInterruptEntry) run on the stack the
 *    AP was on, call the handler registered for the vector with the saved
 *    context and return through IRETQ with the context as the handler
 *    left it (RIP, RSP, RFLAGS included); an exception nobody registered
 *    for dumps the context and dead-loops (CommonExceptionHandler,
 *    CpuDeadLoop). Here a synchronous signal on an AP thread is that
 *    exception, and the ucontext its context.
 */
#ifndef HOST_MP_DOUBLE_H
#define HOST_MP_DOUBLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* EFI_STATUS values the protocol returns, by name. */
enum bt_mpd_status {
	BT_MPD_SUCCESS,
	BT_MPD_UNSUPPORTED,
	BT_MPD_TIMEOUT,
	BT_MPD_NOT_READY,
	BT_MPD_INVALID_PARAMETER,
	BT_MPD_DEVICE_ERROR,      /* the caller is an AP */
	BT_MPD_NOT_STARTED,       /* no enabled AP */
};
const char *bt_mpd_status_name(enum bt_mpd_status s);

/* PcdCpuApLoopMode's values. */
enum bt_mpd_loop {
	BT_MPD_LOOP_HLT = 1,
	BT_MPD_LOOP_MWAIT = 2,
	BT_MPD_LOOP_RUN = 3,
};

/* What the firmware's own frames take of an AP's stack above the
 * procedure: the reset vector's AP_STACK_DATA and ApWakeupFunction's
 * frame (MpLib.c), rounded up. */
#define BT_MPD_FW_FRAME 512u

struct bt_mpd_config {
	uint32_t n_cpus;
	uint32_t bsp;                /* the BSP's processor number */
	uint32_t ap_stack;           /* PcdCpuApStackSize (a multiple of 4 KiB) */
	enum bt_mpd_loop loop;
	bool forgiving;              /* ReadyToBoot not signalled: non-blocking calls allowed */
};

/* An AP's state as the firmware sees it. */
enum bt_mpd_ap_state {
	BT_MPD_AP_IDLE,
	BT_MPD_AP_BUSY,              /* running a procedure */
	BT_MPD_AP_FINISHED,          /* returned; the BSP has not collected it yet */
	BT_MPD_AP_PARKED,            /* parked by the registered handler inside the caller's
				      * code (cli; hlt): never returns, never answers a wake-up
				      * but INIT */
	BT_MPD_AP_DEAD,              /* dead-looping in the firmware's exception handler */
};

/* What the double saw an AP do (for the tests and the run's summary). */
struct bt_mpd_ap_record {
	enum bt_mpd_ap_state state;
	uint32_t procedures;         /* procedures started on it */
	uint32_t returned;           /* ... that returned to the firmware */
	uint32_t exceptions;         /* exceptions it took */
	uint32_t overflows;          /* procedures that ran past its stack */
	uint32_t terminated;         /* procedures the firmware terminated (INIT) */
	/* The most of its stack any procedure used, the firmware's frames
	 * above it included (painted before each, read after). */
	uint32_t stack_peak;
	char last[240];              /* the last thing that went wrong, or "" */
};

/* The context an exception handler gets and may change (a subset of
 * EFI_SYSTEM_CONTEXT_X64). */
struct bt_mpd_context {
	uint8_t vector;              /* 0 #DE, 3 #BP, 6 #UD, 13 #GP, 14 #PF */
	uint64_t rip, rsp, rflags, rax, rdi, cr2;
};
struct bt_mpd;
/* A handler registered for a vector (EFI_CPU_ARCH_PROTOCOL
 * RegisterInterruptHandler): returns to resume with *ctx, or calls
 * bt_mpd_park() and does not return. */
typedef void bt_mpd_handler(struct bt_mpd *m, struct bt_mpd_context *ctx, void *user);

typedef void bt_mpd_proc(void *arg);
struct bt_mpd_event;

/* Sets up the APs (threads waiting in their loop). NULL: out of memory or
 * threads. */
struct bt_mpd *bt_mpd_new(const struct bt_mpd_config *cfg);
/* Ends the AP threads (an AP parked or dead is abandoned: its thread
 * stays blocked until the process ends). */
void bt_mpd_free(struct bt_mpd *m);

/* Called with the double's lock released whenever an AP's activity
 * changes, on the BSP (the machine double sets its PMUs' SMT knob). */
void bt_mpd_on_activity(struct bt_mpd *m, void (*fn)(void *ctx), void *ctx);
/* Whether logical CPU `cpu` executes right now for its SMT sibling: the
 * BSP always (baretop runs there, or spins in a blocking call's wait:
 * MpLib.c StartupThisAPWorker polls CheckThisAP), an AP running a
 * procedure or dead-looping, or idle in the run-loop; not an AP halted
 * (idle in HLT or MWAIT, or parked in cli; hlt). */
bool bt_mpd_cpu_active(struct bt_mpd *m, uint32_t cpu);

/* The protocol. */
enum bt_mpd_status bt_mpd_who_am_i(struct bt_mpd *m, uint32_t *ret);
enum bt_mpd_status bt_mpd_startup_this_ap(struct bt_mpd *m, bt_mpd_proc *proc, uint32_t cpu,
					  struct bt_mpd_event *wait_event, uint64_t timeout_us,
					  void *arg, bool *finished);
/* failed (room for n_cpus) gets the processor numbers terminated by the
 * timeout, n_failed their count. */
enum bt_mpd_status bt_mpd_startup_all_aps(struct bt_mpd *m, bt_mpd_proc *proc, bool single_thread,
					  struct bt_mpd_event *wait_event, uint64_t timeout_us,
					  void *arg, uint32_t *failed, uint32_t *n_failed);
/* Boot services' CreateEvent / CheckEvent / CloseEvent for a WaitEvent. */
struct bt_mpd_event *bt_mpd_create_event(struct bt_mpd *m);
bool bt_mpd_check_event(struct bt_mpd *m, struct bt_mpd_event *e);
void bt_mpd_close_event(struct bt_mpd *m, struct bt_mpd_event *e);

/* RegisterInterruptHandler for vector 0, 6, 13 or 14 (NULL removes). */
void bt_mpd_register_handler(struct bt_mpd *m, uint8_t vector, bt_mpd_handler *h, void *user);
/* From a handler on an AP: park it inside the caller's code (`where`: what
 * it parks in, for the record). Does not return. */
_Noreturn void bt_mpd_park(struct bt_mpd *m, const char *where);

/* ExitBootServices: MpInitChangeApLoopCallback wakes every AP and waits
 * for each. false when an AP cannot answer (the machine would hang
 * there), or when an AP is still inside the caller's code (which the next
 * stage's memory map no longer covers), with why in `why`. Then every AP
 * that answered runs the firmware's relocated loop: nothing else can run. */
bool bt_mpd_exit_boot_services(struct bt_mpd *m, char *why, size_t len);

void bt_mpd_record(struct bt_mpd *m, uint32_t cpu, struct bt_mpd_ap_record *ret);
/* The PI rules the caller broke (a non-blocking call after ReadyToBoot, a
 * call from an AP), one line each; their number. */
unsigned bt_mpd_violations(struct bt_mpd *m, char *buf, size_t len);
const struct bt_mpd_config *bt_mpd_config(const struct bt_mpd *m);

#endif
