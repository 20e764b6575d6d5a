// `seam`: the headless CLI. The host plugins (bridges, policies) load exactly as in the desktop
// app; only the approval answerer differs (the terminal, or --approve allow|deny).
import '../app/zod-jitless' // first: before any module builds a schema
import { dispatch, endClearedSession } from '../commands/dispatch'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { resolve } from 'node:path'
import { HostRuntime } from '../app/runtime'
import { terminalApprovalPlugin, type ApproveMode } from './terminal-approval'
import { attachPrinter } from './printer'
import { followTerminalColumns } from './terminal-columns'
import { pluginCommand } from './plugin-command'
import { authorCommand } from './plugin-author'
import { devCommand, DevSession } from './plugin-dev'
import { mcpCommand } from './mcp-command'
import { skillsCommand } from './skills-command'
import { UsageError } from './usage-error'
import { providerFromFlags } from './provider-flags'
import { resumeProvider } from './session-provider'
import { checkpointCommand, reportRecovered } from './checkpoint-command'
import { exitWhenDrained, ignoreClosedReaders } from '../app/process-exit'
import { onStopSignal } from '../app/stop-signals'
import { killWatchedGroups } from '../process/guarded-spawn'
import { createWorktreeSession } from '../app/worktree-sessions'
import { takeWorktreeFlag } from './worktree-flag'
import { takeChannelsFlag } from './channels-flag'
import { worktreeCommand } from './worktree-command'
import { waitForBackgroundAgents } from './background-wait'
import { keepWasmOnBaselineCompiler } from '../app/wasm-tier'

const USAGE = `Usage:
  seam run [options] PROMPT...        run the prompts in order in a new session; a prompt may be a
                                      slash command ("/help", "/usage", "/review 12", "/prompts:x K=v")
  seam run --worktree [NAME] [--worktree-base BRANCH] [options] PROMPT...
                                      run in a new git worktree of the workspace's repository, on a
                                      new branch seam/NAME (default: a generated name) from HEAD or BRANCH
  seam worktree list | diff ID | commit ID [--message M] | merge ID [--mode fast-forward|merge|squash]
                | pr ID [--message M] | discard ID [--force]
                                      review and land a worktree session (discard --force: even with
                                      uncommitted changes or unmerged commits)
  seam resume ID [options] PROMPT...  continue a session
  seam compact ID [INSTRUCTIONS...]   summarise a session's history (as /compact does)
  seam sessions                       list sessions
  seam revert ID [--turn N] [--file PATH] [--force]
                                      put back the files a turn changed (default: the last turn that did);
                                      N counts turns that changed files from 1
  seam rewind ID N [--force]          rewind the conversation and its files to before prompt N (1 = the first)
  seam config --dump [options]        print the composed plugin tree (also: seam --dump-config)
  seam plugin install PATH [--force] | list | enable NAME | disable NAME | remove NAME
                                      (--force: replace an installed same-version copy whose content differs)
  seam plugin install NAME[@RANGE]    install a bundle from the npm registry your .npmrc names
  seam plugin update [NAME]           move registry bundles to the newest fitting version in their range
  seam plugin search [QUERY]          find bundles (keyword seam-plugin) in the registry
  seam plugin new NAME [--host] [--client] [--dir DIR]   scaffold a bundle (both parts by default)
  seam plugin pack [DIR] [--out DIR]  check a bundle's package.json and pack it for install
  seam plugin sdk [DIR]               put the running Seam's @seam/sdk into the bundle (vendor/, a file: dependency)
  seam plugin marketplace add SOURCE | list | update [NAME] | remove NAME   Claude Code marketplaces
                                      (a folder, a git URL or path, owner/repo, a URL to marketplace.json, npm:PACKAGE)
  seam plugin install NAME@MARKETPLACE | update | enable | disable | uninstall NAME@MARKETPLACE [--prune [-y]]   Claude Code plugins
  seam plugin config NAME@MARKETPLACE [KEY=VALUE ...]   a Claude Code plugin's userConfig (asked on enable)
  seam plugin prune [--dry-run] [-y]  uninstall Claude Code plugins installed as dependencies that nothing needs now
  seam plugin tag [PATH] [--push] [--remote NAME] [--dry-run] [-f]   tag a Claude Code plugin's release NAME--vVERSION
  seam plugin dev PATH                build PATH, load it in every running Seam, rebuild and reload on change
  seam acp [options]                  serve the Agent Client Protocol on stdin/stdout (for editors)
  seam mcp list | enable NAME | disable NAME | restart NAME
                                      MCP servers: state, tools, stderr (list starts them)
  seam skills [--json]                the skills sessions get here, where each was found, skipped
                                      SKILL.md files (file and field) and name clashes

Options:
  --workspace DIR          workspace folder (default: the current directory)
  --provider KIND          deepseek | openai | anthropic | ollama | openai-compatible
  --base-url URL           provider base URL (default: the preset's)
  --model NAME             model name (default: the preset's)
  --api-key-env VAR        environment variable holding the API key
  --approve ask|allow|deny how to answer approval asks (default: ask on the terminal)
  --trust-workspace        run hooks, MCP servers and patches declared in the workspace
  --patch FILE             an extra cordis.patch.yml layer
  --json                   print every session event as one JSON line
  --max-steps N            per-turn step limit
  --plugin-dev PATH        (run, resume) build the bundle in PATH and load it as a dev bundle, rebuilt on change
  --channels ENTRY...      (run, resume) let these channels push messages into the session, besides
                           the settings' "channels": plugin:NAME@MARKETPLACE or server:NAME
                           (--dangerously-load-development-channels is read the same way)

Seam keeps its data in SEAM_HOME (default ~/.seam).`

