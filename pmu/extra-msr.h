/* SPDX-License-Identifier: MIT */
/*
 * Which extra MSR an Intel event selects, per microarchitecture class
 * (enum bt_intel_uarch): the OFFCORE_RESPONSE pairing of event codes to
 * MSR_OFFCORE_RSP_0/1, and the MSR_PEBS_FRONTEND bits an event may set.
 * These are facts of the hardware, not of the event's spelling: an event
 * programmed with code 0xBB counts against OFFCORE_RSP_1 whatever the event
 * data declared, so the encoder takes the MSR from here.
 */
#ifndef PMU_EXTRA_MSR_H
#define PMU_EXTRA_MSR_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/cpu-info.h"

/* MSR_OFFCORE_RSP_0/1 selected by programming (code, umask) on this class,
 * or 0 if that is not an OFFCORE_RESPONSE encoding there. */
uint32_t bt_ocr_msr(uint8_t uarch, uint16_t code, uint8_t umask);
/* The encoding of the same pair that selects the other MSR. */
bool bt_ocr_other(uint8_t uarch, uint16_t code, uint8_t umask, uint16_t *ret_code,
		  uint8_t *ret_umask);
/* For the raw-event parser, which does not know the CPU: the MSR every
 * class that has (code, umask) as an OFFCORE_RESPONSE encoding agrees on,
 * or 0 if none has it. */
uint32_t bt_ocr_msr_any(uint16_t code, uint8_t umask);

/* MSR_PEBS_FRONTEND bits the event (code, umask) may set on this class; 0:
 * the event does not use MSR_PEBS_FRONTEND there (or the class has none). */
uint32_t bt_frontend_mask(uint8_t uarch, uint16_t code, uint8_t umask);
/* The union over all classes: bits no Intel part has (23, 7:5). */
#define BT_FRONTEND_ANY_MASK 0x7FFF1Fu

#endif
