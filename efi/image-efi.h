/* SPDX-License-Identifier: MIT */
#ifndef EFI_IMAGE_EFI_H
#define EFI_IMAGE_EFI_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

bt_status bt_efi_image_load(const char *path, int argc, char *const *argv, void **ret_image,
			    char *err, size_t errlen);
bt_status bt_efi_image_prepare(void *image, char *err, size_t errlen);
void bt_efi_image_start(void *image);
bt_status bt_efi_image_result(void *image, uint64_t *ret_status, char *msg, size_t msglen);
void bt_efi_image_free(void *image);

#endif
