// Stand-in for the Huawei secure C library header (bounded memory and string functions).
#pragma once
#include <cstdarg>
#include <cstddef>

typedef int errno_t;
#ifndef EOK
#define EOK 0
#endif

extern "C" {
errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
errno_t strcpy_s(char* dest, size_t destMax, const char* src);
errno_t strncpy_s(char* dest, size_t destMax, const char* src, size_t count);
errno_t strcat_s(char* dest, size_t destMax, const char* src);
errno_t strncat_s(char* dest, size_t destMax, const char* src, size_t count);
int sprintf_s(char* dest, size_t destMax, const char* format, ...);
int snprintf_s(char* dest, size_t destMax, size_t count, const char* format, ...);
int vsprintf_s(char* dest, size_t destMax, const char* format, va_list arg);
int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* format, va_list arg);
int sscanf_s(const char* buffer, const char* format, ...);
}
