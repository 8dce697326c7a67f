/* SPDX-License-Identifier: MIT */
#include <stdint.h>

#include "firmware/bli.h"

bool bt_bli_string(const uint8_t *data, size_t len, char *out, size_t outlen)
{
	size_t k = 0;

	if (outlen == 0)
		return false;
	out[0] = '\0';
	if (len % 2)
		return false;
	for (size_t i = 0; i + 1 < len; i += 2) {
		unsigned c = (unsigned)data[i] | (unsigned)data[i + 1] << 8;

		if (c == 0)
			break;
		if (k + 1 < outlen)
			out[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out[k] = '\0';
	return true;
}

bool bt_bli_usec(const uint8_t *data, size_t len, uint64_t *ret)
{
	char text[24];
	uint64_t v = 0;
	size_t n = 0;

	if (len > 2 * (sizeof(text) - 1) + 2 || !bt_bli_string(data, len, text, sizeof(text)))
		return false;
	for (; text[n]; n++) {
		unsigned d = (unsigned)(text[n] - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (n == 0)
		return false;
	*ret = v;
	return true;
}
