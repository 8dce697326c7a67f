/* SPDX-License-Identifier: MIT */
#ifndef EFI_WL_ENV_EFI_H
#define EFI_WL_ENV_EFI_H

#include "workloads/workload.h"

/* The UEFI workload services; env->cpu is left for the caller. */
void bt_efi_wl_env_init(struct bt_wl_env *env);

#endif
