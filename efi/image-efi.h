/* SPDX-License-Identifier: MIT */
#ifndef EFI_IMAGE_EFI_H
#define EFI_IMAGE_EFI_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"

bt_status bt_efi_image_load(const char *path, int argc, char *const *argv, void **ret_image,
			    struct bt_diag *d);
bt_status bt_efi_image_prepare(void *image, struct bt_diag *d);
void bt_efi_image_start(void *image);
bt_status bt_efi_image_result(void *image, uint64_t *ret_status, struct bt_diag *d);
void bt_efi_image_free(void *image);

/* The refusal of image `name` by Secure Boot (LoadImage's status st) into
 * *d, naming the Secure Boot variables as they are now. */
void bt_efi_sb_refusal(struct bt_diag *d, const char *name, uint64_t st);

#endif
