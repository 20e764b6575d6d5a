// `--worktree [NAME]` (Claude Code's `--worktree [name]`): the name is optional, which parseArgs
// cannot express, so the flag is taken out of argv first. `--worktree=NAME` always names it;
// `--worktree NAME` takes the next word as the name only when it looks like one (letters, digits,
// `.`, `_`, `-`), so `seam run --worktree "fix the tests"` runs that prompt in a generated worktree.
import { UsageError } from './usage-error'

const NAME_LIKE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export function takeWorktreeFlag(argv: readonly string[]): { argv: string[]; worktree?: { name?: string } } {
  const out: string[] = []
  let worktree: { name?: string } | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') {
      out.push(...argv.slice(i))
      break
    }
    if (arg !== '--worktree' && !arg.startsWith('--worktree=')) {
      out.push(arg)
      continue
    }
    if (worktree) throw new UsageError('--worktree is given twice')
    if (arg.startsWith('--worktree=')) {
      const name = arg.slice('--worktree='.length)
      if (!NAME_LIKE.test(name)) throw new UsageError(`--worktree: "${name}" is not a usable name (letters, digits, ".", "_", "-"; at most 64)`)
      worktree = { name }
    } else if (i + 1 < argv.length && NAME_LIKE.test(argv[i + 1]) && argv.length - (i + 2) > 0 && !isCommand(argv, i)) {
      worktree = { name: argv[++i] }
    } else {
      worktree = {}
    }
  }
  return worktree ? { argv: out, worktree } : { argv: out }
}

/** `seam --worktree run …`: the word after the flag is the command, not a name. */
function isCommand(argv: readonly string[], flagAt: number): boolean {
  return !argv.slice(0, flagAt).some((arg) => !arg.startsWith('-'))
}
