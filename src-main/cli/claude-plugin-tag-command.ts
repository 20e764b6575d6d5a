// `seam plugin tag [PATH] [--push] [--remote NAME] [--dry-run] [-f|--force]`, as `claude plugin tag`:
// tags the Claude Code plugin in PATH (the current folder by default) `name--v<version>` for the
// dependency ranges that resolve against such tags. Needs no running Host.
import { parseArgs } from 'node:util'
import { createReleaseTag, planReleaseTag, pushReleaseTag } from '../../plugins/claude-plugins/index'
import { UsageError } from './usage-error'

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }

const USAGE = 'seam plugin tag [PATH] [--push] [--remote NAME] [--dry-run] [-f|--force]'

export async function pluginTagCommand(args: string[], io: Io, cwd = process.cwd()): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { push: { type: 'boolean', default: false }, remote: { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, force: { type: 'boolean', short: 'f', default: false } }
    })
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`)
  }
  const { values, positionals } = parsed
  if (positionals.length > 1) throw new UsageError(USAGE)
  if (values.remote !== undefined && !values.push) throw new UsageError('--remote goes with --push')
  const remote = values.remote ?? 'origin'
  const plan = await planReleaseTag(positionals[0] ?? cwd, { force: values.force })
  const what = `${plan.name} ${plan.version} at ${plan.commit.slice(0, 12)}${plan.entry ? ` (listed in ${plan.entry.file})` : ''}`
  if (values['dry-run']) {
    io.stdout.write(`Would ${plan.replaces ? 'move' : 'create'} tag ${plan.tag}: ${what}\n`)
    if (values.push) io.stdout.write(`Would push it to ${remote}\n`)
    return 0
  }
  await createReleaseTag(plan)
  io.stdout.write(`${plan.replaces ? 'Moved' : 'Created'} tag ${plan.tag}: ${what}\n`)
  if (!values.push) {
    io.stdout.write(`Push it with: git push ${remote} refs/tags/${plan.tag}\n`)
    return 0
  }
  await pushReleaseTag(plan, remote)
  io.stdout.write(`Pushed to ${remote}\n`)
  return 0
}