const OPTIONS = {
  workspace: { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key-env': { type: 'string' },
  approve: { type: 'string', default: 'ask' },
  'trust-workspace': { type: 'boolean', default: false },
  patch: { type: 'string' },
  json: { type: 'boolean', default: false },
  force: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  yes: { type: 'boolean', short: 'y', default: false },
  prune: { type: 'boolean', default: false },
  turn: { type: 'string' },
  file: { type: 'string' },
  dump: { type: 'boolean', default: false },
  // DESIGN.md's spelling of `seam config --dump`.
  'dump-config': { type: 'boolean', default: false },
  'max-steps': { type: 'string' },
  'plugin-dev': { type: 'string', multiple: true },
  'worktree-base': { type: 'string' },
  message: { type: 'string' },
  mode: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false }
} as const satisfies ParseArgsConfig['options']

type Flags = ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>['values']
type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; env: NodeJS.ProcessEnv }

export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  // The author's commands take their own flags and need no Host.
  if (argv[0] === 'plugin' && (argv[1] === 'new' || argv[1] === 'pack' || argv[1] === 'sdk')) return authorCommand(argv.slice(1), io)
  if (argv[0] === 'plugin' && argv[1] === 'dev') return devCommand(argv.slice(2), io)
  if (argv[0] === 'plugin' && argv[1] === 'tag') return (await import('./claude-plugin-tag-command')).pluginTagCommand(argv.slice(2), io)
  const worktreeFlag = takeWorktreeFlag(argv)
  argv = worktreeFlag.argv
  const channelsFlag = takeChannelsFlag(argv)
  argv = channelsFlag.argv
  const { values, positionals } = parseFlags({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: OPTIONS
  })
  const [command, ...rest] = values['dump-config'] ? ['config', ...positionals] : positionals
  if ((worktreeFlag.worktree || values['worktree-base'] !== undefined) && command !== 'run') throw new UsageError('--worktree and --worktree-base go with seam run')
  if (values['worktree-base'] !== undefined && !worktreeFlag.worktree) throw new UsageError('--worktree-base needs --worktree')
  if (channelsFlag.channels.length > 0 && command !== 'run' && command !== 'resume') throw new UsageError('--channels goes with seam run and seam resume')
  if (values['dump-config']) values.dump = true
  if (values.version) {
    io.stdout.write(`${(await import('../app/runtime')).SEAM_VERSION}\n`)
    return 0
  }
  if (values.help || !command) {
    io.stdout.write(USAGE + '\n')
    return command || values.help ? 0 : 2
  }
  if (command === 'acp') {
    if (values.workspace !== undefined || values.json) throw new UsageError('seam acp takes no --workspace or --json: the editor names the folder of each session')
    if (rest.length > 0) throw new UsageError(`seam acp takes no arguments (got "${rest[0]}")`)
    const { runAcp } = await import('../acp/main')
    return runAcp(values, values.patch ? resolve(values.patch) : undefined, { stdin: process.stdin, stdout: io.stdout, stderr: io.stderr, env: io.env })
  }
  const approve = values.approve as ApproveMode
  if (!['ask', 'allow', 'deny'].includes(approve)) throw new UsageError(`--approve must be ask, allow or deny (got "${values.approve}")`)
  let workspace: string
  try {
    workspace = HostRuntime.checkWorkspace(values.workspace ?? process.cwd())
  } catch (error) {
    throw new UsageError(`${values.workspace === undefined ? 'the current directory' : '--workspace'}: ${(error as Error).message}`)
  }
  let provider = providerFromFlags(values, io.env)
  // `seam resume ID` without --provider: the session's own provider and model (flags override).
  const resumed = command === 'resume' && provider === undefined && rest[0] ? resumeProvider(rest[0], io.env) : undefined
  if (resumed && 'provider' in resumed) provider = resumed.provider
  const maxSteps = values['max-steps'] === undefined ? undefined : Number(values['max-steps'])
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps > 0)) throw new UsageError('--max-steps must be a positive integer')

  // A stop signal (Ctrl-C, kill, a closed terminal) cancels the running turn; the command then
  // ends, the host closes (hooks, tools and MCP servers stopped, the log flushed) and the exit
  // status is the signal's (130, 143, 129).
  const stop = new AbortController()
  const signals = onStopSignal((signal) => stop.abort(signal), { log: (message) => io.stderr.write(`seam: ${message}\n`) })
  try {
    const runtime = await HostRuntime.start({
      mode: 'headless',
      env: io.env,
      workspace,
      trustWorkspace: values['trust-workspace'],
      provider,
      patchFile: values.patch ? resolve(values.patch) : undefined,
      approvalMode: approve === 'allow' ? 'never-ask' : undefined,
      maxSteps,
      ...(channelsFlag.channels.length > 0 ? { channels: channelsFlag.channels } : {}),
      keyVariables: typeof values['api-key-env'] === 'string' ? [values['api-key-env']] : [],
      answerer: { key: 'builtin:approval-cli', plugin: terminalApprovalPlugin(approve, io.stderr) as never }
    })
    if (resumed && 'model' in resumed) runtime.setModel(resumed.model)
    // Loading the workspace finished the restores a crash cut short in its sessions: say so (the
    // session this command opens says it itself, when it opens it).
    const target = ['resume', 'compact', 'revert', 'rewind'].includes(command) ? rest[0] : undefined
    for (const { sessionId, notice } of runtime.restoresFinishedOnLoad) if (sessionId !== target) io.stderr.write(`seam: session ${sessionId}: ${notice}\n`)
    let code: number
    try {
      code = await runCommand(runtime, command, rest, values, io, stop.signal, worktreeFlag.worktree)
    } finally {
      await runtime.close()
      // Stopped by a signal: a process group that outlived the clean close (a tool's background
      // job) goes now, not when the host-death watcher sees us gone.
      if (signals.received) killWatchedGroups()
    }
    return signals.exitCode ?? code
  } finally {
    signals.dispose()
  }
}

