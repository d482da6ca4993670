// SPDX-License-Identifier: MIT
/*
 * qemu_exec.c - an LD_PRELOAD object for the arm64 programs of a cross
 * build run under qemu-user without binfmt_misc (tests only, never
 * installed; see tests/arm64/CMakeLists.txt).
 *
 * qemu-user passes a guest's execve to the host kernel, which starts an arm64
 * ELF only when binfmt_misc sends it to qemu. This machine has no such entry
 * and the tests must not add one, so every spawn of an arm64 program would
 * fail (the child exits 127): ftscope's trace.dat probe helper (posix_spawn of
 * /proc/self/exe, which qemu maps to the guest program), test programs that
 * start ftscope. Here a spawn of an arm64 ELF becomes a spawn of the build's
 * launcher (qemu-run: the emulator with this object preloaded) with the
 * program as its first argument; anything else (the host's trace-cmd, sh) is
 * started unchanged. qemu-user also runs glibc's posix_spawn as a fork whose
 * exec error never reaches the parent (the spawn "succeeds", the child exits
 * 127), so a program that cannot be executed is reported here, as natively.
 * The launcher's path comes in FTS_QEMU_RUN; both variables
 * leave the environment at load, so host programs never see an arm64 object.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

static char launcher[4096];

__attribute__((constructor)) static void qemu_exec_init(void)
{
	const char *l = getenv("FTS_QEMU_RUN");

	if (l && strlen(l) < sizeof(launcher))
		strcpy(launcher, l);
	unsetenv("FTS_QEMU_RUN");
	unsetenv("LD_PRELOAD");
}

/* An ELF for this machine (aarch64)? Reading /proc/self/exe reads the guest program. */
static int is_arm64_elf(const char *path)
{
	Elf64_Ehdr h;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, &h, sizeof(h));
	close(fd);
	return n == (ssize_t)sizeof(h) && memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 &&
	       h.e_machine == EM_AARCH64;
}

/* posix_spawn or posix_spawnp of @path, through the launcher when it is arm64. */
static int spawn(const char *name, pid_t *pid, const char *path,
		 const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *at,
		 char *const argv[], char *const envp[])
{
	spawn_fn real = (spawn_fn)dlsym(RTLD_NEXT, name);
	char prog[4096], **args;
	size_t n = 0;
	ssize_t len;
	int rc;

	if (!real)
		return ENOSYS;
	if (strchr(path, '/') && access(path, X_OK) < 0)
		return errno;
	if (!launcher[0] || !strchr(path, '/') || !is_arm64_elf(path))
		return real(pid, path, fa, at, argv, envp);
	/* qemu answers readlink of /proc/self/exe with the guest program */
	len = strcmp(path, "/proc/self/exe") ? -1 : readlink(path, prog, sizeof(prog) - 1);
	if (len > 0)
		prog[len] = '\0';
	else if (strlen(path) < sizeof(prog))
		strcpy(prog, path);
	else
		return ENAMETOOLONG;
	while (argv[n])
		n++;
	args = calloc(n + 2, sizeof(*args));
	if (!args)
		return ENOMEM;
	args[0] = launcher;
	args[1] = prog;
	for (size_t i = 1; i < n; i++)
		args[i + 1] = argv[i];
	rc = real(pid, launcher, fa, at, args, envp);
	free(args);
	return rc;
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
	return spawn("posix_spawn", pid, path, fa, at, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *at, char *const argv[], char *const envp[])
{
	return spawn("posix_spawnp", pid, file, fa, at, argv, envp);
}
