// Cost of Claude Code permission rules, which the policy reads per call (so settings edits apply at
// once): (a) us per ToolRegistry.execute() of a no-op Bash-shaped tool with the permission policy
// and 60 rules from a settings file (20 each of deny, ask, allow; none matches, the worst case)
// against the same policy with no rules; (b) us per specs() (the tool list of each model request,
// filtered by the bare-deny `tools/offer` guard) with those rules against specs() with no policy;
// (c) us per execute() of a 10-part Bash line (`&&`, `;`, pipes, a redirection, a wrapper) with
// those rules (split by the shell parser, every part and its files matched) against the same call
// with no rules. Each call's line differs (a counter in an argument), so the parser's cache of
// recent lines never answers: the parse is paid on every call, as for a model's new command.
const TEN_PARTS = (n: number) => `cd src && git status && git diff HEAD~${n} | head -50 > out.txt; ls -la && echo "done ${n}" && timeout 5 npm test 2>&1 | tee log.txt; cat a.txt | wc -l`
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import type { WorkspaceService } from '../src-main/app/plugin-host'
import { toolsPlugin } from '../src-main/tools'
import { definePlugin, Kernel } from '../src-shared/kernel'
import claudeSettings from '../plugins/claude-settings/index'
import permissionPolicy from '../plugins/permission-policy/index'
import { splitBashCommand, splitBashCommandSync } from '../plugins/hook-protocol/bash-command/index'
import { line as benchLine, usPerAsyncCall, type BenchLine } from './measure'

const RULES_PER_KIND = 20

export async function run(): Promise<BenchLine[]> {
  const dir = mkdtempSync(join(tmpdir(), 'seam-bench-rules-'))
  try {
    const ws = join(dir, 'ws')
    mkdirSync(join(ws, '.claude'), { recursive: true })
    const rules = (kind: string) => Array.from({ length: RULES_PER_KIND }, (_, i) => (i % 2 === 0 ? `Bash(${kind}-command-${i}:*)` : `Edit(src/${kind}/${i}/**)`))
    writeFileSync(join(ws, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: rules('deny'), ask: rules('ask'), allow: rules('allow') } }))
    const empty = join(dir, 'none.json')

    const withRules = registry(ws, join(dir, 'missing-user.json'), true)
    const noRules = registry(join(dir, 'empty-ws'), empty, true)
    const noPolicy = registry(join(dir, 'empty-ws'), empty, false)
    const request = { name: 'Bash', args: { command: 'echo hi' }, callId: 'b', sessionId: 'b', cwd: ws }

    const baseline = await usPerAsyncCall(() => noRules.execute(request))
    const measured = await usPerAsyncCall(() => withRules.execute(request))
    const specsBaseline = await usPerAsyncCall(async () => noPolicy.specs(), 20_000)
    const specsMeasured = await usPerAsyncCall(async () => withRules.specs(), 20_000)
    let n = 0
    const tenParts = () => ({ ...request, args: { command: TEN_PARTS(n++) } })
    const lineBaseline = await usPerAsyncCall(() => noRules.execute(tenParts()), 2_000)
    const lineMeasured = await usPerAsyncCall(() => withRules.execute(tenParts()), 2_000)
    await splitBashCommand('true')
    const splitAlone = await usPerAsyncCall(async () => splitBashCommandSync(TEN_PARTS(n++)), 2_000)
    return [
      benchLine('permission-rules', `execute() with ${3 * RULES_PER_KIND} settings rules, none matching`, measured, 'us/call', baseline),
      benchLine('permission-rules', `execute() of a 10-part Bash line with ${3 * RULES_PER_KIND} settings rules, none matching`, lineMeasured, 'us/call', lineBaseline),
      benchLine('permission-rules', `added by ${3 * RULES_PER_KIND} settings rules to a 10-part Bash line (target 500)`, lineMeasured - lineBaseline, 'us/call', lineBaseline, { bound: 500 }),
      benchLine('permission-rules', 'of which splitting the 10-part line (the shell parser, uncached)', splitAlone, 'us/call', lineBaseline),
      benchLine('permission-rules', `specs() of 10 tools with ${3 * RULES_PER_KIND} settings rules`, specsMeasured, 'us/call', specsBaseline)
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function registry(root: string, userSettingsPath: string, policy: boolean) {
  const kernel = new Kernel()
  kernel.plugin(toolsPlugin)
  const tools = kernel.getService('tools')!
  for (let i = 0; i < 10; i++) {
    tools.register({ name: i === 0 ? 'Bash' : `Tool${i}`, description: 'no-op', inputSchema: z.object({ command: z.string().optional() }), execute: () => ({ content: 'ok' }) })
  }
  const workspace = definePlugin({
    name: 'bench-workspace',
    apply(ctx) {
      const service: WorkspaceService = { root, trusted: true, seamHome: root, contributeTrustItems: (owner) => owner.onDispose(() => {}), isApproved: () => true, itemsChanged: () => {}, approveItems: () => {} }
      ctx.provide('workspace', service)
    }
  })
  kernel.plugin(workspace)
  kernel.plugin(claudeSettings, { userSettingsPath })
  if (policy) kernel.plugin(permissionPolicy, { mode: 'never-ask' })
  return tools
}