async function runCommand(runtime: HostRuntime, command: string, rest: string[], values: Flags, io: Io, stop: AbortSignal, worktreeFlag?: { name?: string }): Promise<number> {
  switch (command) {
    case 'run':
    case 'resume': {
      const id = command === 'resume' ? rest.shift() : undefined
      if (command === 'resume' && !id) throw new UsageError('seam resume needs a session id')
      if (rest.length === 0) throw new UsageError(`seam ${command} needs at least one prompt`)
      // A patch layer that does not compose (it may disable a tool) must not be silently dropped.
      const composeError = runtime.plugins.dump().error
      if (composeError) {
        io.stderr.write(`seam: ${composeError}\n`)
        return 1
      }
      const dev = await startDevBundles(runtime, values['plugin-dev'] ?? [], io)
      try {
        if (dev.error) {
          io.stderr.write(`seam: ${dev.error}\n`)
          return 1
        }
        const worktree = worktreeFlag ? { ...worktreeFlag, ...(values['worktree-base'] !== undefined ? { base: values['worktree-base'] } : {}) } : undefined
        return await runPrompts(runtime, id, rest, values.json, io, stop, worktree)
      } finally {
        await Promise.all(dev.sessions.map((s) => s.close()))
      }
    }
    case 'compact': {
      const id = rest.shift()
      if (!id) throw new UsageError('seam compact needs a session id')
      return await runPrompts(runtime, id, [['/compact', ...rest].join(' ')], values.json, io, stop)
    }
    case 'sessions': {
      for (const s of await runtime.sessions.store.list()) {
        io.stdout.write(values.json ? JSON.stringify(s) + '\n' : `${s.id}  ${new Date(s.lastActivity).toISOString()}  ${s.title}  (${s.workspace})\n`)
      }
      return 0
    }
    case 'config': {
      if (!values.dump) throw new UsageError('seam config supports --dump')
      const dump = runtime.plugins.dump()
      io.stdout.write(dump.text)
      if (dump.error) io.stderr.write(`error: ${dump.error}\n`)
      return dump.error ? 1 : 0
    }
    case 'revert':
    case 'rewind':
      return await checkpointCommand(runtime, command, rest, { turn: values.turn, file: values.file, force: values.force, json: values.json }, io)
    case 'plugin':
      return await pluginCommand(runtime, rest, io, { force: values.force, dryRun: values['dry-run'], yes: values.yes, prune: values.prune })
    case 'mcp':
      return await mcpCommand(runtime, rest, values.json, io)
    case 'skills':
      return skillsCommand(runtime, values.json, io)
    case 'worktree':
      return await worktreeCommand(runtime, rest, { json: values.json, force: values.force, ...(values.message !== undefined ? { message: values.message } : {}), ...(values.mode !== undefined ? { mode: values.mode } : {}) }, io)
    default:
      throw new UsageError(`unknown command "${command}"`)
  }
}

