// SPDX-License-Identifier: GPL-2.0
/*
 * kvm_guest [-f FIFO] N: a tiny KVM guest with known exits.  One vCPU in
 * real mode runs, at 0x1000,
 *	out %al, $0x10 ; hlt ; jmp 0x1000
 * so each turn of its loop exits once with IO_INSTRUCTION and once with
 * HLT (no in-kernel irqchip: both return to this program, which runs the
 * vCPU again).  After N turns it prints "io=N hlt=N done" and exits; 2
 * when /dev/kvm is missing or refuses ("nokvm: REASON").  -f: prints
 * "pid=PID" and waits for a line on FIFO first.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int fail(const char *what)
{
	printf("nokvm: %s: %s\n", what, strerror(errno));
	return 2;
}

int main(int argc, char **argv)
{
	static const unsigned char code[] = { 0xe6, 0x10, 0xf4, 0xeb, 0xfb };
	const char *fifo = NULL;
	long n, io = 0, hlt = 0;
	struct kvm_userspace_memory_region mem;
	struct kvm_sregs sregs;
	struct kvm_regs regs;
	struct kvm_run *run;
	int kvm, vm, vcpu, opt;
	unsigned char *ram;
	long run_size;

	while ((opt = getopt(argc, argv, "f:")) != -1) {
		if (opt != 'f')
			return 2;
		fifo = optarg;
	}
	if (optind >= argc || (n = atol(argv[optind])) < 1) {
		fprintf(stderr, "usage: kvm_guest [-f FIFO] N\n");
		return 2;
	}
	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return fail("/dev/kvm");
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		return fail("KVM_CREATE_VM");
	ram = mmap(NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ram == MAP_FAILED)
		return fail("mmap");
	memcpy(ram + 0x1000, code, sizeof(code));
	mem = (struct kvm_userspace_memory_region){ .slot = 0,
						    .guest_phys_addr = 0,
						    .memory_size = 0x2000,
						    .userspace_addr = (unsigned long)ram };
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &mem) < 0)
		return fail("KVM_SET_USER_MEMORY_REGION");
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		return fail("KVM_CREATE_VCPU");
	run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (run_size <= 0)
		return fail("KVM_GET_VCPU_MMAP_SIZE");
	run = mmap(NULL, (size_t)run_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		return fail("mmap kvm_run");
	if (ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0)
		return fail("KVM_GET_SREGS");
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs) < 0)
		return fail("KVM_SET_SREGS");
	memset(&regs, 0, sizeof(regs));
	regs.rip = 0x1000;
	regs.rflags = 0x2;
	if (ioctl(vcpu, KVM_SET_REGS, &regs) < 0)
		return fail("KVM_SET_REGS");
	if (fifo) {
		char line[16];
		FILE *go;

		printf("pid=%d\n", getpid());
		fflush(stdout);
		go = fopen(fifo, "r");
		if (!go || !fgets(line, sizeof(line), go))
			return 1;
		fclose(go);
	}
	while (hlt < n) {
		if (ioctl(vcpu, KVM_RUN, 0) < 0) {
			if (errno == EINTR)
				continue;
			return fail("KVM_RUN");
		}
		if (run->exit_reason == KVM_EXIT_IO)
			io++;
		else if (run->exit_reason == KVM_EXIT_HLT)
			hlt++;
		else if (run->exit_reason != KVM_EXIT_INTR) {
			printf("unexpected exit %u\n", run->exit_reason);
			return 1;
		}
	}
	printf("io=%ld hlt=%ld done\n", io, hlt);
	fflush(stdout);
	return 0;
}
