/*
 * bcryptprimitives.dll for Wine 8, which lacks ProcessPrng: Go >= 1.22 on
 * Windows gets its random bytes from it (crypto/rand, the runtime's hash
 * seeds) and stops at start-up without it. This one fills the buffer from
 * advapi32's RtlGenRandom (SystemFunction036), which Wine has. Only for
 * running the Windows tests under Wine; a real Windows has its own.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}
