/* SPDX-License-Identifier: MIT */
#ifndef EFI_MP_H
#define EFI_MP_H

#include <stdint.h>

#include "app/platform.h"

bt_status bt_efi_cpu_count(uint32_t *ret_total, uint32_t *ret_enabled);
bt_status bt_efi_cpu_location(uint32_t cpu, struct bt_cpu_location *ret);
uint32_t bt_efi_current_cpu(void);
bt_status bt_efi_run_on_cpu(uint32_t cpu, bt_ap_proc *fn, void *arg, uint64_t timeout_us);
bt_status bt_efi_run_on_aps(bt_ap_proc *fn, void *arg, uint64_t timeout_us,
			    uint32_t *ret_n_failed);

#endif
