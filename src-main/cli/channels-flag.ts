// `--channels ENTRY...` (Claude Code's: `plugin:<name>@<marketplace>` or `server:<name>`, several
// space-separated). parseArgs takes one value per flag, so the flag is taken out of argv first:
// every following word that is an entry belongs to it (`seam run --channels plugin:chat@team
// server:webhook "watch CI"`); `--channels=a,b` and repeating the flag work too. Each entry is
// checked here, so a typo is a usage error rather than a channel that never speaks. Claude Code's
// `--dangerously-load-development-channels ENTRY...` (its allowlist bypass) is read the same way:
// Seam has no allowlist, so both flags enable what they name.
import { ChannelEntrySchema } from '../../plugins/channels/entries'
import { UsageError } from './usage-error'

const ENTRY_LIKE = /^(plugin|server):/
const FLAGS = ['--channels', '--dangerously-load-development-channels']

export function takeChannelsFlag(argv: readonly string[]): { argv: string[]; channels: string[] } {
  const out: string[] = []
  const channels: string[] = []
  let given = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') {
      out.push(...argv.slice(i))
      break
    }
    const inline = FLAGS.find((flag) => arg.startsWith(`${flag}=`))
    if (inline !== undefined) {
      given = true
      channels.push(...arg.slice(inline.length + 1).split(',').filter((entry) => entry !== ''))
    } else if (FLAGS.includes(arg)) {
      given = true
      const before = channels.length
      while (i + 1 < argv.length && ENTRY_LIKE.test(argv[i + 1])) channels.push(argv[++i])
      if (channels.length === before) throw new UsageError('--channels needs at least one entry: plugin:<name>@<marketplace> or server:<name>')
    } else out.push(arg)
  }
  for (const entry of channels) {
    const parsed = ChannelEntrySchema.safeParse(entry)
    if (!parsed.success) throw new UsageError(`--channels: ${parsed.error.issues[0]?.message ?? `"${entry}" is not a channel`}`)
  }
  if (given && channels.length === 0) throw new UsageError('--channels needs at least one entry: plugin:<name>@<marketplace> or server:<name>')
  return { argv: out, channels }
}