async function runPrompts(
  runtime: HostRuntime,
  id: string | undefined,
  prompts: string[],
  json: boolean,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  stop: AbortSignal,
  worktree?: { name?: string; base?: string }
): Promise<number> {
  if (stop.aborted) return 1
  let session: Awaited<ReturnType<typeof runtime.sessions.open>>
  if (id) session = await runtime.sessions.open(id)
  else if (worktree) {
    try {
      const made = await createWorktreeSession(runtime, { workspace: runtime.workspace()!, ...worktree })
      session = made.session
      if (!json) {
        io.stderr.write(`worktree ${made.worktree.path}${made.worktree.branch ? ` (branch ${made.worktree.branch} from ${made.worktree.base})` : ''}\n`)
        for (const notice of made.notices) io.stderr.write(`seam: ${notice}\n`)
      }
    } catch (error) {
      io.stderr.write(`seam: cannot start a worktree session: ${(error as Error).message}\n`)
      return 1
    }
  } else session = await runtime.sessions.create(runtime.workspace()!)
  // A revert or rewind a crash interrupted was finished on open: say so (its notice is in the log too).
  reportRecovered(session.recovered, io)
  // --json shows every event of a new session: those already written (the header) now, the rest
  // as the printer hears of them, each once it is in the file.
  if (json && !id) for (const event of session.log.snapshot()) io.stdout.write(JSON.stringify(event) + '\n')
  // The printer, and the terminal's width for the subagents' status lines (terminal-columns.ts).
  const attach = () => {
    const printer = attachPrinter(runtime, session.log.id, json, io)
    const columns = followTerminalColumns(session.kernel, session.log.id, io.stdout)
    return () => {
      printer()
      columns()
    }
  }
  let detach = attach()
  // Named once a prompt runs as a turn: a run of built-in commands only keeps no session (below).
  let named = false
  const nameSession = () => {
    if (!json && !named) io.stderr.write(`session ${session.log.id}\n`)
    named = true
  }
  if (id) nameSession()
  let lastReason = 'completed'
  // A stop signal cancels the turn that runs (or is about to); the prompts after it do not run.
  const cancel = () => void session.agent.cancel()
  stop.addEventListener('abort', cancel)
  try {
    for (const prompt of prompts) {
      if (stop.aborted) {
        lastReason = 'cancelled'
        break
      }
      // Slash commands (src-main/commands): a built-in prints what it says; a custom one is expanded and runs as a turn.
      let result
      try {
        result = await dispatch(runtime, { id: session.log.id, agent: session.agent, workspace: session.workspace }, prompt, { source: 'cli', awaitCompaction: true })
      } catch (error) {
        if ((error as { code?: string }).code !== 'COMMAND_ERROR') throw error
        io.stderr.write(`seam: ${(error as Error).message}\n`)
        lastReason = 'error'
        break
      }
      if (result.kind === 'builtin') {
        if (result.name === 'compact') {
          if (!json) io.stderr.write(`${result.message}\n`)
        } else if (json) io.stdout.write(JSON.stringify({ type: 'command/output', command: result.name, ok: result.ok, text: result.message, ...(result.sessionId ? { sessionId: result.sessionId } : {}) }) + '\n')
        else io.stdout.write(`${result.message}\n`)
        lastReason = result.ok ? 'completed' : 'error'
        // `/clear`: the prompts after it go to the new session.
        if (result.sessionId) {
          detach()
          await endClearedSession(runtime, { id: session.log.id, agent: session.agent, workspace: session.workspace })
          session = await runtime.sessions.open(result.sessionId)
          detach = attach()
          named = false
          nameSession()
        }
        continue
      }
      nameSession()
      if (result.kind === 'prompt') session.agent.send(prompt, 'cli')
      await session.agent.whenIdle()
      lastReason = lastTurnReason(session.log.events)
    }
    // Background agents still running: wait for them and the turns their ends open.
    if (!stop.aborted && named && (await waitForBackgroundAgents(session.agent, session.kernel.getService('backgroundTasks'), session.log.id, stop))) {
      lastReason = stop.aborted ? 'cancelled' : lastTurnReason(session.log.events)
    }
  } finally {
    stop.removeEventListener('abort', cancel)
    detach()
  }
  // A new session in which only built-in commands ran (`seam run "/help"`) is not kept.
  if (!id && !named) await runtime.sessions.discardIfEmpty(session.log.id)
  return lastReason === 'completed' ? 0 : 1
}

