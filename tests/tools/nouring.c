/*  tests/tools/nouring.c: run a command in a container that refuses
    io_uring, as a seccomp policy of Docker's or systemd's does.

    usage: nouring COMMAND [ARGS...]

    A seccomp filter makes io_uring_setup, io_uring_enter and
    io_uring_register fail with EPERM in the command and everything it
    starts; every other system call goes through. Exits 125 if the
    filter cannot be installed (no seccomp here), else execs COMMAND.
*/
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined (__x86_64__)
#   define S_ARCH AUDIT_ARCH_X86_64
#elif defined (__aarch64__)
#   define S_ARCH AUDIT_ARCH_AARCH64
#else
#   error "nouring knows x86_64 and aarch64"
#endif

//  Refuse one system call number with EPERM (two instructions).
#define S_REFUSE(nr) \
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int
main (int argc, char *argv [])
{
    if (argc < 2) {
        fprintf (stderr, "usage: nouring COMMAND [ARGS...]\n");
        return 2;
    }
    struct sock_filter filter [] = {
        //  Another architecture's calls go through untouched.
        BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch)),
        BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, S_ARCH, 1, 0),
        BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
        S_REFUSE (__NR_io_uring_setup),
        S_REFUSE (__NR_io_uring_enter),
        S_REFUSE (__NR_io_uring_register),
        BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {
        .len = (unsigned short) (sizeof (filter) / sizeof (filter [0])),
        .filter = filter,
    };
    if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1
    ||  prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == -1) {
        fprintf (stderr, "nouring: seccomp: %s\n", strerror (errno));
        return 125;
    }
    execvp (argv [1], argv + 1);
    fprintf (stderr, "nouring: exec(%s): %s\n", argv [1], strerror (errno));
    return 127;
}
