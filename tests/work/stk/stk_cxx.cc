// SPDX-License-Identifier: GPL-2.0
/*
 * stk_cxx [N]: C++ names.  Calls getppid() N times (default 1) through
 *
 *	main -> ns::Outer<int>::run() -> ns::inner(int, char const*) -> getppid
 *
 * Built -O0 -fno-omit-frame-pointer -fno-inline.  Mangled:
 * _ZN2ns5OuterIiE3runEv and _ZN2ns5innerEiPKc.  Expected user stack,
 * innermost first (demangled):
 *   DWARF:          getppid, ns::inner(int, char const*), ns::Outer<int>::run(), main
 *   frame pointers: getppid, ns::Outer<int>::run(), main  (see stk.c for why
 *                   the direct caller of getppid is missing)
 */
#include <cstdlib>
#include <unistd.h>

namespace ns
{
volatile int sink;

__attribute__((noinline)) int inner(int x, const char *why)
{
	int r = getppid();

	return r + x + (why[0] == 'r') + sink;
}

template <typename T> struct Outer {
	T v;
	__attribute__((noinline)) T run()
	{
		T r = inner(v, "run");

		return r + sink;
	}
};
} // namespace ns

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 1;
	ns::Outer<int> o{ 1 };

	for (int i = 0; i < n; i++)
		ns::sink += o.run();
	return 0;
}