function lastTurnReason(events: readonly { type: string; reason?: string }[]): string {
  const end = [...events].reverse().find((e) => e.type === 'turn/end')
  return end?.reason ?? 'error'
}

/**
 * `--plugin-dev PATH`: builds each bundle and loads it into this run's Host as a dev bundle; a
 * change to its sources during the run rebuilds and reloads it (between model steps). A first
 * build or load that fails stops the run before any prompt.
 */
async function startDevBundles(runtime: HostRuntime, dirs: string[], io: { stderr: NodeJS.WritableStream }): Promise<{ sessions: DevSession[]; error?: string }> {
  const sessions: DevSession[] = []
  for (const dir of dirs) {
    const session = new DevSession({
      dir: resolve(dir),
      onBuild: async (entry, result) => {
        await runtime.devBundles.update(entry)
        // The first build's outcome decides whether the run starts (reported below).
        if (entry.build === 1) return
        const report = runtime.devBundles.reportOf(entry.name)
        io.stderr.write(`--plugin-dev ${dir}: build ${entry.build} ${report?.state === 'loaded' ? 'loaded' : `not loaded: ${report?.error}`}\n`)
      }
    })
    sessions.push(session)
    const first = await session.start()
    const report = runtime.devBundles.reportOf(first.name)
    if (report?.state !== 'loaded') return { sessions, error: `--plugin-dev ${dir}: ${report?.error ?? first.error ?? 'not loaded'}` }
  }
  return { sessions }
}

/** parseArgs, with its errors (an unknown flag, a flag without its value) as usage errors. */
function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config)
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message)
    throw error
  }
}

/**
 * The `seam` process: runs `main`, prints an error that escaped it, and exits with the status only
 * once stdout and stderr have passed everything on (app/process-exit.ts). bin/seam.mjs calls this.
 */
export async function runCli(argv: string[]): Promise<never> {
  keepWasmOnBaselineCompiler()
  ignoreClosedReaders()
  let code: number
  try {
    code = await main(argv)
  } catch (error) {
    process.stderr.write(`seam: ${error instanceof Error ? error.message : String(error)}\n`)
    code = error instanceof UsageError ? 2 : 1
  }
  return exitWhenDrained(code)
}

const isEntry = process.argv[1] && /cli\.(m?js|ts)$/.test(process.argv[1])
if (isEntry) void runCli(process.argv.slice(2))
