/* SPDX-License-Identifier: MIT */
/*
 * A tiny UEFI application for the tests of `baretop -x`: it does N rounds
 * of integer mixing (N is its first argument, default 1000000), prints the
 * result, and returns it in its exit data, so the test can check that it
 * ran with its arguments and how many times. Plain gnu-efi, no C library.
 */
#include <efi.h>
#include <efilib.h>

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

static UINT64 parse_rounds(const CHAR16 *s, UINTN chars)
{
	UINTN i = 0;
	UINT64 n = 0;

	/* skip the program name (the first word) */
	while (i < chars && s[i] && s[i] != L' ')
		i++;
	while (i < chars && s[i] == L' ')
		i++;
	if (i >= chars || s[i] < L'0' || s[i] > L'9')
		return 1000000;
	for (; i < chars && s[i] >= L'0' && s[i] <= L'9'; i++)
		n = n * 10 + (UINT64)(s[i] - L'0');
	return n;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_LOADED_IMAGE *li = NULL;
	UINT64 rounds = 1000000, x = 0x9e3779b97f4a7c15ull;
	CHAR16 *msg;

	InitializeLib(image, st);
	if (uefi_call_wrapper(st->BootServices->HandleProtocol, 3, image, &LoadedImageProtocol,
			      (void **)&li) == EFI_SUCCESS && li->LoadOptions)
		rounds = parse_rounds(li->LoadOptions, li->LoadOptionsSize / sizeof(CHAR16));
	for (UINT64 i = 0; i < rounds; i++) {
		x ^= x >> 31;
		x *= 0xbf58476d1ce4e5b9ull;
		x += i;
	}
	/* Exit data must be pool memory: "rounds=N checksum=0x..." */
	msg = PoolPrint(L"rounds=%ld checksum=0x%lx", rounds, x);
	return uefi_call_wrapper(st->BootServices->Exit, 4, image, EFI_SUCCESS,
				 msg ? (StrLen(msg) + 1) * sizeof(CHAR16) : 0, msg);
}
